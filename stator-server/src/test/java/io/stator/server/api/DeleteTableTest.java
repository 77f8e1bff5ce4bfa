package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

class DeleteTableTest {

    private static final String PROTECTED = "Resource cannot be deleted as it is currently protected against deletion. "
            + "Disable deletion protection first.";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static TableDescription create(String table) {
        return server.client().createTable(Tables.onDemand(table).build()).tableDescription();
    }

    private static TableDescription delete(String table) {
        return server.client().deleteTable(b -> b.tableName(table)).tableDescription();
    }

    private static void assertGone(String table) {
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> server.client().describeTable(b -> b.tableName(table)));
    }

    private static Map<String, AttributeValue> item(String key) {
        return Map.of("pk", AttributeValue.fromS(key), "v", AttributeValue.fromS("value of " + key));
    }

    @Test
    void deleteTableAnswersWithTheTableDeleting() {
        String table = StatorTestServer.tableName();
        TableDescription created = create(table);
        TableDescription deleted = delete(table);
        assertEquals(TableStatus.DELETING, deleted.tableStatus());
        assertEquals(table, deleted.tableName());
        assertEquals(created.tableId(), deleted.tableId());
        assertEquals(created.tableArn(), deleted.tableArn());
        assertGone(table);
    }

    /**
     * DeleteTable describes the table briefly, as DynamoDB does (`aws dynamodb delete-table`
     * output recorded in eu-central-1, 2025, and the CLI's own example): no AttributeDefinitions,
     * KeySchema, CreationDateTime, indexes, stream or warm throughput.
     */
    @Test
    void deleteTableDescribesTheTableAsDynamoDbDoes() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table)
                .attributeDefinitions(software.amazon.awssdk.services.dynamodb.model.AttributeDefinition.builder()
                        .attributeName("pk").attributeType("S").build(),
                        software.amazon.awssdk.services.dynamodb.model.AttributeDefinition.builder()
                        .attributeName("g").attributeType("S").build())
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(i -> i.indexName("byG").keySchema(k -> k.attributeName("g").keyType("HASH"))
                        .projection(p -> p.projectionType("ALL")).provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L)))
                .provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(3L))
                .streamSpecification(st -> st.streamEnabled(true).streamViewType("NEW_IMAGE")));
        TableDescription deleted = delete(table);
        assertEquals(java.util.List.of("TableName", "TableStatus", "ProvisionedThroughput", "TableSizeBytes", "ItemCount",
                "TableArn", "TableId", "DeletionProtectionEnabled"), present(deleted));
        assertEquals(5L, deleted.provisionedThroughput().readCapacityUnits());
        assertEquals(3L, deleted.provisionedThroughput().writeCapacityUnits());
        assertEquals(0L, deleted.provisionedThroughput().numberOfDecreasesToday());
        assertEquals(0L, deleted.itemCount());
        assertFalse(deleted.deletionProtectionEnabled());

        String onDemand = StatorTestServer.tableName();
        create(onDemand);
        TableDescription deletedOnDemand = delete(onDemand);
        assertEquals(java.util.List.of("TableName", "TableStatus", "ProvisionedThroughput", "TableSizeBytes", "ItemCount",
                "TableArn", "TableId", "BillingModeSummary", "DeletionProtectionEnabled"), present(deletedOnDemand));
        assertEquals("PAY_PER_REQUEST", deletedOnDemand.billingModeSummary().billingModeAsString());
    }

    /** The members a description carries, in the model's order of TableDescription's members. */
    private static java.util.List<String> present(TableDescription d) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (software.amazon.awssdk.core.SdkField<?> f : d.sdkFields()) {
            Object v = f.getValueOrDefault(d);
            boolean set = v != null && !(v instanceof software.amazon.awssdk.core.util.SdkAutoConstructList<?>)
                    && !(v instanceof software.amazon.awssdk.core.util.SdkAutoConstructMap<?, ?>);
            if (set) names.add(f.memberName());
        }
        return names;
    }

    @Test
    void deleteTableRemovesItFromListTables() {
        String table = StatorTestServer.tableName();
        create(table);
        assertTrue(server.client().listTablesPaginator().tableNames().stream().anyMatch(table::equals));
        delete(table);
        assertFalse(server.client().listTablesPaginator().tableNames().stream().anyMatch(table::equals));
    }

    @Test
    void deleteTableDropsItsItems() {
        String table = StatorTestServer.tableName();
        String firstId = create(table).tableId();
        for (int i = 0; i < 20; i++) {
            String key = "k" + i;
            server.client().putItem(b -> b.tableName(table).item(item(key)));
        }
        delete(table);
        assertError("ResourceNotFoundException", "Requested resource not found",
                () -> server.client().getItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("k0")))));

        String secondId = create(table).tableId();
        assertNotEquals(firstId, secondId);
        for (int i = 0; i < 20; i++) {
            String key = "k" + i;
            assertFalse(server.client().getItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS(key)))).hasItem(),
                    "item " + key + " of the deleted table");
        }
        server.restart();
        assertEquals(secondId, server.client().describeTable(b -> b.tableName(table)).table().tableId());
        assertFalse(server.client().getItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("k0")))).hasItem());
    }

    @Test
    void deleteTableAcceptsTheTableArn() {
        String table = StatorTestServer.tableName();
        TableDescription created = create(table);
        TableDescription deleted = delete(created.tableArn());
        assertEquals(table, deleted.tableName());
        assertGone(table);
    }

    @Test
    void deleteTableRejectsAMissingTable() {
        String table = StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> delete(table));
    }

    @Test
    void deleteTableRejectsATableDeletedBefore() {
        String table = StatorTestServer.tableName();
        create(table);
        delete(table);
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> delete(table));
    }

    @Test
    void deleteTableIsRefusedUnderDeletionProtectionAndAllowedAfterItIsOff() {
        String table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).deletionProtectionEnabled(true).build());
        server.client().putItem(b -> b.tableName(table).item(item("kept")));

        assertValidation(PROTECTED, () -> delete(table));
        assertEquals(item("kept"), server.client().getItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("kept")))).item());

        server.client().updateTable(b -> b.tableName(table).deletionProtectionEnabled(false));
        assertEquals(TableStatus.DELETING, delete(table).tableStatus());
        assertGone(table);
    }

    @Test
    void deleteTableIsRefusedUnderDeletionProtectionTurnedOnLater() {
        String table = StatorTestServer.tableName();
        create(table);
        server.client().updateTable(b -> b.tableName(table).deletionProtectionEnabled(true));
        assertValidation(PROTECTED, () -> delete(table));
        server.restart();
        assertValidation(PROTECTED, () -> delete(table));
    }

    @Test
    void deleteTableRejectsArnsOfAnotherRegionOrAccount() {
        String table = StatorTestServer.tableName();
        create(table);
        String otherRegion = "arn:aws:dynamodb:us-west-2:000000000000:table/" + table;
        assertValidation("1 validation error detected: Invalid AWS region in '" + otherRegion + "'", () -> delete(otherRegion));
        assertError("AccessDeniedException", "Access is denied",
                () -> delete("arn:aws:dynamodb:us-east-1:111122223333:table/" + table));
        assertEquals(TableStatus.ACTIVE, server.client().describeTable(b -> b.tableName(table)).table().tableStatus());
    }

    @Test
    void deleteTableChecksTheNameBeforeLookingItUp() {
        assertValidation("1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3", () -> delete("ab"));
    }
}
