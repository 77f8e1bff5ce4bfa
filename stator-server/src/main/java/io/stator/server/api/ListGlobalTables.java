package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListGlobalTablesInput;
import java.io.IOException;
import java.util.List;

/**
 * ListGlobalTables, of global tables version 2017.11.29 (Legacy): {"GlobalTables": []}, without
 * LastEvaluatedGlobalTableName, as DynamoDB answers today; it never lists tables global in
 * version 2019.11.21.
 */
final class ListGlobalTables implements Action<ListGlobalTablesInput> {

    private final Engine engine;

    ListGlobalTables(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ListGlobalTablesInput request, Authorizer access, ResponseBody response) throws IOException {
        LegacyGlobalTables legacy = new LegacyGlobalTables(engine.catalog().arns());
        if (access.enforced()) Permissions.account(access, "ListGlobalTables");
        List<String> names = legacy.list(request.regionName());
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("GlobalTables");
        for (String name : names) {
            g.writeStartObject();
            g.writeStringField("GlobalTableName", name);
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
