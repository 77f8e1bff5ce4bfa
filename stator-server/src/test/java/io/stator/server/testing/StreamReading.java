package io.stator.server.testing;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/** What tests that read a stream through the SDK's DynamoDbStreamsClient share. */
public final class StreamReading {

    private StreamReading() {}

    /** A streams client of the Stator at {@code endpoint}, with the test credentials and no retries. Close it. */
    public static DynamoDbStreamsClient client(URI endpoint, String region) {
        return client(endpoint, region, StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY);
    }

    /** A streams client of the Stator at {@code endpoint} signing with the given key, no retries. Close it. */
    public static DynamoDbStreamsClient client(URI endpoint, String region, String accessKey, String secretKey) {
        return DynamoDbStreamsClient.builder().endpointOverride(endpoint).region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1)))
                .build();
    }

    /**
     * Every record of the stream, shard by shard in DescribeStream's order (every DescribeStream
     * page; parents before children), each shard read from TRIM_HORIZON to its current end (the
     * first empty page, or no next iterator).
     */
    public static List<Record> readAll(DynamoDbStreamsClient streams, String streamArn) {
        List<Shard> shards = new ArrayList<>();
        String start = null;
        do {
            String from = start;
            var d = streams.describeStream(b -> b.streamArn(streamArn).exclusiveStartShardId(from)).streamDescription();
            shards.addAll(d.shards());
            start = d.lastEvaluatedShardId();
        } while (start != null);
        List<Record> all = new ArrayList<>();
        for (Shard shard : shards) {
            String it = streams.getShardIterator(b -> b.streamArn(streamArn).shardId(shard.shardId())
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (it != null) {
                String current = it;
                GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(current));
                all.addAll(page.records());
                if (page.records().isEmpty()) break;
                it = page.nextShardIterator();
            }
        }
        return all;
    }
}
