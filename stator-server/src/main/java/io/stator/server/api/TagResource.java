package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.TableSpecs;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.Tag;
import io.stator.server.protocol.request.TagResourceInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** TagResource: adds or replaces tags, all or none; the response body is empty, as DynamoDB's. */
final class TagResource implements Action<TagResourceInput> {

    private final Engine engine;

    TagResource(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(TagResourceInput request, Authorizer access, ResponseBody response) {
        List<TableSpecs.Tag> tags = new ArrayList<>(request.tags().size());
        for (Tag t : request.tags()) tags.add(new TableSpecs.Tag(t.key(), t.value()));
        if (access.enforced()) {
            Map<String, String> requested = new LinkedHashMap<>();
            for (TableSpecs.Tag t : tags) requested.put(t.key(), t.value());
            Permissions.tagging(access, "TagResource", request.resourceArn(),
                    Permissions.tableOfArn(engine, request.resourceArn()), requested, requested.keySet());
        }
        engine.tables().tag(request.resourceArn(), tags);
    }
}
