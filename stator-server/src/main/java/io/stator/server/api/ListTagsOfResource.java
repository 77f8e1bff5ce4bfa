package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListTagsOfResourceInput;
import java.io.IOException;
import java.util.Map;

/** ListTagsOfResource: all of a table's tags in one page (a table has at most 50). */
final class ListTagsOfResource implements Action<ListTagsOfResourceInput> {

    private final Engine engine;

    ListTagsOfResource(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ListTagsOfResourceInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) {
            Permissions.resource(access, engine, "ListTagsOfResource", request.resourceArn(),
                    Permissions.tableOfArn(engine, request.resourceArn()));
        }
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Tags");
        for (Map.Entry<String, String> tag : engine.tables().tags(request.resourceArn()).entrySet()) {
            g.writeStartObject();
            g.writeStringField("Key", tag.getKey());
            g.writeStringField("Value", tag.getValue());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
