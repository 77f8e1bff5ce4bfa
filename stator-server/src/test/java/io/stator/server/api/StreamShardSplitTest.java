package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Stream shards follow the table's partitions: one open shard per partition, and a partition split
 * closes its shard and opens a child for each half (ParentShardId). A reader that finishes a
 * parent before its children, as the KCL does, reads every item's changes once and in order across
 * the split. The table is split by raising its provisioned writes past what one partition serves
 * (1,000 write units a second): the capacity model doubles its partitions.
 */
class StreamShardSplitTest {

    private static final TestClock CLOCK = new TestClock();
    private static final int ITEMS = 20;
    private static StatorTestServer server;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z"));
        server = StatorTestServer.start(o -> o.withClock(CLOCK).withThroughput(StatorTestServer.REPORT_ONLY));
        dynamo = server.client();
        streams = StreamReading.client(server.endpoint(), "us-east-1");
    }

    @AfterAll
    static void stop() {
        streams.close();
        server.close();
    }

    private static void writeVersion(String table, int version) {
        for (int i = 0; i < ITEMS; i++) {
            String key = "k" + i;
            dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS(key),
                    "v", AttributeValue.fromN(Integer.toString(version)))));
        }
    }

    private static List<Shard> shards(String arn) {
        return streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards();
    }

    /** A shard's records from TRIM_HORIZON to its end (a closed shard's iterator runs out). */
    private static List<Record> read(String arn, Shard shard) {
        List<Record> records = new ArrayList<>();
        String it = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        while (it != null) {
            String current = it;
            GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(current));
            records.addAll(page.records());
            it = page.nextShardIterator();
            if (page.records().isEmpty() && shard.sequenceNumberRange().endingSequenceNumber() == null) break;
        }
        return records;
    }

    @Test
    void aPartitionSplitClosesItsShardWithTwoChildrenAndEveryItemsChangesStayInOrder() {
        String table = StatorTestServer.tableName();
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE)));
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        List<Shard> before = shards(arn);
        assertEquals(1, before.size(), "one partition, one shard: " + before);
        assertNull(before.get(0).sequenceNumberRange().endingSequenceNumber());

        for (int v = 1; v <= 3; v++) writeVersion(table, v);
        // 1,500 write units need two partitions (1,000 each at most): the one partition splits.
        dynamo.updateTable(b -> b.tableName(table).provisionedThroughput(p -> p.readCapacityUnits(1L)
                .writeCapacityUnits(1_500L)));
        // The split takes effect once every server can have read it (a few seconds on Cassandra).
        CLOCK.advance(Duration.ofSeconds(10));
        for (int v = 4; v <= 6; v++) writeVersion(table, v);

        List<Shard> after = shards(arn);
        assertEquals(3, after.size(), after.toString());
        Shard parent = after.get(0);
        assertEquals(before.get(0).shardId(), parent.shardId());
        assertNotNull(parent.sequenceNumberRange().endingSequenceNumber(), "the split closed the parent");
        List<Shard> children = after.subList(1, 3);
        for (Shard child : children) {
            assertEquals(parent.shardId(), child.parentShardId());
            assertNull(child.sequenceNumberRange().endingSequenceNumber(), "children are open");
            assertTrue(new java.math.BigInteger(child.sequenceNumberRange().startingSequenceNumber())
                    .compareTo(new java.math.BigInteger(parent.sequenceNumberRange().endingSequenceNumber())) > 0);
        }
        assertEquals(children, streams.describeStream(b -> b.streamArn(arn)
                .shardFilter(f -> f.type("CHILD_SHARDS").shardId(parent.shardId()))).streamDescription().shards());

        // Parents before children, as the KCL reads them: each item's versions once, in order.
        Map<String, List<Integer>> versions = new LinkedHashMap<>();
        List<Record> inParent = read(arn, parent);
        assertEquals(3 * ITEMS, inParent.size());
        for (Record r : inParent) {
            int v = Integer.parseInt(r.dynamodb().newImage().get("v").n());
            assertTrue(v <= 3, "the parent holds the changes before the split");
            versions.computeIfAbsent(r.dynamodb().keys().get("pk").s(), k -> new ArrayList<>()).add(v);
        }
        for (Shard child : children) {
            List<Record> inChild = read(arn, child);
            assertFalse(inChild.isEmpty(), "both halves hold items");
            for (Record r : inChild) {
                int v = Integer.parseInt(r.dynamodb().newImage().get("v").n());
                assertTrue(v >= 4, "the children hold the changes after the split");
                versions.computeIfAbsent(r.dynamodb().keys().get("pk").s(), k -> new ArrayList<>()).add(v);
            }
        }
        assertEquals(ITEMS, versions.size());
        for (Map.Entry<String, List<Integer>> e : versions.entrySet()) {
            assertEquals(List.of(1, 2, 3, 4, 5, 6), e.getValue(), e.getKey());
        }
    }
}
