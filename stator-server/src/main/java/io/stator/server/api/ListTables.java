package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.Tables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListTablesInput;
import java.io.IOException;

/**
 * ListTables: names in ascending order, at most {@code Limit} (default 100) a page, starting
 * after {@code ExclusiveStartTableName}, which need not exist. LastEvaluatedTableName is given
 * only when more tables follow.
 */
final class ListTables implements Action<ListTablesInput> {

    private static final int DEFAULT_LIMIT = 100;

    private final Engine engine;

    ListTables(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ListTablesInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.account(access, "ListTables");
        int limit = request.limit() != null ? request.limit() : DEFAULT_LIMIT;
        Tables.TableNames page = engine.tables().list(request.exclusiveStartTableName(), limit);
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("TableNames");
        for (String name : page.names()) g.writeString(name);
        g.writeEndArray();
        if (page.lastEvaluatedTableName() != null) g.writeStringField("LastEvaluatedTableName", page.lastEvaluatedTableName());
    }
}
