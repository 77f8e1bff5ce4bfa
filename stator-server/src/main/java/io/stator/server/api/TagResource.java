package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** TagResource: adds or replaces tags, all or none; the response body is empty, as DynamoDB's. */
final class TagResource implements Action {

    private final Engine engine;

    TagResource(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) {
        List<Struct> tags = request.structList("Tags");
        if (tags.isEmpty()) throw DynamoDbException.validation("Atleast one Tag needs to be provided as Input.");
        Map<String, String> added = TagRules.parseTags(tags);
        TableDefinition table = ResourceArns.table(request.string("ResourceArn"), engine.catalog());
        engine.catalog().update(table.name(), current -> {
            Map<String, String> merged = new LinkedHashMap<>(current.tags());
            merged.putAll(added);
            TagRules.checkCount(merged.size());
            TableDefinition.Builder b = current.toBuilder();
            b.tags = merged;
            return b.build();
        });
    }
}
