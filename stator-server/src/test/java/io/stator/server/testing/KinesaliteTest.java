package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkSystemSetting;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.GetRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResultEntry;
import software.amazon.awssdk.services.kinesis.model.Record;
import software.amazon.awssdk.services.kinesis.model.ResourceNotFoundException;
import software.amazon.awssdk.services.kinesis.model.Shard;
import software.amazon.awssdk.services.kinesis.model.ShardIteratorType;
import software.amazon.awssdk.services.kinesis.model.StreamDescriptionSummary;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;
import software.amazon.awssdk.services.kinesis.model.ValidationException;

/** {@link Kinesalite} works with the SDK v2 Kinesis client, and what kinesalite 3.3.3 does where it differs from Kinesis. */
class KinesaliteTest {

    private static Kinesalite kinesalite;
    private static KinesisClient kinesis;

    @BeforeAll
    static void start() {
        kinesalite = Kinesalite.start();
        kinesis = kinesalite.client("us-east-1");
    }

    @AfterAll
    static void stop() {
        if (kinesis != null) kinesis.close();
        if (kinesalite != null) kinesalite.close();
    }

    @Test
    void putsRecordsAndReadsThemBackFromBothShards() {
        kinesis.createStream(b -> b.streamName("probe").shardCount(2));
        StreamDescriptionSummary summary = awaitActive("probe");
        // Kinesalite's ARNs: always us-east-1 and account 000000000000, whatever the client's region.
        assertEquals("arn:aws:kinesis:us-east-1:000000000000:stream/probe", summary.streamARN());
        assertEquals(kinesalite.streamArn("probe"), summary.streamARN());
        assertEquals(2, summary.openShardCount());

        Map<String, byte[]> dataByKey = new HashMap<>();
        dataByKey.put("alpha", new byte[] {'a', 0, (byte) 0xff, 1});
        dataByKey.put("bravo", new byte[] {'b', (byte) 0x80, 2});
        dataByKey.put("charlie", "charlie's record".getBytes());
        List<PutRecordsRequestEntry> entries = dataByKey.entrySet().stream()
                .map(e -> PutRecordsRequestEntry.builder().partitionKey(e.getKey())
                        .data(SdkBytes.fromByteArray(e.getValue())).build())
                .toList();
        PutRecordsResponse put = kinesis.putRecords(b -> b.streamName("probe").records(entries));
        assertEquals(0, put.failedRecordCount());
        assertEquals(3, put.records().size());
        Map<String, PutRecordsResultEntry> putByKey = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) putByKey.put(entries.get(i).partitionKey(), put.records().get(i));

        List<Shard> shards = kinesis.listShards(b -> b.streamName("probe")).shards();
        assertEquals(2, shards.size());
        Map<String, Record> readByKey = new HashMap<>();
        Map<String, String> shardByKey = new HashMap<>();
        for (Shard shard : shards) {
            for (Record record : readAll("probe", shard.shardId())) {
                assertEquals(null, readByKey.put(record.partitionKey(), record), "read twice: " + record);
                shardByKey.put(record.partitionKey(), shard.shardId());
            }
        }
        assertEquals(dataByKey.keySet(), readByKey.keySet());
        dataByKey.forEach((key, data) -> {
            Record record = readByKey.get(key);
            assertArrayEquals(data, record.data().asByteArray(), key);
            assertEquals(putByKey.get(key).sequenceNumber(), record.sequenceNumber(), key);
            assertEquals(putByKey.get(key).shardId(), shardByKey.get(key), key);
            // In JSON the timestamps are right (in CBOR they would be in 1970: see cborClientCannotReadRecords).
            assertTrue(record.approximateArrivalTimestamp().isAfter(Instant.now().minus(Duration.ofHours(1))),
                    record.approximateArrivalTimestamp().toString());
        });
    }

    /*
     * (a) Kinesalite 3.3.3 predates StreamARN parameters: it knows a stream only by StreamName, ignores
     * a StreamARN, and so rejects a request that has only the ARN, with the SDK's ValidationException
     * "1 validation error detected: Value null at 'streamName' failed to satisfy constraint: Member
     * must not be null" (HTTP 400). Same for PutRecords and DescribeStreamSummary. With both, the
     * StreamName is used (the ARN is not even checked).
     */
    @Test
    void streamArnAloneIsRejected() {
        kinesis.createStream(b -> b.streamName("by-arn").shardCount(1));
        String arn = awaitActive("by-arn").streamARN();
        PutRecordsRequestEntry entry = PutRecordsRequestEntry.builder().partitionKey("k")
                .data(SdkBytes.fromUtf8String("v")).build();
        String notNull = "1 validation error detected: Value null at 'streamName' failed to satisfy constraint: "
                + "Member must not be null";

        ValidationException summary = assertThrows(ValidationException.class,
                () -> kinesis.describeStreamSummary(b -> b.streamARN(arn)));
        assertEquals(400, summary.statusCode());
        assertEquals("ValidationException", summary.awsErrorDetails().errorCode());
        assertEquals(notNull, summary.awsErrorDetails().errorMessage());

        ValidationException put = assertThrows(ValidationException.class,
                () -> kinesis.putRecords(b -> b.streamARN(arn).records(entry)));
        assertEquals(notNull, put.awsErrorDetails().errorMessage());

        assertEquals(0, kinesis.putRecords(b -> b.streamName("by-arn").streamARN(arn).records(entry))
                .failedRecordCount());
        assertEquals(0, kinesis.putRecords(b -> b.streamName("by-arn")
                .streamARN(kinesalite.streamArn("another-stream")).records(entry)).failedRecordCount());
    }

    /*
     * (b) DescribeStreamSummary of a missing stream: the SDK's ResourceNotFoundException (HTTP 400,
     * error code ResourceNotFoundException), message "Stream missing under account 000000000000 not
     * found.".
     */
    @Test
    void missingStreamIsResourceNotFound() {
        ResourceNotFoundException e = assertThrows(ResourceNotFoundException.class,
                () -> kinesis.describeStreamSummary(b -> b.streamName("missing")));
        assertEquals(400, e.statusCode());
        assertEquals("ResourceNotFoundException", e.awsErrorDetails().errorCode());
        assertEquals("Stream missing under account 000000000000 not found.", e.awsErrorDetails().errorMessage());
    }

    @Test
    void clientPutsTheCborSettingBack() {
        String property = SdkSystemSetting.CBOR_ENABLED.property();
        assertEquals("aws.cborEnabled", property);
        String before = System.getProperty(property);
        try (KinesisClient client = kinesalite.client("eu-west-1")) {
            assertEquals(before, System.getProperty(property));
            // Any region will do; the ARN says us-east-1 all the same.
            client.createStream(b -> b.streamName("from-eu").shardCount(1));
            assertEquals("arn:aws:kinesis:us-east-1:000000000000:stream/from-eu", client
                    .describeStreamSummary(b -> b.streamName("from-eu")).streamDescriptionSummary().streamARN());
        }
        assertEquals(before, System.getProperty(property));
    }

    /*
     * Why Kinesalite.client turns CBOR off: with the SDK's default (CBOR), kinesalite 3.3.3 hands
     * back GetRecords' Data as a CBOR map (the Node Buffer it stored, serialized as JSON), which the
     * SDK cannot read ("Unable to unmarshall response (... expecting token: VALUE_STRING, got:
     * START_OBJECT)"); and its timestamps are seconds where CBOR's are milliseconds (a stream made
     * now was made in January 1970). Should this test fail, kinesalite or the SDK has changed.
     */
    @Test
    void cborClientCannotReadRecords() {
        assumeTrue(System.getProperty("aws.cborEnabled") == null && System.getenv("CBOR_ENABLED") == null,
                "CBOR is configured for this whole JVM");
        try (KinesisClient cbor = KinesisClient.builder()
                .endpointOverride(kinesalite.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build()) {
            cbor.createStream(b -> b.streamName("cbor").shardCount(1));
            StreamDescriptionSummary summary = cbor.describeStreamSummary(b -> b.streamName("cbor"))
                    .streamDescriptionSummary();
            assertTrue(summary.streamCreationTimestamp().isBefore(Instant.parse("1971-01-01T00:00:00Z")),
                    summary.streamCreationTimestamp().toString());
            assertEquals(0, cbor.putRecords(b -> b.streamName("cbor").records(PutRecordsRequestEntry.builder()
                    .partitionKey("k").data(SdkBytes.fromUtf8String("v")).build())).failedRecordCount());
            String shardId = cbor.listShards(b -> b.streamName("cbor")).shards().get(0).shardId();
            String iterator = cbor.getShardIterator(b -> b.streamName("cbor").shardId(shardId)
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            SdkClientException e = assertThrows(SdkClientException.class,
                    () -> cbor.getRecords(b -> b.shardIterator(iterator)));
            assertTrue(e.getMessage().contains("Unable to unmarshall response"), e.getMessage());
        }
    }

    private static StreamDescriptionSummary awaitActive(String stream) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            StreamDescriptionSummary summary = kinesis.describeStreamSummary(b -> b.streamName(stream))
                    .streamDescriptionSummary();
            if (summary.streamStatus() == StreamStatus.ACTIVE) return summary;
            if (Instant.now().isAfter(deadline)) throw new AssertionError("not ACTIVE in time: " + summary);
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** Every record of the shard, from its start, until a GetRecords finds none. */
    private static List<Record> readAll(String stream, String shardId) {
        String iterator = kinesis.getShardIterator(b -> b.streamName(stream).shardId(shardId)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        List<Record> records = new ArrayList<>();
        for (int calls = 0; calls < 100 && iterator != null; calls++) {
            String from = iterator;
            GetRecordsResponse response = kinesis.getRecords(b -> b.shardIterator(from));
            if (response.records().isEmpty()) return records;
            records.addAll(response.records());
            iterator = Objects.requireNonNull(response.nextShardIterator());
        }
        return records;
    }
}
