package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Transact.delete;
import static io.stator.server.testing.Transact.put;
import static io.stator.server.testing.Transact.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Every write action commits through the engine's one write pipeline: each changed item leaves
 * exactly one change record in the change log, whichever action changed it (PutItem, UpdateItem,
 * DeleteItem, BatchWriteItem, TransactWriteItems, and Time to Live's deletions, marked as its), and a
 * write that changes nothing leaves none.
 */
class ChangeRecordsTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private final List<ChangeRecord> records = Collections.synchronizedList(new ArrayList<>());
    private String table;
    private final ChangeLog.Consumer consumer = (batch, change) -> {
        if (change.table().name().equals(table)) records.add(change);
    };

    @BeforeEach
    void createTable() {
        table = StatorTestServer.tableName();
        server.client().createTable(Tables.onDemand(table).build());
        server.engine().changeLog().register(consumer);
    }

    @AfterEach
    void stopListening() {
        server.engine().changeLog().unregister(consumer);
    }

    @Test
    void putItemUpdateItemAndDeleteItemEachLeaveOneRecord() {
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("a"), "n", n("1"))));
        server.client().updateItem(b -> b.tableName(table).key(key("a")).updateExpression("SET n = n + :one")
                .expressionAttributeValues(item(":one", n("1"))));
        server.client().deleteItem(b -> b.tableName(table).key(key("a")));
        // Deleting an absent item changes nothing.
        server.client().deleteItem(b -> b.tableName(table).key(key("absent")));

        assertEquals(List.of("INSERT a", "MODIFY a", "REMOVE a"), events());
        assertEquals("2", ((io.stator.core.model.AttributeValue.N) records.get(1).newItem().get("n")).value().toString());
    }

    @Test
    void batchWriteItemLeavesOneRecordPerWrite() {
        server.client().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                WriteRequest.builder().putRequest(p -> p.item(key("a"))).build(),
                WriteRequest.builder().putRequest(p -> p.item(key("b"))).build()))));
        server.client().batchWriteItem(b -> b.requestItems(Map.of(table, List.of(
                WriteRequest.builder().deleteRequest(d -> d.key(key("a"))).build()))));

        assertEquals(List.of("INSERT a", "INSERT b", "REMOVE a"), events());
    }

    @Test
    void transactWriteItemsLeavesOneRecordPerChangedItem() {
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("u"), "n", n("1"))));
        server.client().putItem(b -> b.tableName(table).item(key("d")));
        records.clear();

        server.client().transactWriteItems(b -> b.transactItems(put(table, key("p")),
                update(table, key("u"), "SET n = n + :one", item(":one", n("1"))), delete(table, key("d"))));

        assertEquals(List.of("INSERT p", "MODIFY u", "REMOVE d"), events());
    }

    @Test
    void timeToLiveDeletesThroughThePipelineAndSaysSo() {
        server.client().updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true)
                .attributeName("exp")));
        long past = java.time.Instant.now().getEpochSecond() - 10;
        server.client().putItem(b -> b.tableName(table).item(item("pk", s("a"), "exp", n(Long.toString(past)))));
        io.stator.server.testing.Eventually.until("the deletion", this::events, e -> e.size() == 2);

        assertEquals(List.of("INSERT a", "REMOVE a"), events());
        assertEquals(List.of(ChangeRecord.Origin.REQUEST, ChangeRecord.Origin.TIME_TO_LIVE),
                records.stream().map(ChangeRecord::origin).toList());
        assertEquals(n(Long.toString(past)).n(),
                ((io.stator.core.model.AttributeValue.N) records.get(1).oldItem().get("exp")).value().toString());
    }

    private static Map<String, AttributeValue> key(String pk) {
        return item("pk", s(pk));
    }

    private List<String> events() {
        synchronized (records) {
            return records.stream().map(r -> r.eventName() + " "
                    + ((io.stator.core.model.AttributeValue.S) (r.newItem() != null ? r.newItem() : r.oldItem()).get("pk"))
                    .value()).toList();
        }
    }
}
