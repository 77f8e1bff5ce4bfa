package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestBackend;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeStreamResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** DynamoDB Streams end to end, through the SDK's DynamoDbStreamsClient, with a test clock. */
class StreamsTest {

    private static final TestClock CLOCK = new TestClock();
    private static StatorTestServer server;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;

    @BeforeAll
    static void start() {
        CLOCK.set(Instant.parse("2026-06-01T00:00:00Z"));
        server = StatorTestServer.start(o -> o.withClock(CLOCK));
        dynamo = server.client();
        streams = StreamReading.client(server.endpoint(), "us-east-1");
    }

    @AfterAll
    static void stop() {
        streams.close();
        server.close();
    }

    private static String createTable(StreamViewType view) {
        String table = StatorTestServer.tableName();
        dynamo.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(view)));
        return table;
    }

    private static String streamArn(String table) {
        return dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
    }

    private static Map<String, AttributeValue> item(String pk, String v) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromS(v));
    }

    /** Every record of the stream, shard by shard (parents first), to each shard's current end. */
    private static List<Record> readAll(String arn) {
        return StreamReading.readAll(streams, arn);
    }

    @Test
    void newAndOldImagesShowEveryChangeAndNoRecordForAWriteThatChangesNothing() {
        Instant writtenAt = CLOCK.instant(); // whole seconds: every test moves the clock by whole seconds
        String table = createTable(StreamViewType.NEW_AND_OLD_IMAGES);
        dynamo.putItem(b -> b.tableName(table).item(item("a", "1")));
        dynamo.putItem(b -> b.tableName(table).item(item("a", "1"))); // changes nothing
        dynamo.updateItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("a")))
                .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", AttributeValue.fromS("1"))));
        dynamo.putItem(b -> b.tableName(table).item(item("a", "2")));
        dynamo.deleteItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("a"))));
        List<Record> records = readAll(streamArn(table));
        assertEquals(List.of(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE),
                records.stream().map(Record::eventName).toList());
        Record insert = records.get(0);
        assertEquals("aws:dynamodb", insert.eventSource());
        assertEquals("1.1", insert.eventVersion());
        assertEquals("us-east-1", insert.awsRegion());
        assertEquals(32, insert.eventID().length());
        assertEquals(Map.of("pk", AttributeValue.fromS("a")), insert.dynamodb().keys());
        assertEquals(item("a", "1"), insert.dynamodb().newImage());
        assertTrue(insert.dynamodb().oldImage().isEmpty());
        assertEquals(writtenAt, insert.dynamodb().approximateCreationDateTime());
        assertTrue(insert.dynamodb().sequenceNumber().length() >= 21);
        assertTrue(insert.dynamodb().sizeBytes() > 0);
        Record modify = records.get(1);
        assertEquals(item("a", "1"), modify.dynamodb().oldImage());
        assertEquals(item("a", "2"), modify.dynamodb().newImage());
        assertEquals(item("a", "2"), records.get(2).dynamodb().oldImage());
        assertNull(records.get(2).userIdentity());
        assertTrue(new java.math.BigInteger(modify.dynamodb().sequenceNumber())
                .compareTo(new java.math.BigInteger(insert.dynamodb().sequenceNumber())) > 0);
    }

    @Test
    void eachViewTypeShowsItsImages() {
        for (StreamViewType view : List.of(StreamViewType.KEYS_ONLY, StreamViewType.NEW_IMAGE, StreamViewType.OLD_IMAGE)) {
            String table = createTable(view);
            dynamo.putItem(b -> b.tableName(table).item(item("k", "1")));
            dynamo.putItem(b -> b.tableName(table).item(item("k", "2")));
            List<Record> records = readAll(streamArn(table));
            assertEquals(2, records.size(), view.toString());
            Record modify = records.get(1);
            assertEquals(view, modify.dynamodb().streamViewType());
            assertEquals(Map.of("pk", AttributeValue.fromS("k")), modify.dynamodb().keys());
            assertEquals(view == StreamViewType.NEW_IMAGE ? item("k", "2") : Map.of(), modify.dynamodb().newImage());
            assertEquals(view == StreamViewType.OLD_IMAGE ? item("k", "1") : Map.of(), modify.dynamodb().oldImage());
        }
    }

    @Test
    void listAndDescribeStreamsAndDisableAndEnableAgain() {
        String table = createTable(StreamViewType.KEYS_ONLY);
        String first = streamArn(table);
        DescribeStreamResponse d = streams.describeStream(b -> b.streamArn(first));
        assertEquals("ENABLED", d.streamDescription().streamStatusAsString());
        assertEquals(table, d.streamDescription().tableName());
        assertEquals(4, d.streamDescription().shards().size());
        assertEquals(2, streams.describeStream(b -> b.streamArn(first).limit(2)).streamDescription().shards().size());
        assertNotNull(streams.describeStream(b -> b.streamArn(first).limit(2)).streamDescription().lastEvaluatedShardId());
        dynamo.putItem(b -> b.tableName(table).item(item("x", "1")));
        dynamo.updateTable(b -> b.tableName(table).streamSpecification(s -> s.streamEnabled(false)));
        assertEquals("DISABLED", streams.describeStream(b -> b.streamArn(first)).streamDescription().streamStatusAsString());
        CLOCK.advance(Duration.ofSeconds(2));
        // The closed stream is still readable, and every shard ends.
        assertEquals(1, readAll(first).size());
        for (Shard s : streams.describeStream(b -> b.streamArn(first)).streamDescription().shards()) {
            assertNotNull(s.sequenceNumberRange().endingSequenceNumber());
            String it = streams.getShardIterator(b -> b.streamArn(first).shardId(s.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(it));
            if (page.records().isEmpty()) assertNull(page.nextShardIterator());
        }
        dynamo.updateTable(b -> b.tableName(table).streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.NEW_IMAGE)));
        String second = streamArn(table);
        assertNotEquals(first, second);
        assertEquals(2, streams.listStreams(b -> b.tableName(table)).streams().size());
        assertEquals(1, streams.listStreams(b -> b.tableName(table).limit(1)).streams().size());
        String last = streams.listStreams(b -> b.tableName(table).limit(1)).lastEvaluatedStreamArn();
        assertEquals(1, streams.listStreams(b -> b.tableName(table).exclusiveStartStreamArn(last)).streams().size());
    }

    @Test
    void aStreamDisabledUnderLoadKeepsEveryRecordWrittenToIt() throws Exception {
        String table = createTable(StreamViewType.NEW_AND_OLD_IMAGES);
        String arn = streamArn(table);
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        Set<String> startedAfterDisable = ConcurrentHashMap.newKeySet();
        AtomicBoolean disabled = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            running.add(writers.submit(() -> {
                for (int n = 0; !stop.get(); n++) {
                    String key = "w" + writer + "-" + n;
                    boolean after = disabled.get();
                    dynamo.putItem(b -> b.tableName(table).item(item(key, "v")));
                    if (after) startedAfterDisable.add(key);
                    acknowledged.add(key);
                }
                return null;
            }));
        }
        // On Cassandra each of these writes is a transaction of several Paxos rounds: fewer there.
        int load = TestBackend.cassandra() ? 20 : 200;
        Eventually.until("writes under way", acknowledged::size, n -> n >= load);
        Set<String> beforeDisable = Set.copyOf(acknowledged);
        dynamo.updateTable(b -> b.tableName(table).streamSpecification(s -> s.streamEnabled(false)));
        disabled.set(true);
        int atDisable = acknowledged.size();
        Eventually.until("writes after the disable", acknowledged::size, n -> n >= atDisable + load / 2);
        stop.set(true);
        for (Future<?> f : running) f.get();
        writers.shutdown();
        CLOCK.advance(Duration.ofSeconds(2));

        List<String> recorded = readAll(arn).stream().map(r -> r.dynamodb().keys().get("pk").s()).toList();
        assertEquals(recorded.size(), Set.copyOf(recorded).size(), "no record twice");
        assertTrue(recorded.containsAll(beforeDisable), "every write acknowledged before the disable has its record");
        assertTrue(acknowledged.containsAll(recorded), "no record without its write");
        for (String key : startedAfterDisable) assertFalse(recorded.contains(key), "no record once disabled: " + key);
    }

    @Test
    void shardsRollOverWithLineageAndRecordsStayInOrderPerItem() {
        String table = createTable(StreamViewType.NEW_IMAGE);
        String arn = streamArn(table);
        dynamo.putItem(b -> b.tableName(table).item(item("r", "1")));
        CLOCK.advance(Duration.ofHours(4).plusMinutes(1));
        dynamo.putItem(b -> b.tableName(table).item(item("r", "2")));
        List<Shard> shards = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards();
        assertEquals(8, shards.size());
        for (int i = 4; i < 8; i++) assertEquals(shards.get(i - 4).shardId(), shards.get(i).parentShardId());
        for (int i = 0; i < 4; i++) assertNotNull(shards.get(i).sequenceNumberRange().endingSequenceNumber());
        List<Record> records = readAll(arn);
        assertEquals(List.of("1", "2"), records.stream().map(r -> r.dynamodb().newImage().get("v").s()).toList());
        // The closed parent is read to its end: no next iterator.
        for (int i = 0; i < 4; i++) {
            String id = shards.get(i).shardId();
            String it = streams.getShardIterator(b -> b.streamArn(arn).shardId(id)
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(it));
            if (page.records().isEmpty()) assertNull(page.nextShardIterator());
        }
    }

    @Test
    void iteratorsExpireAfterFifteenMinutesAndRecordsAreTrimmedAfterADay() {
        String table = createTable(StreamViewType.KEYS_ONLY);
        String arn = streamArn(table);
        dynamo.putItem(b -> b.tableName(table).item(item("t", "1")));
        Record record = readAll(arn).get(0);
        Shard shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().stream()
                .filter(s -> {
                    String it = streams.getShardIterator(b -> b.streamArn(arn).shardId(s.shardId())
                            .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
                    return !streams.getRecords(b -> b.shardIterator(it)).records().isEmpty();
                }).findFirst().orElseThrow();
        String at = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                .sequenceNumber(record.dynamodb().sequenceNumber())).shardIterator();
        assertEquals(1, streams.getRecords(b -> b.shardIterator(at)).records().size());
        String after = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                .sequenceNumber(record.dynamodb().sequenceNumber())).shardIterator();
        assertEquals(0, streams.getRecords(b -> b.shardIterator(after)).records().size());
        // "A shard iterator expires 15 minutes after it is returned to the requester": good for
        // exactly 15 minutes, expired one millisecond later.
        CLOCK.advance(Duration.ofMinutes(15));
        assertEquals(1, streams.getRecords(b -> b.shardIterator(at)).records().size());
        CLOCK.advance(Duration.ofMillis(1));
        assertThrows(ExpiredIteratorException.class, () -> streams.getRecords(b -> b.shardIterator(at)));
        CLOCK.advance(Duration.ofMinutes(1));
        CLOCK.advance(Duration.ofHours(24));
        TrimmedDataAccessException trimmed = assertThrows(TrimmedDataAccessException.class,
                () -> streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                        .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                        .sequenceNumber(record.dynamodb().sequenceNumber())));
        assertTrue(trimmed.getMessage().startsWith("The operation attempted to read past the oldest stream record"));
    }

    /**
     * AT_SEQUENCE_NUMBER at a shard's StartingSequenceNumber reads the shard from its start, as
     * TRIM_HORIZON does (issue 36: it answered TrimmedDataAccessException, the shard's start lying
     * before the trim point though no record was trimmed).
     */
    @Test
    void anIteratorAtAShardsStartingSequenceNumberReadsItFromItsStart() {
        String table = createTable(StreamViewType.KEYS_ONLY);
        String arn = streamArn(table);
        for (int i = 0; i < 8; i++) {
            String id = "s" + i;
            dynamo.putItem(b -> b.tableName(table).item(item(id, "1")));
        }
        int read = 0;
        for (Shard shard : streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards()) {
            String at = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.AT_SEQUENCE_NUMBER)
                    .sequenceNumber(shard.sequenceNumberRange().startingSequenceNumber())).shardIterator();
            String horizon = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            List<Record> fromStart = streams.getRecords(b -> b.shardIterator(at)).records();
            assertEquals(streams.getRecords(b -> b.shardIterator(horizon)).records(), fromStart, shard.shardId());
            read += fromStart.size();
        }
        assertEquals(8, read);
    }

    @Test
    void errorsAreDynamoDbs() {
        String table = createTable(StreamViewType.KEYS_ONLY);
        String arn = streamArn(table);
        String missing = arn.replace(table, table + "-nope");
        ResourceNotFoundException notFound = assertThrows(ResourceNotFoundException.class,
                () -> streams.describeStream(b -> b.streamArn(missing)));
        assertTrue(notFound.getMessage().startsWith("Requested resource not found: Stream: " + missing + " not found"));
        DynamoDbException badIterator = assertThrows(DynamoDbException.class,
                () -> streams.getRecords(b -> b.shardIterator("not-an-iterator")));
        assertEquals("ValidationException", badIterator.awsErrorDetails().errorCode());
        assertTrue(badIterator.getMessage().startsWith("Invalid ShardIterator"));
        ResourceNotFoundException noShard = assertThrows(ResourceNotFoundException.class,
                () -> streams.getShardIterator(b -> b.streamArn(arn).shardId("shardId-00000000000000000000-ffffffff")
                        .shardIteratorType(ShardIteratorType.LATEST)));
        assertTrue(noShard.getMessage().startsWith("Requested resource not found: Shard does not exist"));
        DynamoDbException badArn = assertThrows(DynamoDbException.class,
                () -> streams.describeStream(b -> b.streamArn("arn:aws:dynamodb:us-east-1:000000000000:table/" + table)));
        assertEquals("ValidationException", badArn.awsErrorDetails().errorCode());
        DynamoDbException limit = assertThrows(DynamoDbException.class, () -> streams.getRecords(b -> b.shardIterator("x").limit(1001)));
        assertEquals("ValidationException", limit.awsErrorDetails().errorCode());
        // ListStreams: at most 100 streams a page (dynalite's validations), and a start that is no stream ARN.
        assertEquals(1, streams.listStreams(b -> b.tableName(table).limit(100)).streams().size());
        DynamoDbException overLimit = assertThrows(DynamoDbException.class, () -> streams.listStreams(b -> b.limit(101)));
        assertEquals("1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
                + "Member must have value less than or equal to 100", overLimit.awsErrorDetails().errorMessage());
        DynamoDbException badStart = assertThrows(DynamoDbException.class, () -> streams.listStreams(b -> b
                .exclusiveStartStreamArn("arn:aws:dynamodb:us-east-1:000000000000:table/" + table)));
        assertEquals("Invalid StreamArn", badStart.awsErrorDetails().errorMessage());
        // An enabled stream cannot be enabled again, with another view type or the same.
        DynamoDbException again = assertThrows(DynamoDbException.class, () -> dynamo.updateTable(b -> b.tableName(table)
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_IMAGE))));
        assertTrue(again.getMessage().startsWith("Table already has an enabled stream: TableName: " + table));
    }

}
