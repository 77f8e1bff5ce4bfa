package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeGlobalTableSettingsInput;

/**
 * DescribeGlobalTableSettings, of global tables version 2017.11.29 (Legacy):
 * GlobalTableNotFoundException for every name, as DynamoDB answers today.
 */
final class DescribeGlobalTableSettings implements Action<DescribeGlobalTableSettingsInput> {

    private final Engine engine;

    DescribeGlobalTableSettings(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeGlobalTableSettingsInput request, Authorizer access, ResponseBody response) {
        LegacyGlobalTables legacy = new LegacyGlobalTables(engine.catalog().arns());
        if (access.enforced()) {
            Permissions.globalTable(access, legacy, "DescribeGlobalTableSettings", request.globalTableName());
        }
        legacy.describeSettings(request.globalTableName());
    }
}
