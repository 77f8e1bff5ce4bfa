package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeGlobalTableInput;

/**
 * DescribeGlobalTable, of global tables version 2017.11.29 (Legacy): GlobalTableNotFoundException
 * for every name, a table global in version 2019.11.21 included, as DynamoDB answers today.
 */
final class DescribeGlobalTable implements Action<DescribeGlobalTableInput> {

    private final Engine engine;

    DescribeGlobalTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeGlobalTableInput request, Authorizer access, ResponseBody response) {
        LegacyGlobalTables legacy = new LegacyGlobalTables(engine.catalog().arns());
        if (access.enforced()) Permissions.globalTable(access, legacy, "DescribeGlobalTable", request.globalTableName());
        legacy.describe(request.globalTableName());
    }
}
