package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** UntagResource: removes tags by key (absent keys are no-ops); the response body is empty. */
final class UntagResource implements Action {

    private final Engine engine;

    UntagResource(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) {
        List<String> keys = request.stringList("TagKeys");
        if (keys.isEmpty()) throw DynamoDbException.validation("Atleast one Tag Key needs to be provided as Input.");
        TagRules.checkTagKeys(keys);
        TagRules.checkCount(keys.size());
        TableDefinition table = ResourceArns.table(request.string("ResourceArn"), engine.catalog());
        engine.catalog().update(table.name(), current -> {
            Map<String, String> remaining = new LinkedHashMap<>(current.tags());
            keys.forEach(remaining::remove);
            TableDefinition.Builder b = current.toBuilder();
            b.tags = remaining;
            return b.build();
        });
    }
}
