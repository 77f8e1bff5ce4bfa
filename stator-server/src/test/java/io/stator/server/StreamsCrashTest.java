package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.stator.engine.EngineConfig;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * A server killed with {@code kill -9} while clients write to a table with a NEW_AND_OLD_IMAGES
 * stream restarts with exactly one stream record per acknowledged change (issue 12, "Bad input
 * and faults"): several client threads put, update, delete and write transactions, each noting
 * what the server acknowledged; after the kill and a restart on the same directory, every shard
 * is read from TRIM_HORIZON with the SDK's DynamoDbStreamsClient. Each item's records are its
 * acknowledged changes, in order, with their images, and at most one more: the write that was in
 * flight at the kill, present exactly when the item shows it (no record without its change, no
 * change without its record); a transaction in flight left records of all its items or of none.
 * A write after the restart gets a sequence number above every earlier one.
 */
class StreamsCrashTest {

    private static final int WRITERS = 4;

    @TempDir
    Path tmp;

    /** One change of one item: its images before and after (null: absent). */
    private record Change(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {

        OperationType eventName() {
            return before == null ? OperationType.INSERT : after == null ? OperationType.REMOVE : OperationType.MODIFY;
        }
    }

    /** What the test knows of one item; only its writer touches it until that writer has ended. */
    private static final class Ledger {
        final Map<String, AttributeValue> key;
        /** As the last acknowledged change left it. */
        Map<String, AttributeValue> item;
        final List<Change> acknowledged = new ArrayList<>();
        /** The change sent and not acknowledged: the server may or may not have made it. */
        Change inFlight;

        Ledger(String pk) {
            this.key = Map.of("pk", AttributeValue.fromS(pk));
        }
    }

    private final Map<String, Ledger> ledger = new ConcurrentHashMap<>();
    private String table;
    /** The pairs of items of the transactions that were in flight at the kill (one per writer at most). */
    private final List<List<String>> transactionsInFlight = new ArrayList<>();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyAcknowledgedChangeHasExactlyOneRecordAfterAKillNine() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("stator-stderr.txt");
        table = StatorTestServer.tableName();
        try (StatorProcess first = StatorProcess.start(data, stderr)) {
            first.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
            writeUntilKilled(first);
        }
        try (StatorProcess second = StatorProcess.start(data, stderr);
             DynamoDbStreamsClient streams = StreamReading.client(second.endpoint(), EngineConfig.DEFAULT_REGION)) {
            DynamoDbClient client = second.client();
            String arn = client.describeTable(b -> b.tableName(table)).table().latestStreamArn();
            List<Record> records = StreamReading.readAll(streams, arn);
            BigInteger highest = check(client, records);

            // Sequence numbers restart above the stored ones.
            Ledger any = ledger.values().iterator().next();
            client.putItem(b -> b.tableName(table).item(item(any.key, "after-restart", 1)));
            List<Record> again = StreamReading.readAll(streams, arn);
            assertEquals(records.size() + 1, again.size(), "one more record for the write after the restart");
            Record added = again.stream().filter(r -> r.dynamodb().newImage().containsKey("v")
                    && r.dynamodb().newImage().get("v").s().equals("after-restart")).findFirst().orElseThrow();
            assertTrue(new BigInteger(added.dynamodb().sequenceNumber()).compareTo(highest) > 0,
                    "the write after the restart is numbered after every record before the kill");
        }
    }

    private void writeUntilKilled(StatorProcess server) throws Exception {
        AtomicBoolean killed = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> writers = new ArrayList<>();
        List<AtomicReference<List<String>>> transactions = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            AtomicReference<List<String>> transaction = new AtomicReference<>();
            transactions.add(transaction);
            Random random = new Random(17L * w + System.nanoTime());
            writers.add(new Thread(() -> {
                List<Ledger> own = new ArrayList<>();
                try {
                    for (int n = 0; ; n++) {
                        write(server.client(), writer, n, own, random, transaction);
                        acknowledged.incrementAndGet();
                    }
                } catch (Throwable t) {
                    if (!killed.get()) failure.compareAndSet(null, t);
                }
            }, "writer-" + w));
        }
        writers.forEach(Thread::start);
        int target = 500 + ThreadLocalRandom.current().nextInt(500);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (acknowledged.get() < target && failure.get() == null && System.nanoTime() < deadline) Thread.sleep(5);
        killed.set(true);
        int exit = server.kill(); // the writers are mid-request
        for (Thread writer : writers) writer.join(TimeUnit.SECONDS.toMillis(60));
        if (failure.get() != null) throw new AssertionError("a write failed before the kill" + server.stderrText(), failure.get());
        assertNotEquals(0, exit, "the server must have been killed, not have exited");
        assertTrue(acknowledged.get() >= 200, "too few writes before the kill: " + acknowledged.get());
        for (AtomicReference<List<String>> t : transactions) if (t.get() != null) transactionsInFlight.add(t.get());
        System.out.println("StreamsCrashTest: killed after " + acknowledged.get() + " acknowledged writes, "
                + transactionsInFlight.size() + " transaction(s) in flight");
    }

    private static Map<String, AttributeValue> item(Map<String, AttributeValue> key, String v, int dataLength) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key);
        item.put("v", AttributeValue.fromS(v));
        item.put("data", AttributeValue.fromS("d".repeat(dataLength)));
        return item;
    }

    private static Map<String, AttributeValue> withV(Map<String, AttributeValue> old, Map<String, AttributeValue> key,
                                                     String v) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(old == null ? key : old);
        item.put("v", AttributeValue.fromS(v));
        return item;
    }

    /**
     * One acknowledged write: a new item, a put over an item (or where one was deleted), an
     * update, a delete of a present item, or a transaction of a put and an update. Every one
     * changes its items (v is new each time), so each leaves exactly one record per item.
     */
    private void write(DynamoDbClient client, int writer, int n, List<Ledger> own, Random random,
                       AtomicReference<List<String>> transaction) {
        String v = "w" + writer + "-" + n;
        int choice = random.nextInt(10);
        if (own.size() < 2 || choice < 3) {
            Ledger l = new Ledger("w" + writer + "-k" + own.size());
            ledger.put(l.key.get("pk").s(), l);
            own.add(l);
            Map<String, AttributeValue> after = item(l.key, v, random.nextInt(800));
            send(l, after, () -> client.putItem(b -> b.tableName(table).item(after)));
        } else if (choice < 5) {
            Ledger l = own.get(random.nextInt(own.size()));
            Map<String, AttributeValue> after = item(l.key, v, random.nextInt(800));
            send(l, after, () -> client.putItem(b -> b.tableName(table).item(after)));
        } else if (choice < 7) {
            Ledger l = own.get(random.nextInt(own.size()));
            send(l, withV(l.item, l.key, v), () -> client.updateItem(b -> b.tableName(table).key(l.key)
                    .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", AttributeValue.fromS(v)))));
        } else if (choice < 8) {
            Ledger l = own.get(random.nextInt(own.size()));
            if (l.item == null) {
                Map<String, AttributeValue> after = item(l.key, v, 1);
                send(l, after, () -> client.putItem(b -> b.tableName(table).item(after)));
            } else {
                send(l, null, () -> client.deleteItem(b -> b.tableName(table).key(l.key)));
            }
        } else {
            int i = random.nextInt(own.size());
            int j = (i + 1 + random.nextInt(own.size() - 1)) % own.size();
            Ledger put = own.get(i);
            Ledger update = own.get(j);
            Map<String, AttributeValue> putAfter = item(put.key, v, random.nextInt(800));
            Map<String, AttributeValue> updateAfter = withV(update.item, update.key, v);
            put.inFlight = new Change(put.item, putAfter);
            update.inFlight = new Change(update.item, updateAfter);
            transaction.set(List.of(put.key.get("pk").s(), update.key.get("pk").s()));
            client.transactWriteItems(b -> b.transactItems(
                    TransactWriteItem.builder().put(p -> p.tableName(table).item(putAfter)).build(),
                    TransactWriteItem.builder().update(u -> u.tableName(table).key(update.key).updateExpression("SET v = :v")
                            .expressionAttributeValues(Map.of(":v", AttributeValue.fromS(v)))).build()));
            transaction.set(null);
            acknowledge(put);
            acknowledge(update);
        }
    }

    private static void send(Ledger l, Map<String, AttributeValue> after, Runnable request) {
        l.inFlight = new Change(l.item, after);
        request.run();
        acknowledge(l);
    }

    private static void acknowledge(Ledger l) {
        l.acknowledged.add(l.inFlight);
        l.item = l.inFlight.after();
        l.inFlight = null;
    }

    /** Checks the records against the ledger and the items; returns the highest sequence number. */
    private BigInteger check(DynamoDbClient client, List<Record> records) {
        Map<String, List<Record>> byItem = new LinkedHashMap<>();
        Set<String> eventIds = new HashSet<>();
        Set<String> sequenceNumbers = new HashSet<>();
        BigInteger highest = BigInteger.ZERO;
        for (Record r : records) {
            String pk = r.dynamodb().keys().get("pk").s();
            if (!ledger.containsKey(pk)) fail("a record of an item never written: " + r);
            assertTrue(eventIds.add(r.eventID()), "eventID seen twice: " + r);
            assertTrue(sequenceNumbers.add(r.dynamodb().sequenceNumber()), "sequence number seen twice: " + r);
            assertEquals(StreamViewType.NEW_AND_OLD_IMAGES, r.dynamodb().streamViewType());
            assertNull(r.userIdentity(), "a client's change has no userIdentity");
            highest = highest.max(new BigInteger(r.dynamodb().sequenceNumber()));
            byItem.computeIfAbsent(pk, k -> new ArrayList<>()).add(r);
        }
        Set<String> landed = new HashSet<>();
        int acknowledgedChanges = 0;
        int inFlight = 0;
        for (Map.Entry<String, Ledger> e : ledger.entrySet()) {
            String pk = e.getKey();
            Ledger l = e.getValue();
            List<Record> rs = byItem.getOrDefault(pk, List.of());
            List<Change> expected = new ArrayList<>(l.acknowledged);
            acknowledgedChanges += expected.size();
            if (l.inFlight != null) inFlight++;
            if (rs.size() == expected.size() + 1 && l.inFlight != null) {
                expected.add(l.inFlight);
                landed.add(pk);
            } else if (rs.size() != expected.size()) {
                fail(pk + ": " + rs.size() + " records for " + expected.size() + " acknowledged changes"
                        + (l.inFlight != null ? " and one in flight" : "") + ": " + rs);
            }
            BigInteger previous = BigInteger.valueOf(-1);
            for (int i = 0; i < rs.size(); i++) {
                Record r = rs.get(i);
                Change c = expected.get(i);
                String where = pk + ", change " + i + " of " + expected.size();
                assertEquals(c.eventName(), r.eventName(), where);
                assertEquals(l.key, r.dynamodb().keys(), where);
                assertEquals(c.before() == null ? Map.of() : c.before(), r.dynamodb().oldImage(), where + ": OldImage");
                assertEquals(c.after() == null ? Map.of() : c.after(), r.dynamodb().newImage(), where + ": NewImage");
                BigInteger sequence = new BigInteger(r.dynamodb().sequenceNumber());
                assertTrue(sequence.compareTo(previous) > 0, where + ": sequence numbers in order");
                previous = sequence;
            }
            // The item is as its records say: the change in flight is there exactly when its record is.
            var read = client.getItem(b -> b.tableName(table).key(l.key).consistentRead(true));
            Map<String, AttributeValue> now = read.hasItem() ? read.item() : null;
            Map<String, AttributeValue> expectedNow = landed.contains(pk) ? l.inFlight.after() : l.item;
            assertEquals(expectedNow, now, pk + ": the item agrees with its stream records");
        }
        for (List<String> t : transactionsInFlight) {
            assertEquals(landed.contains(t.get(0)), landed.contains(t.get(1)),
                    "a transaction in flight at the kill left records of both its items or of neither: " + t);
        }
        assertTrue(inFlight <= WRITERS * 2, "at most one write (two items of a transaction) in flight per writer");
        System.out.println("StreamsCrashTest: " + records.size() + " records for " + acknowledgedChanges
                + " acknowledged changes and " + landed.size() + " of " + inFlight + " in flight");
        return highest;
    }
}
