package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeLimitsInput;
import java.io.IOException;

/** DescribeLimits: DynamoDB's default quotas (40,000 units per table, 80,000 per account). */
final class DescribeLimits implements Action<DescribeLimitsInput> {

    @Override
    public void execute(DescribeLimitsInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.account(access, "DescribeLimits");
        JsonGenerator g = response.json();
        g.writeNumberField("AccountMaxReadCapacityUnits", io.stator.engine.table.TableSettings.ACCOUNT_MAX_CAPACITY_UNITS);
        g.writeNumberField("AccountMaxWriteCapacityUnits", io.stator.engine.table.TableSettings.ACCOUNT_MAX_CAPACITY_UNITS);
        g.writeNumberField("TableMaxReadCapacityUnits", io.stator.engine.table.TableSettings.TABLE_MAX_CAPACITY_UNITS);
        g.writeNumberField("TableMaxWriteCapacityUnits", io.stator.engine.table.TableSettings.TABLE_MAX_CAPACITY_UNITS);
    }
}
