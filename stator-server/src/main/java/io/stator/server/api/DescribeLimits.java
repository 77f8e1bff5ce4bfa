package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;

/** DescribeLimits: DynamoDB's default quotas (40,000 units per table, 80,000 per account). */
final class DescribeLimits implements Action {

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        JsonGenerator g = response.json();
        g.writeNumberField("AccountMaxReadCapacityUnits", TableSettings.ACCOUNT_MAX_CAPACITY_UNITS);
        g.writeNumberField("AccountMaxWriteCapacityUnits", TableSettings.ACCOUNT_MAX_CAPACITY_UNITS);
        g.writeNumberField("TableMaxReadCapacityUnits", TableSettings.TABLE_MAX_CAPACITY_UNITS);
        g.writeNumberField("TableMaxWriteCapacityUnits", TableSettings.TABLE_MAX_CAPACITY_UNITS);
    }
}
