package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.Map;

/** ListTagsOfResource: all of a table's tags in one page (a table has at most 50). */
final class ListTagsOfResource implements Action {

    private final Engine engine;

    ListTagsOfResource(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        TableDefinition table = ResourceArns.table(request.string("ResourceArn"), engine.catalog());
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Tags");
        for (Map.Entry<String, String> tag : table.tags().entrySet()) {
            g.writeStartObject();
            g.writeStringField("Key", tag.getKey());
            g.writeStringField("Value", tag.getValue());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
