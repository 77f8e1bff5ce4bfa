package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A table's ARN is accepted wherever its name is, in the item operations as in the table ones
 * (DescribeTableTest, UpdateTableTest and DeleteTableTest cover those); an ARN of another region
 * or account is refused there as well.
 */
class TableArnTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final Map<String, AttributeValue> KEY = Map.of("pk", AttributeValue.fromS("a"));

    @Test
    void itemOperationsAcceptTheTableArn() {
        String table = StatorTestServer.tableName();
        String arn = server.client().createTable(Tables.onDemand(table).build()).tableDescription().tableArn();
        Map<String, AttributeValue> item = Map.of("pk", AttributeValue.fromS("a"), "v", AttributeValue.fromN("1"));

        server.client().putItem(b -> b.tableName(arn).item(item));
        assertEquals(item, server.client().getItem(b -> b.tableName(table).key(KEY)).item());
        assertEquals(item, server.client().getItem(b -> b.tableName(arn).key(KEY)).item());
        server.client().deleteItem(b -> b.tableName(arn).key(KEY));
        assertFalse(server.client().getItem(b -> b.tableName(table).key(KEY)).hasItem());
    }

    @Test
    void itemOperationsRefuseArnsOfAnotherRegionOrAccount() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        String otherRegion = "arn:aws:dynamodb:sa-east-1:000000000000:table/" + table;
        assertValidation("1 validation error detected: Invalid AWS region in '" + otherRegion + "'",
                () -> server.client().getItem(b -> b.tableName(otherRegion).key(KEY)));
        assertError("AccessDeniedException", "Access is denied",
                () -> server.client().putItem(b -> b.tableName("arn:aws:dynamodb:us-east-1:444455556666:table/" + table).item(KEY)));
        assertFalse(server.client().getItem(b -> b.tableName(table).key(KEY)).hasItem());
    }

    @Test
    void itemOperationsOnTheArnOfAMissingTableAreNotFound() {
        String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/" + StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> server.client().getItem(b -> b.tableName(arn).key(KEY)));
    }
}
