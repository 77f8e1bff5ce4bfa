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
        } catch (ResourceNotFoundException e) {
            return false;
        }
    }

    @Override
    public List<Integer> put(String streamName, List<Record> records) {
        List<PutRecordsRequestEntry> entries = new ArrayList<>(records.size());
        for (Record r : records) {
            entries.add(PutRecordsRequestEntry.builder().partitionKey(r.partitionKey())
                    .data(SdkBytes.fromByteArrayUnsafe(KinesisRecordJson.of(r))).build());
        }
        PutRecordsResponse response = kinesis.putRecords(b -> b.streamName(streamName).records(entries));
        List<Integer> refused = new ArrayList<>();
        if (response.failedRecordCount() != null && response.failedRecordCount() > 0) {
            for (int i = 0; i < response.records().size(); i++) {
                if (response.records().get(i).errorCode() != null) refused.add(i);
            }
        }
        return refused;
    }

    @Override
    public void close() {
        kinesis.close();
    }
}
