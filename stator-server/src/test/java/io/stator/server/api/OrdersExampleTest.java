package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Tables.definition;
import static io.stator.server.testing.Tables.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The orders example, as a DynamoDB user would build it: an Orders table keyed by CustomerID and
 * OrderID, with
 * <ul>
 *   <li>StatusByDate, a global index on Status and OrderDate (projecting Total), for "all SHIPPED
 *       orders in March";</li>
 *   <li>CustomerOrdersByDate, a local index on CustomerID and OrderDate, for "a customer's orders by
 *       date", read consistently;</li>
 *   <li>PendingOrders, a sparse global index on pendingAt: an order is in it only while it has
 *       pendingAt, so a Scan of it lists the pending orders and nothing else.</li>
 * </ul>
 * Each test makes its own table. Global indexes follow writes asynchronously, so their reads
 * wait for the expected result (with a deadline); the local index is read right away.
 */
class OrdersExampleTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    // Status is a reserved word: expressions name it #status.
    private static final Map<String, String> STATUS = Map.of("#status", "Status");

    /** Creates an Orders table and places the orders of three customers (order ids not in date order). */
    private static String ordersTable() {
        String table = StatorTestServer.tableName();
        server.client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(definition("CustomerID", ScalarAttributeType.S),
                        definition("OrderID", ScalarAttributeType.S), definition("Status", ScalarAttributeType.S),
                        definition("OrderDate", ScalarAttributeType.S), definition("pendingAt", ScalarAttributeType.S))
                .keySchema(key("CustomerID", KeyType.HASH), key("OrderID", KeyType.RANGE))
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder().indexName("StatusByDate")
                                .keySchema(key("Status", KeyType.HASH), key("OrderDate", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("Total")).build(),
                        GlobalSecondaryIndex.builder().indexName("PendingOrders")
                                .keySchema(key("pendingAt", KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("CustomerOrdersByDate")
                        .keySchema(key("CustomerID", KeyType.HASH), key("OrderDate", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL)).build()));
        order(table, "c1", "o-9", "2024-02-27T08:00:00Z", "SHIPPED", "30", null);
        order(table, "c1", "o-3", "2024-03-05T09:30:00Z", "SHIPPED", "12.5", null);
        order(table, "c1", "o-7", "2024-03-20T10:00:00Z", "PENDING", "99", "2024-03-20T10:00:00Z");
        order(table, "c1", "o-1", "2024-04-01T00:00:00Z", "DELIVERED", "5", null);
        order(table, "c2", "o-5", "2024-03-11T12:00:00Z", "SHIPPED", "40", null);
        order(table, "c2", "o-2", "2024-03-31T23:59:59Z", "SHIPPED", "7", null);
        order(table, "c2", "o-8", "2024-03-15T16:45:00Z", "PENDING", "18", "2024-03-15T16:45:00Z");
        order(table, "c3", "o-4", "2024-01-02T07:00:00Z", "CANCELLED", "60", null);
        return table;
    }

    private static void order(String table, String customer, String orderId, String date, String status, String total,
                              String pendingAt) {
        Map<String, AttributeValue> order = item("CustomerID", s(customer), "OrderID", s(orderId), "OrderDate", s(date),
                "Status", s(status), "Total", n(total), "ShipTo", s("1 Main St"));
        if (pendingAt != null) order.put("pendingAt", s(pendingAt));
        server.client().putItem(b -> b.tableName(table).item(order));
    }

    private static Map<String, AttributeValue> orderKey(String customer, String orderId) {
        return item("CustomerID", s(customer), "OrderID", s(orderId));
    }

    private static List<String> orderIds(List<Map<String, AttributeValue>> items) {
        return items.stream().map(i -> i.get("OrderID").s()).toList();
    }

    /** The ids of the orders with that status in March 2024, by date (from the global index). */
    private static List<String> inMarch(String table, String status) {
        return orderIds(server.client().query(b -> b.tableName(table).indexName("StatusByDate")
                .keyConditionExpression("#status = :status AND begins_with(OrderDate, :march)")
                .expressionAttributeNames(STATUS)
                .expressionAttributeValues(item(":status", s(status), ":march", s("2024-03")))).items());
    }

    private static Set<String> pending(String table) {
        return new HashSet<>(orderIds(server.client().scan(b -> b.tableName(table).indexName("PendingOrders")).items()));
    }

    /** A customer's orders by date, from the local index, read consistently. */
    private static List<Map<String, AttributeValue>> ordersOf(String table, String customer) {
        return server.client().query(b -> b.tableName(table).indexName("CustomerOrdersByDate")
                .keyConditionExpression("CustomerID = :c").expressionAttributeValues(item(":c", s(customer)))
                .consistentRead(true)).items();
    }

    @Test
    void shippedOrdersInMarchComeFromTheStatusIndexByDate() {
        String table = ordersTable();
        List<String> shipped = Eventually.until("three SHIPPED orders in March", () -> inMarch(table, "SHIPPED"),
                ids -> ids.size() == 3);
        assertEquals(List.of("o-3", "o-5", "o-2"), shipped);
        // The index holds the keys and Total, not the whole order.
        QueryResponse latest = server.client().query(b -> b.tableName(table).indexName("StatusByDate")
                .keyConditionExpression("#status = :status").expressionAttributeNames(STATUS)
                .expressionAttributeValues(item(":status", s("SHIPPED"))).scanIndexForward(false).limit(1));
        assertEquals(List.of(item("CustomerID", s("c2"), "OrderID", s("o-2"), "Status", s("SHIPPED"),
                "OrderDate", s("2024-03-31T23:59:59Z"), "Total", n("7"))), latest.items());
        assertEquals(Set.of("CustomerID", "OrderID", "Status", "OrderDate"), latest.lastEvaluatedKey().keySet());
    }

    @Test
    void shippedOrdersArePagedWithoutLosingAny() {
        String table = ordersTable();
        Eventually.until("four SHIPPED orders", () -> server.client().query(b -> b.tableName(table)
                .indexName("StatusByDate").keyConditionExpression("#status = :status").expressionAttributeNames(STATUS)
                .expressionAttributeValues(item(":status", s("SHIPPED")))).count(), count -> count == 4);
        List<String> paged = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse page = server.client().query(b -> b.tableName(table).indexName("StatusByDate")
                    .keyConditionExpression("#status = :status").expressionAttributeNames(STATUS)
                    .expressionAttributeValues(item(":status", s("SHIPPED"))).limit(3).exclusiveStartKey(from));
            paged.addAll(orderIds(page.items()));
            start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        assertEquals(List.of("o-9", "o-3", "o-5", "o-2"), paged);
    }

    @Test
    void aCustomersOrdersComeFromTheLocalIndexByDate() {
        String table = ordersTable();
        List<Map<String, AttributeValue>> orders = ordersOf(table, "c1");
        assertEquals(List.of("o-9", "o-3", "o-7", "o-1"), orderIds(orders));
        assertEquals(s("1 Main St"), orders.get(0).get("ShipTo"), "the local index projects ALL");
        // The customer's latest order, and their orders in March.
        assertEquals(List.of("o-1"), orderIds(server.client().query(b -> b.tableName(table)
                .indexName("CustomerOrdersByDate").keyConditionExpression("CustomerID = :c")
                .expressionAttributeValues(item(":c", s("c1"))).scanIndexForward(false).limit(1)).items()));
        assertEquals(List.of("o-3", "o-7"), orderIds(server.client().query(b -> b.tableName(table)
                .indexName("CustomerOrdersByDate")
                .keyConditionExpression("CustomerID = :c AND OrderDate BETWEEN :from AND :to")
                .expressionAttributeValues(item(":c", s("c1"), ":from", s("2024-03-01"), ":to", s("2024-03-32")))).items()));
        // The table itself keeps order-id order.
        assertEquals(List.of("o-1", "o-3", "o-7", "o-9"), orderIds(server.client().query(b -> b.tableName(table)
                .keyConditionExpression("CustomerID = :c").expressionAttributeValues(item(":c", s("c1")))).items()));
    }

    @Test
    void pendingOrdersAreListedByScanningTheSparseIndex() {
        String table = ordersTable();
        assertEquals(Set.of("o-7", "o-8"), Eventually.until("two pending orders", () -> pending(table),
                ids -> ids.size() == 2));
        // KEYS_ONLY: the table key and pendingAt.
        assertEquals(Set.of("CustomerID", "OrderID", "pendingAt"),
                server.client().scan(b -> b.tableName(table).indexName("PendingOrders").limit(1)).items().get(0).keySet());
    }

    @Test
    void anOrderLeavesThePendingIndexWhenPendingAtIsRemovedAndComesBackWhenItIsSet() {
        String table = ordersTable();
        Eventually.until("two pending orders", () -> pending(table), ids -> ids.equals(Set.of("o-7", "o-8")));

        server.client().updateItem(b -> b.tableName(table).key(orderKey("c1", "o-7")).updateExpression("REMOVE pendingAt"));
        Eventually.until("o-7 no longer pending", () -> pending(table), ids -> ids.equals(Set.of("o-8")));

        server.client().updateItem(b -> b.tableName(table).key(orderKey("c1", "o-7")).updateExpression("SET pendingAt = :at")
                .expressionAttributeValues(item(":at", s("2024-03-21T08:00:00Z"))));
        Eventually.until("o-7 pending again", () -> pending(table), ids -> ids.equals(Set.of("o-7", "o-8")));
        assertEquals(List.of(item("CustomerID", s("c1"), "OrderID", s("o-7"), "pendingAt", s("2024-03-21T08:00:00Z"))),
                server.client().query(b -> b.tableName(table).indexName("PendingOrders")
                        .keyConditionExpression("pendingAt = :at")
                        .expressionAttributeValues(item(":at", s("2024-03-21T08:00:00Z")))).items());
        assertEquals(0, server.client().query(b -> b.tableName(table).indexName("PendingOrders")
                .keyConditionExpression("pendingAt = :at")
                .expressionAttributeValues(item(":at", s("2024-03-20T10:00:00Z")))).count(), "the old entry is gone");
    }

    @Test
    void shippingAnOrderMovesItBetweenStatusPartitions() {
        String table = ordersTable();
        Eventually.until("two PENDING orders in March", () -> inMarch(table, "PENDING"), ids -> ids.size() == 2);
        Eventually.until("three SHIPPED orders in March", () -> inMarch(table, "SHIPPED"), ids -> ids.size() == 3);

        server.client().updateItem(b -> b.tableName(table).key(orderKey("c2", "o-8"))
                .updateExpression("SET #status = :shipped REMOVE pendingAt").expressionAttributeNames(STATUS)
                .expressionAttributeValues(item(":shipped", s("SHIPPED"))));
        assertEquals(List.of("o-3", "o-5", "o-8", "o-2"), Eventually.until("o-8 among the SHIPPED orders",
                () -> inMarch(table, "SHIPPED"), ids -> ids.size() == 4));
        assertEquals(List.of("o-7"), Eventually.until("o-8 no longer PENDING", () -> inMarch(table, "PENDING"),
                ids -> ids.size() == 1));
        Eventually.until("o-8 out of the pending index", () -> pending(table), ids -> ids.equals(Set.of("o-7")));
        // The local index is written with the order.
        assertEquals(s("SHIPPED"), ordersOf(table, "c2").stream().filter(o -> o.get("OrderID").s().equals("o-8"))
                .findFirst().orElseThrow().get("Status"));
    }

    @Test
    void deletingAnOrderRemovesItFromEveryIndex() {
        String table = ordersTable();
        Eventually.until("o-7 pending", () -> pending(table), ids -> ids.contains("o-7"));
        Eventually.until("o-7 among the PENDING orders", () -> inMarch(table, "PENDING"), ids -> ids.contains("o-7"));

        server.client().deleteItem(b -> b.tableName(table).key(orderKey("c1", "o-7")));
        assertEquals(List.of("o-9", "o-3", "o-1"), orderIds(ordersOf(table, "c1")));
        Eventually.until("o-7 out of StatusByDate", () -> inMarch(table, "PENDING"), ids -> ids.equals(List.of("o-8")));
        Eventually.until("o-7 out of PendingOrders", () -> pending(table), ids -> ids.equals(Set.of("o-8")));
        assertFalse(server.client().getItem(b -> b.tableName(table).key(orderKey("c1", "o-7")).consistentRead(true)).hasItem());
    }
}
