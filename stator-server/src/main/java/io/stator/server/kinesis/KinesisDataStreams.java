package io.stator.server.kinesis;

import io.stator.engine.kinesis.KinesisSink;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkSystemSetting;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.kinesis.model.InvalidArgumentException;
import software.amazon.awssdk.services.kinesis.model.KinesisException;
import software.amazon.awssdk.services.kinesis.model.PutRecordsRequestEntry;
import software.amazon.awssdk.services.kinesis.model.PutRecordsResponse;
import software.amazon.awssdk.services.kinesis.model.ResourceNotFoundException;
import software.amazon.awssdk.services.kinesis.model.StreamStatus;

/**
 * A real Kinesis-compatible endpoint ({@code --kinesis-endpoint URL}), through the AWS SDK's
 * Kinesis client: where Kinesis destinations' records go, each in DynamoDB's format
 * ({@link KinesisRecordJson}); credentials from the SDK's default chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, ...), else placeholder ones: Kinesis-compatible servers for
 * development (kinesalite) want a signature and check none, and Kinesis refuses them plainly.
 *
 * <p>It speaks JSON (application/x-amz-json-1.1), which Kinesis serves as well as the SDK's default
 * CBOR and which Kinesis-compatible servers get right (kinesalite 3.3.3 answers CBOR's GetRecords
 * and timestamps wrongly). The SDK has no per-client switch, only the JVM-wide
 * {@code aws.cborEnabled}, read as a client is built: set to false while this one is, unless the
 * operator set it.
 */
public final class KinesisDataStreams implements KinesisSink {

    private static final System.Logger LOG = System.getLogger(KinesisDataStreams.class.getName());

    private final KinesisClient kinesis;

    public KinesisDataStreams(URI endpoint, String region) {
        String cbor = SdkSystemSetting.CBOR_ENABLED.property();
        synchronized (KinesisDataStreams.class) {
            boolean set = System.getProperty(cbor) == null;
            if (set) System.setProperty(cbor, "false");
            try {
                this.kinesis = KinesisClient.builder().endpointOverride(endpoint).region(Region.of(region))
                        .credentialsProvider(AwsCredentialsProviderChain.of(DefaultCredentialsProvider.builder().build(),
                                StaticCredentialsProvider.create(AwsBasicCredentials.create("stator", "stator"))))
                        // A put that hangs is given up (and retried) rather than holding the delivery.
                        .overrideConfiguration(o -> o.apiCallTimeout(java.time.Duration.ofSeconds(20)))
                        .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build();
            } finally {
                if (set) System.clearProperty(cbor);
            }
        }
    }

    @Override
    public boolean writable(String streamName) {
        try {
            StreamStatus status = kinesis.describeStreamSummary(b -> b.streamName(streamName))
                    .streamDescriptionSummary().streamStatus();
            return status == StreamStatus.ACTIVE || status == StreamStatus.UPDATING;
        } catch (ResourceNotFoundException | InvalidArgumentException e) {
            return false;
        } catch (KinesisException e) {
            // A name Kinesis refuses, or a stream these credentials may not use: DynamoDB's "no
            // permission" (docs/dynamodb/kinesis.md); anything else (throttling, 5xx) is tried again.
            String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
            if ("ValidationException".equals(code) || "AccessDeniedException".equals(code)) return false;
            throw e;
        }
    }

    /** Kinesis' limits: 1 MiB a record (its data and partition key), 5 MiB and 500 records a PutRecords. */
    private static final int MAX_RECORD_BYTES = 1024 * 1024;
    private static final int MAX_CALL_BYTES = 5 * 1024 * 1024;
    private static final int MAX_CALL_RECORDS = 500;

    /**
     * Puts the records in as few PutRecords as Kinesis' limits allow. A record over 1 MiB, which
     * Kinesis would refuse every time, is left out and logged (what DynamoDB does with one is unknown).
     */
    @Override
    public List<Integer> put(String streamName, List<Record> records) {
        List<Integer> refused = new ArrayList<>();
        List<PutRecordsRequestEntry> call = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        long callBytes = 0;
        for (int i = 0; i < records.size(); i++) {
            Record r = records.get(i);
            byte[] data = KinesisRecordJson.of(r);
            int bytes = data.length + r.partitionKey().length();
            if (bytes > MAX_RECORD_BYTES) {
                LOG.log(System.Logger.Level.WARNING, "a change of table " + r.tableName() + " makes a Kinesis record of "
                        + bytes + " bytes, over Kinesis' 1 MiB: not sent");
                continue;
            }
            if (!call.isEmpty() && (call.size() == MAX_CALL_RECORDS || callBytes + bytes > MAX_CALL_BYTES)) {
                putRecords(streamName, call, positions, refused);
                call.clear();
                positions.clear();
                callBytes = 0;
            }
            call.add(PutRecordsRequestEntry.builder().partitionKey(r.partitionKey())
                    .data(SdkBytes.fromByteArrayUnsafe(data)).build());
            positions.add(i);
            callBytes += bytes;
        }
        if (!call.isEmpty()) putRecords(streamName, call, positions, refused);
        return refused;
    }

    private void putRecords(String streamName, List<PutRecordsRequestEntry> entries, List<Integer> positions,
                            List<Integer> refused) {
        PutRecordsResponse response = kinesis.putRecords(b -> b.streamName(streamName).records(entries));
        if (response.failedRecordCount() == null || response.failedRecordCount() == 0) return;
        for (int i = 0; i < response.records().size(); i++) {
            if (response.records().get(i).errorCode() != null) refused.add(positions.get(i));
        }
    }

    @Override
    public void close() {
        kinesis.close();
    }
}
