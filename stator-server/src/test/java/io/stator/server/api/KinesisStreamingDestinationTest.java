package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.Kinesalite;
import io.stator.server.testing.StatorTestServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DescribeKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.DestinationStatus;
import software.amazon.awssdk.services.dynamodb.model.EnableKinesisStreamingDestinationResponse;
import software.amazon.awssdk.services.dynamodb.model.KinesisDataStreamDestination;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;

/**
 * Kinesis Data Streams destinations end to end: Stator started with --kinesis-endpoint at a real
 * kinesalite (from npm), the records read back by the AWS SDK's Kinesis client. DynamoDB's
 * behaviour, texts and record format are those docs/dynamodb/kinesis.md records from AWS's API
 * reference and from live probes of DynamoDB (ack-api-quirks DDB-TABLE-299 to -304, -318, -442).
 */
class KinesisStreamingDestinationTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static Kinesalite kinesalite;
    private static KinesisClient kinesis;
    private static StatorTestServer server;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        kinesalite = Kinesalite.start();
        kinesis = kinesalite.client("us-east-1");
        server = StatorTestServer.start(o -> o.withKinesisEndpoint(kinesalite.endpoint()));
        dynamo = server.client();
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (kinesis != null) kinesis.close();
        if (kinesalite != null) kinesalite.close();
    }

    private static String table() {
        String table = StatorTestServer.tableName();
        dynamo.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("sk").attributeType("N"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE")));
        return table;
    }

    private static String stream(String name) {
        kinesis.createStream(b -> b.streamName(name).shardCount(2));
        Eventually.until("stream " + name + " ACTIVE", () -> kinesis.describeStreamSummary(b -> b.streamName(name))
                .streamDescriptionSummary().streamStatusAsString(), "ACTIVE"::equals);
        return kinesalite.streamArn(name);
    }

    private static KinesisDataStreamDestination destination(String table) {
        DescribeKinesisStreamingDestinationResponse d = dynamo.describeKinesisStreamingDestination(b -> b.tableName(table));
        assertEquals(table, d.tableName());
        assertEquals(1, d.kinesisDataStreamDestinations().size(), d.toString());
        return d.kinesisDataStreamDestinations().get(0);
    }

    private static KinesisDataStreamDestination until(String table, DestinationStatus status) {
        return Eventually.until(table + "'s destination " + status, DEADLINE, () -> destination(table),
                d -> d.destinationStatus() == status);
    }

    private static String activeDestination(String table, String streamName) {
        String arn = stream(streamName);
        EnableKinesisStreamingDestinationResponse enabled = dynamo.enableKinesisStreamingDestination(b -> b
                .tableName(table).streamArn(arn));
        assertEquals(DestinationStatus.ENABLING, enabled.destinationStatus());
        assertEquals(arn, enabled.streamArn());
        assertEquals(table, enabled.tableName());
        KinesisDataStreamDestination active = until(table, DestinationStatus.ACTIVE);
        // An ACTIVE destination enabled without a configuration has no precision and no description.
        assertNull(active.approximateCreationDateTimePrecision());
        assertNull(active.destinationStatusDescription());
        return arn;
    }

    /** Every record the stream holds, read from each shard's start, parsed. */
    private static List<JsonNode> records(String streamName) {
        List<JsonNode> out = new ArrayList<>();
        for (Shard shard : kinesis.listShards(b -> b.streamName(streamName)).shards()) {
            String iterator = kinesis.getShardIterator(b -> b.streamName(streamName).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (iterator != null) {
                String at = iterator;
                var page = kinesis.getRecords(b -> b.shardIterator(at));
                page.records().forEach(r -> {
                    JsonNode json = JsonNode.parser().parse(r.data().asUtf8String());
                    assertEquals(32, r.partitionKey().length(), r.partitionKey());
                    out.add(json);
                });
                if (page.records().isEmpty()) break;
                iterator = page.nextShardIterator();
            }
        }
        out.sort(java.util.Comparator.comparingLong(j -> Long.parseLong(
                j.field("dynamodb").get().field("ApproximateCreationDateTime").get().asNumber())));
        return out;
    }

    private static List<JsonNode> records(String streamName, int count) {
        return Eventually.until(count + " records in " + streamName, DEADLINE, () -> records(streamName),
                r -> r.size() >= count);
    }

    private static String text(JsonNode record, String... path) {
        JsonNode node = record;
        for (String p : path) node = node.field(p).orElseThrow(() -> new AssertionError(p + " in " + record));
        return node.isString() ? node.asString() : node.isNumber() ? node.asNumber() : node.toString();
    }

    private static Map<String, AttributeValue> item(String pk, int sk, String v) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromN(Integer.toString(sk)),
                "v", AttributeValue.fromS(v));
    }

    @Test
    void changesReachTheStreamInDynamoDbsRecordFormat() {
        String table = table();
        String name = "records-" + table;
        activeDestination(table, name);
        dynamo.putItem(b -> b.tableName(table).item(item("a", 1, "first")));
        dynamo.updateItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("a"), "sk", AttributeValue.fromN("1")))
                .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", AttributeValue.fromS("second"))));
        dynamo.deleteItem(b -> b.tableName(table).key(Map.of("pk", AttributeValue.fromS("a"), "sk", AttributeValue.fromN("1"))));

        List<JsonNode> records = records(name, 3);
        assertEquals(3, records.size(), records.toString());
        JsonNode insert = records.get(0);
        // The members of real captures, in their order; no eventVersion, SequenceNumber or StreamViewType.
        assertEquals(List.of("awsRegion", "eventID", "eventName", "userIdentity", "recordFormat", "tableName", "dynamodb",
                "eventSource"), List.copyOf(insert.asObject().keySet()));
        assertEquals("us-east-1", text(insert, "awsRegion"));
        assertEquals("INSERT", text(insert, "eventName"));
        assertTrue(insert.field("userIdentity").get().isNull());
        assertEquals("application/json", text(insert, "recordFormat"));
        assertEquals(table, text(insert, "tableName"));
        assertEquals("aws:dynamodb", text(insert, "eventSource"));
        assertEquals(36, text(insert, "eventID").length(), "a UUID");
        assertEquals(List.of("ApproximateCreationDateTime", "Keys", "NewImage", "SizeBytes"),
                List.copyOf(insert.field("dynamodb").get().asObject().keySet()));
        // Epoch milliseconds: 13 digits, within a minute of now.
        long created = Long.parseLong(text(insert, "dynamodb", "ApproximateCreationDateTime"));
        assertTrue(Math.abs(System.currentTimeMillis() - created) < 60_000, "ms: " + created);
        assertEquals("a", text(insert, "dynamodb", "Keys", "pk", "S"));
        assertEquals("1", text(insert, "dynamodb", "Keys", "sk", "N"));
        assertEquals("first", text(insert, "dynamodb", "NewImage", "v", "S"));

        JsonNode modify = records.get(1);
        assertEquals("MODIFY", text(modify, "eventName"));
        assertEquals("first", text(modify, "dynamodb", "OldImage", "v", "S"));
        assertEquals("second", text(modify, "dynamodb", "NewImage", "v", "S"));
        JsonNode remove = records.get(2);
        assertEquals("REMOVE", text(remove, "eventName"));
        assertEquals("second", text(remove, "dynamodb", "OldImage", "v", "S"));
        assertFalse(remove.field("dynamodb").get().field("NewImage").isPresent());
    }

    @Test
    void aTimeToLiveDeletionIsARemoveByTheService() {
        String table = table();
        String name = "ttl-" + table;
        activeDestination(table, name);
        dynamo.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.attributeName("expires").enabled(true)));
        long past = System.currentTimeMillis() / 1000 - 60;
        dynamo.putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("t"), "sk", AttributeValue.fromN("1"),
                "expires", AttributeValue.fromN(Long.toString(past)))));
        List<JsonNode> records = records(name, 2);
        assertEquals("INSERT", text(records.get(0), "eventName"));
        assertTrue(records.get(0).field("userIdentity").get().isNull());
        JsonNode removed = records.get(1);
        assertEquals("REMOVE", text(removed, "eventName"));
        // DynamoDB Streams' identity of a Time to Live deletion (developer guide, "Working with expired items").
        assertEquals("Service", text(removed, "userIdentity", "type"));
        assertEquals("dynamodb.amazonaws.com", text(removed, "userIdentity", "principalId"));
    }

    @Test
    void updateChangesThePrecisionToMicroseconds() {
        String table = table();
        String name = "precision-" + table;
        String arn = activeDestination(table, name);
        // The default precision is MILLISECOND (ack-api-quirks DDB-TABLE-300).
        assertValidation("Invalid Request: Precision is already set to the desired value of MILLISECOND for tableId: "
                + dynamo.describeTable(b -> b.tableName(table)).table().tableId() + ", kdsArn: " + arn,
                () -> dynamo.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)
                        .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MILLISECOND"))));
        var updated = dynamo.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)
                .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MICROSECOND")));
        assertEquals(DestinationStatus.UPDATING, updated.destinationStatus());
        assertEquals("MICROSECOND", updated.updateKinesisStreamingConfiguration().approximateCreationDateTimePrecisionAsString());
        assertEquals("MICROSECOND", until(table, DestinationStatus.ACTIVE).approximateCreationDateTimePrecisionAsString());

        dynamo.putItem(b -> b.tableName(table).item(item("m", 1, "micro")));
        JsonNode record = records(name, 1).get(0);
        long micros = Long.parseLong(text(record, "dynamodb", "ApproximateCreationDateTime"));
        assertTrue(Math.abs(System.currentTimeMillis() * 1000 - micros) < 60_000_000L, "µs: " + micros);
        assertEquals("MICROSECOND", text(record, "dynamodb", "ApproximateCreationDateTimePrecision"));
    }

    @Test
    void disableStopsTheRecordsAndEnableStartsThemAgain() {
        String table = table();
        String name = "disable-" + table;
        String arn = activeDestination(table, name);
        // DDB-TABLE-299: a second Enable while the first is not DISABLED or ENABLE_FAILED.
        assertValidation("Table is not in a valid state to enable Kinesis Streaming Destination: "
                        + "EnableKinesisStreamingDestination must be DISABLED or ENABLE_FAILED to perform ENABLE operation.",
                () -> dynamo.enableKinesisStreamingDestination(b -> b.tableName(table)
                        .streamArn(kinesalite.streamArn("another-" + table))));
        dynamo.putItem(b -> b.tableName(table).item(item("d", 1, "before")));
        records(name, 1);
        var disabled = dynamo.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        assertEquals(DestinationStatus.DISABLING, disabled.destinationStatus());
        until(table, DestinationStatus.DISABLED);
        dynamo.putItem(b -> b.tableName(table).item(item("d", 2, "while disabled")));
        assertValidation("Table is not in a valid state to enable Kinesis Streaming Destination: "
                        + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.",
                () -> dynamo.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)));

        // Enabled again: the same entry, ENABLING then ACTIVE, and only later changes arrive.
        dynamo.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn));
        until(table, DestinationStatus.ACTIVE);
        dynamo.putItem(b -> b.tableName(table).item(item("d", 3, "after")));
        List<JsonNode> records = records(name, 2);
        Eventually.sleep(500);
        records = records(name);
        assertEquals(List.of("before", "after"), records.stream().map(r -> text(r, "dynamodb", "NewImage", "v", "S")).toList());
    }

    @Test
    void changesMadeWhileTheStreamIsUnreachableArriveAfterARestart() {
        String table = table();
        String name = "kept-" + table;
        activeDestination(table, name);
        kinesis.deleteStream(b -> b.streamName(name));
        Eventually.until("stream " + name + " gone", () -> kinesis.listStreams().streamNames(), n -> !n.contains(name));
        for (int i = 1; i <= 5; i++) {
            int sk = i;
            dynamo.putItem(b -> b.tableName(table).item(item("k", sk, "kept " + sk)));
        }
        server.restart();
        dynamo = server.client();
        stream(name);
        List<JsonNode> records = records(name, 5);
        assertEquals(List.of("1", "2", "3", "4", "5"), records.stream().map(r -> text(r, "dynamodb", "Keys", "sk", "N"))
                .distinct().sorted().toList());
    }

    @Test
    void refusalsAreDynamoDbs() {
        String table = table();
        String missing = StatorTestServer.tableName();
        String arn = kinesalite.streamArn("refusals-" + table);
        // ack-api-quirks DDB-TABLE-234: every action, a table that does not exist.
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + missing + " not found",
                () -> dynamo.enableKinesisStreamingDestination(b -> b.tableName(missing).streamArn(arn)));
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + missing + " not found",
                () -> dynamo.describeKinesisStreamingDestination(b -> b.tableName(missing)));
        assertEquals(List.of(), dynamo.describeKinesisStreamingDestination(b -> b.tableName(table))
                .kinesisDataStreamDestinations());
        // DDB-TABLE-302: Disable of a destination never enabled.
        assertValidation("Table is not in a valid state to enable Kinesis Streaming Destination: "
                        + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.",
                () -> dynamo.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)));
        // DDB-TABLE-302 and LocalStack's AWS-validated text: Update of a stream never attached.
        assertValidation("Table is not in a valid state to enable Kinesis Streaming Destination: No streaming destination "
                        + "with streamArn: " + arn + " found for table with tableName: " + table,
                () -> dynamo.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)
                        .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MICROSECOND"))));
        // DDB-TABLE-300: Update without a configuration.
        assertValidation("Streaming destination cannot be updated with given parameters: "
                        + "UpdateKinesisStreamingConfiguration cannot be null or contain only null values",
                () -> dynamo.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)));
        // DDB-TABLE-318: a stream that does not exist is accepted, then ENABLE_FAILED.
        var enabled = dynamo.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)
                .enableKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MICROSECOND")));
        assertEquals(DestinationStatus.ENABLING, enabled.destinationStatus());
        assertEquals("MICROSECOND", enabled.enableKinesisStreamingConfiguration().approximateCreationDateTimePrecisionAsString());
        KinesisDataStreamDestination failed = until(table, DestinationStatus.ENABLE_FAILED);
        assertEquals("User does not have a permission to use kinesis stream", failed.destinationStatusDescription());
        // DDB-TABLE-301: Update of an entry that is not ACTIVE; Disable with a configuration.
        assertValidation("Table is not in a valid state to enable Kinesis Streaming Destination: Kinesis streaming is not "
                        + "in ACTIVE state. Updates are only allowed in ACTIVE state. TableName: " + table + ", kdsArn: " + arn,
                () -> dynamo.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)
                        .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MILLISECOND"))));
        assertValidation("Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters",
                () -> dynamo.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(arn)
                        .enableKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MILLISECOND"))));
        // DDB-TABLE-318: what else fails, and the description DynamoDB gave each.
        String notActive = "The kinesis Arn used to enable kinesis replication belongs to a stream which is not in Active state";
        Map<String, String> failing = new java.util.LinkedHashMap<>();
        failing.put("arn:aws:kinesis:eu-west-1:000000000000:stream/refusals-" + table,
                "The kinesis Arn used to enable kinesis replication belongs to a stream which is not in the current region");
        failing.put("arn:aws:kinesis:us-east-1:111111111111:stream/refusals-" + table, notActive);
        failing.put("arn:aws:firehose:us-east-1:000000000000:deliverystream/refusals-" + table, notActive);
        failing.put(arn + "/consumer/c:1700000000", "User does not have a permission to use kinesis stream");
        failing.put("arn:aws:dynamodb:us-east-1:000000000000:table/" + table, "User does not have a permission to use kinesis stream");
        int entries = 1;
        for (Map.Entry<String, String> f : failing.entrySet()) {
            dynamo.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(f.getKey()));
            int at = entries++;
            List<KinesisDataStreamDestination> all = Eventually.until(f.getKey() + " ENABLE_FAILED", DEADLINE,
                    () -> dynamo.describeKinesisStreamingDestination(b -> b.tableName(table)).kinesisDataStreamDestinations(),
                    d -> d.size() == at + 1 && d.get(at).destinationStatus() == DestinationStatus.ENABLE_FAILED);
            assertEquals(f.getValue(), all.get(at).destinationStatusDescription(), f.getKey());
        }
    }

    /**
     * StreamArn is 37 to 1024 characters (the API reference's Enable, Disable and Update requests);
     * one less or one more is the model's generic constraint error, as every length limit (the
     * text inferred from the other constraint errors DynamoDB gives, not recorded for this member).
     */
    @Test
    void streamArnIsThirtySevenToOneThousandTwentyFourCharacters() {
        String prefix = "arn:aws:kinesis:us-east-1:000000000000:stream/";
        String shortest = "x".repeat(37);
        String longest = prefix + "s".repeat(1024 - prefix.length());
        // A table of its own for each: a table has one destination ENABLING or ACTIVE at a time.
        for (String arn : List.of(shortest, longest)) {
            String table = table();
            assertEquals(DestinationStatus.ENABLING, dynamo.enableKinesisStreamingDestination(b -> b.tableName(table)
                    .streamArn(arn)).destinationStatus(), arn.length() + " characters");
            assertEquals(1, dynamo.describeKinesisStreamingDestination(b -> b.tableName(table))
                    .kinesisDataStreamDestinations().size());
        }
        String table = table();
        String tooShort = shortest.substring(1);
        String tooLong = longest + "s";
        assertValidation("1 validation error detected: Value '" + tooShort + "' at 'streamArn' failed to satisfy "
                + "constraint: Member must have length greater than or equal to 37",
                () -> dynamo.enableKinesisStreamingDestination(b -> b.tableName(table).streamArn(tooShort)));
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'streamArn' failed to satisfy "
                + "constraint: Member must have length less than or equal to 1024",
                () -> dynamo.disableKinesisStreamingDestination(b -> b.tableName(table).streamArn(tooLong)));
        assertValidation("1 validation error detected: Value '" + tooShort + "' at 'streamArn' failed to satisfy "
                + "constraint: Member must have length greater than or equal to 37",
                () -> dynamo.updateKinesisStreamingDestination(b -> b.tableName(table).streamArn(tooShort)
                        .updateKinesisStreamingConfiguration(c -> c.approximateCreationDateTimePrecision("MICROSECOND"))));
        assertEquals(List.of(), dynamo.describeKinesisStreamingDestination(b -> b.tableName(table))
                .kinesisDataStreamDestinations());
    }

    @Test
    void aTableWhoseStreamIsGoneHoldsNoOtherTableBack() {
        String gone = table();
        String goneStream = "gone-" + gone;
        activeDestination(gone, goneStream);
        String fine = table();
        String fineStream = "fine-" + fine;
        activeDestination(fine, fineStream);
        kinesis.deleteStream(b -> b.streamName(goneStream));
        Eventually.until("stream " + goneStream + " gone", () -> kinesis.listStreams().streamNames(),
                n -> !n.contains(goneStream));
        dynamo.putItem(b -> b.tableName(gone).item(item("g", 1, "kept")));
        for (int i = 1; i <= 3; i++) {
            int sk = i;
            dynamo.putItem(b -> b.tableName(fine).item(item("f", sk, "sent " + sk)));
            assertEquals(sk, records(fineStream, sk).size());
        }
        // DynamoDB leaves a destination ACTIVE when its stream is deleted (ack-api-quirks DDB-TABLE-319).
        assertEquals(DestinationStatus.ACTIVE, destination(gone).destinationStatus());
    }
}
