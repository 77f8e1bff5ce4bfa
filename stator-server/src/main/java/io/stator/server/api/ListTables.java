package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.List;

/**
 * ListTables: names in ascending order, at most {@code Limit} (default 100) a page, starting
 * after {@code ExclusiveStartTableName}, which need not exist. LastEvaluatedTableName is given
 * only when more tables follow.
 */
final class ListTables implements Action {

    private static final int DEFAULT_LIMIT = 100;

    private final Engine engine;

    ListTables(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        int limit = request.has("Limit") ? request.intValue("Limit") : DEFAULT_LIMIT;
        List<String> names = engine.catalog().names(request.string("ExclusiveStartTableName"), limit);
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("TableNames");
        for (String name : names) g.writeString(name);
        g.writeEndArray();
        if (names.size() == limit && engine.catalog().hasTablesAfter(names.get(names.size() - 1))) {
            g.writeStringField("LastEvaluatedTableName", names.get(names.size() - 1));
        }
    }
}
