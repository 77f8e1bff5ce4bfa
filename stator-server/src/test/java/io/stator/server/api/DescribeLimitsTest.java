package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeLimitsResponse;

/** DescribeLimits: DynamoDB's default quotas, 40,000 units a table and 80,000 an account. */
class DescribeLimitsTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @Test
    void describeLimitsGivesDynamoDbsDefaultQuotas() {
        DescribeLimitsResponse limits = server.client().describeLimits(b -> { });
        assertEquals(80_000L, limits.accountMaxReadCapacityUnits());
        assertEquals(80_000L, limits.accountMaxWriteCapacityUnits());
        assertEquals(40_000L, limits.tableMaxReadCapacityUnits());
        assertEquals(40_000L, limits.tableMaxWriteCapacityUnits());
    }

    @Test
    void describeLimitsAnswersWithTheFourLimitsOnly() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.describeLimits(b -> { });
        }
        assertEquals(Set.of("AccountMaxReadCapacityUnits", "AccountMaxWriteCapacityUnits", "TableMaxReadCapacityUnits",
                "TableMaxWriteCapacityUnits"), raw.lastJson().asObject().keySet());
    }

    @Test
    void describeLimitsPerTableMaximumIsTheOneCreateTableEnforces() {
        DescribeLimitsResponse limits = server.client().describeLimits(b -> { });
        long read = limits.tableMaxReadCapacityUnits();
        long write = limits.tableMaxWriteCapacityUnits();
        server.client().createTable(Tables.provisioned(StatorTestServer.tableName(), read, write).build());
        assertError("LimitExceededException", "The requested ReadCapacityUnits, " + (read + 1) + ", is above the per "
                + "table maximum for the account in us-east-1. Per table maximum: " + read,
                () -> server.client().createTable(Tables.provisioned(StatorTestServer.tableName(), read + 1, write).build()));
    }
}
