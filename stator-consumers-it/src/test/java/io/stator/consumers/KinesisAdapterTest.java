package io.stator.consumers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.dynamodbv2.streamsadapter.AmazonDynamoDBStreamsAdapterClient;
import com.amazonaws.services.dynamodbv2.streamsadapter.StreamsSchedulerFactory;
import com.amazonaws.services.dynamodbv2.streamsadapter.adapter.DynamoDBStreamsClientRecord;
import com.amazonaws.services.dynamodbv2.streamsadapter.model.DynamoDBStreamsProcessRecordsInput;
import com.amazonaws.services.dynamodbv2.streamsadapter.polling.DynamoDBStreamsPollingConfig;
import com.amazonaws.services.dynamodbv2.streamsadapter.processor.DynamoDBStreamsShardRecordProcessor;
import io.stator.engine.index.PropagationDelay;
import io.stator.engine.streams.StreamSettings;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.cloudwatch.CloudWatchAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.kinesis.common.ConfigsBuilder;
import software.amazon.kinesis.common.InitialPositionInStream;
import software.amazon.kinesis.common.InitialPositionInStreamExtended;
import software.amazon.kinesis.coordinator.Scheduler;
import software.amazon.kinesis.lifecycle.events.InitializationInput;
import software.amazon.kinesis.lifecycle.events.LeaseLostInput;
import software.amazon.kinesis.lifecycle.events.ShardEndedInput;
import software.amazon.kinesis.lifecycle.events.ShutdownRequestedInput;
import software.amazon.kinesis.metrics.MetricsLevel;
import software.amazon.kinesis.metrics.NullMetricsFactory;
import software.amazon.kinesis.retrieval.RetrievalConfig;

/**
 * AWS's DynamoDB Streams Kinesis Adapter (2.0.1, over the Kinesis Client Library 3) consumes a
 * Stator stream while items are inserted, modified and removed, across shard rollovers, and its
 * record processor sees every acknowledged write of every item exactly once, in the item's order.
 *
 * <p>KCL is how Java applications consume DynamoDB Streams outside Lambda, and it leans on what a
 * hand-written reader does not: DescribeStream's lineage, ShardFilter CHILD_SHARDS once a shard
 * ends, the null NextShardIterator that ends a closed shard. It keeps its leases, its coordinator
 * state and its workers' metrics in DynamoDB tables: here Stator's own, so its table work (a GSI
 * added by UpdateTable, conditional writes, queries of that index, a lock client's leader
 * election) is checked as well: Stator refuses none of its calls but the DescribeTable that tells
 * KCL a table of its is still to be created.
 *
 * <p>The server's clock is a {@link TestClock} and its shards roll over every minute of it: the
 * test moves it on {@link #ROLLOVERS} times while the writers run, once the consumer has followed
 * the lineage into the current shards, so every rollover has writes on both sides of it, and no
 * iterator lives long enough to expire.
 */
class KinesisAdapterTest {

    private static final Region REGION = Region.US_EAST_1;
    private static final StaticCredentialsProvider CREDENTIALS = StaticCredentialsProvider.create(
            AwsBasicCredentials.create(StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY));
    private static final BackoffStrategy BACKOFF =
            BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(10));
    /**
     * A stream's open shards: one per partition of its table, four for a table provisioned at
     * 12,000 read and 4,000 write units. Provisioned, not on demand: an on-demand table doubles
     * its partitions (and so its shards) when a second's writes pass half its 4,000 units, and with
     * the clock standing still between rollovers every write of a generation falls in one second.
     */
    private static final int SHARDS = 4;
    private static final Duration SHARD_PERIOD = Duration.ofMinutes(1);
    private static final int ROLLOVERS = 3;
    /** Items, written round-robin by two writers (each item by one, so its writes are in order). */
    private static final int ITEMS = 24;
    private static final int WRITERS = 2;
    /** Writes per generation of shards at least: several of each item on both sides of a rollover. */
    private static final int WRITES_PER_GENERATION = 8 * ITEMS;
    /**
     * KCL hands a shard to its child in seconds, but waits 1 to 30 s (at random) before its first
     * shard sync; this is room for both on a loaded machine.
     */
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private final TestClock clock = new TestClock();
    private final Refusals refusals = new Refusals();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private Workload workload;
    private Scheduler scheduler;

    @AfterEach
    void stop() throws Exception {
        if (workload != null) workload.running.set(false);
        if (scheduler != null && !scheduler.hasGracefulShutdownStarted()) scheduler.shutdown();
        for (AutoCloseable c : toClose.reversed()) c.close();
    }

    @Test
    void kclReadsEveryWriteOnceAndInOrderAcrossShardRollovers() throws Exception {
        clock.set(Instant.now());
        StatorTestServer server = StatorTestServer.start(o -> o.withClock(clock).with(m -> m.streams =
                new StreamSettings(SHARD_PERIOD.toMillis(), StreamSettings.DEFAULT_RETENTION_MILLIS,
                        PropagationDelay.NONE)));
        toClose.add(server);
        DynamoDbClient dynamo = server.client();
        String table = StatorTestServer.tableName();
        dynamo.createTable(b -> b.tableName(table).billingMode("PROVISIONED")
                .provisionedThroughput(t -> t.readCapacityUnits(12_000L).writeCapacityUnits(4_000L))
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S"))
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        String streamArn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();

        Consumer consumer = new Consumer();
        scheduler = scheduler(server.endpoint(), streamArn, "stator-kcl-" + table, consumer);
        Thread kcl = new Thread(scheduler, "kcl-scheduler");
        kcl.setDaemon(true);
        kcl.start();

        workload = new Workload(dynamo, table);
        workload.start();
        for (int generation = 0; generation <= ROLLOVERS; generation++) {
            int g = generation;
            // KCL has ended every parent and started on every child: it reads the current
            // shards while they are written.
            Eventually.until("KCL processing the shards of generation " + g, PATIENCE, consumer::progress,
                    p -> p.initialized() >= SHARDS * (g + 1) && p.ended() >= SHARDS * g);
            int before = workload.acknowledged.get();
            Eventually.until("writes in generation " + g, PATIENCE, workload.acknowledged::get,
                    n -> n >= before + WRITES_PER_GENERATION);
            if (g < ROLLOVERS) clock.advance(SHARD_PERIOD);
        }
        workload.stop();

        int written = workload.acknowledged.get();
        Eventually.until("KCL delivering the " + written + " acknowledged writes", PATIENCE,
                consumer.delivered::get, n -> n >= written);
        // From this thread: startGracefulShutdown waits on the common fork-join pool, where the
        // adapter also makes its calls to Stator (supplyAsync); on two cores the pool has one
        // thread, so the record processors would wait for their last GetRecords until KCL
        // forced the end, a failover time (10 s) later.
        assertTrue(scheduler.createGracefulShutdownCallable().call(), "the scheduler shuts down gracefully");
        kcl.join(PATIENCE.toMillis());

        assertEquals(List.of(), consumer.failures, "no lease lost, no failed checkpoint");
        assertEquals(workload.expected(), consumer.seen(), "every write once, in each item's order");
        assertEquals(written, consumer.delivered.get());
        // Each of the shards of each generation delivered records, and every closed one was ended
        // by KCL: the reading went through all the rollovers on every shard.
        assertEquals(SHARDS * (ROLLOVERS + 1), consumer.delivering.size(), consumer.delivering.toString());
        assertEquals(SHARDS * ROLLOVERS, consumer.ended.size(), consumer.ended.toString());
        // KCL retries or works around many refusals; Stator refused it nothing but DescribeTable
        // of its own tables before it created them.
        assertEquals(Set.of("DescribeTable 400"), Set.copyOf(refusals.attempts), refusals.attempts.toString());
        assertEquals(Set.of("DescribeTable: ResourceNotFoundException"), Set.copyOf(refusals.failures),
                refusals.failures.toString());
    }

    private Scheduler scheduler(URI endpoint, String streamArn, String application, Consumer consumer) {
        DynamoDbStreamsClient streams = DynamoDbStreamsClient.builder().endpointOverride(endpoint).region(REGION)
                .credentialsProvider(CREDENTIALS)
                .httpClient(UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(30)).build())
                // The retries the adapter recommends: 10 attempts, backing off from 100 ms to 10 s.
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD)
                        .retryStrategy(b -> b.maxAttempts(10).backoffStrategy(BACKOFF).throttlingBackoffStrategy(BACKOFF))
                        .addExecutionInterceptor(refusals))
                .build();
        toClose.add(streams);
        // KCL's own tables (leases, coordinator state, worker metrics) are Stator's too.
        DynamoDbAsyncClient dynamo = DynamoDbAsyncClient.builder().endpointOverride(endpoint).region(REGION)
                .overrideConfiguration(c -> c.addExecutionInterceptor(refusals))
                .credentialsProvider(CREDENTIALS).build();
        toClose.add(dynamo);
        // Never called: metrics are off (NullMetricsFactory).
        CloudWatchAsyncClient cloudWatch = CloudWatchAsyncClient.builder().endpointOverride(endpoint).region(REGION)
                .credentialsProvider(CREDENTIALS).build();
        toClose.add(cloudWatch);
        AmazonDynamoDBStreamsAdapterClient adapter = new AmazonDynamoDBStreamsAdapterClient(streams, REGION);

        ConfigsBuilder configs = new ConfigsBuilder(
                StreamsSchedulerFactory.createSingleStreamTracker(streamArn,
                        InitialPositionInStreamExtended.newInitialPosition(InitialPositionInStream.TRIM_HORIZON)),
                application, adapter, dynamo, cloudWatch, "worker-1", () -> consumer.new Processor());
        var coordinator = configs.coordinatorConfig()
                // What the adapter requires (it would set them itself, with a warning).
                .skipShardSyncAtWorkerInitializationIfLeasesExist(true)
                // Seconds rather than KCL's defaults (10 s, 1 s): a child starts soon after its parent ends.
                .parentShardPollIntervalMillis(200)
                .shardConsumerDispatchPollIntervalMillis(200);
        var leases = configs.leaseManagementConfig()
                // New leases (children) are assigned within a second rather than 2 x failover time.
                .leaseAssignmentIntervalMillis(1000L)
                // The adapter sets this to 0 too, but only once its lease management factory has
                // copied KCL's default: the first shard sync would then idle for a minute.
                .shardSyncIntervalMillis(0L)
                .leasesRecoveryAuditorInconsistencyConfidenceThreshold(0);
        // Without worker metrics KCL assigns by lease count; with them it would first ask EC2's
        // instance metadata service whether it runs there, a call to an address off this machine.
        leases.workerUtilizationAwareAssignmentConfig().disableWorkerMetrics(true);
        DynamoDBStreamsPollingConfig polling = new DynamoDBStreamsPollingConfig(streamArn, adapter)
                .idleTimeBetweenReadsInMillis(200);
        RetrievalConfig retrieval = configs.retrievalConfig().retrievalSpecificConfig(polling);
        return StreamsSchedulerFactory.createScheduler(configs.checkpointConfig(), coordinator, leases,
                configs.lifecycleConfig(),
                configs.metricsConfig().metricsFactory(new NullMetricsFactory()).metricsLevel(MetricsLevel.NONE),
                configs.processorConfig(), retrieval, adapter);
    }

    /**
     * What Stator refused of KCL's and the adapter's calls: each attempt answered with an error
     * ("Operation status", retried ones too), and each call that failed ("Operation: error code").
     */
    private static final class Refusals implements ExecutionInterceptor {

        final List<String> attempts = new CopyOnWriteArrayList<>();
        final List<String> failures = new CopyOnWriteArrayList<>();

        @Override
        public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
            int status = context.httpResponse().statusCode();
            if (status >= 400) attempts.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " " + status);
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
            if (context.exception() instanceof AwsServiceException e) {
                failures.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + ": "
                        + e.awsErrorDetails().errorCode());
            }
        }
    }

    /** What KCL delivered: each item's records as text, in the order the processors saw them. */
    private static final class Consumer {

        final Map<String, List<String>> records = new ConcurrentHashMap<>();
        final AtomicInteger delivered = new AtomicInteger();
        final Set<String> initialized = ConcurrentHashMap.newKeySet();
        final Set<String> delivering = ConcurrentHashMap.newKeySet();
        final Set<String> ended = ConcurrentHashMap.newKeySet();
        final List<String> failures = new CopyOnWriteArrayList<>();

        record Progress(int initialized, int ended) {}

        Progress progress() {
            return new Progress(initialized.size(), ended.size());
        }

        Map<String, List<String>> seen() {
            Map<String, List<String>> copy = new TreeMap<>();
            records.forEach((id, list) -> copy.put(id, List.copyOf(list)));
            return copy;
        }

        /** One shard's processor: KCL makes one per shard lease, and calls it from one thread at a time. */
        final class Processor implements DynamoDBStreamsShardRecordProcessor {

            private String shardId;
            private volatile boolean shutdownRequested;

            @Override
            public void initialize(InitializationInput input) {
                shardId = input.shardId();
                initialized.add(shardId);
            }

            @Override
            public void processRecords(DynamoDBStreamsProcessRecordsInput input) {
                for (DynamoDBStreamsClientRecord r : input.records()) {
                    Record record = r.getRecord();
                    String id = record.dynamodb().keys().get("id").s();
                    records.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(describe(record));
                    delivered.incrementAndGet();
                    delivering.add(shardId);
                }
                // Checkpoint each batch as it is processed, so that a lease taken over would
                // resume after it: in a clean run nothing is delivered twice.
                if (!input.records().isEmpty()) checkpoint(() -> input.checkpointer().checkpoint());
            }

            @Override
            public void leaseLost(LeaseLostInput input) {
                // A graceful shutdown ends with the lease given up; any other loss is a failure.
                if (!shutdownRequested) failures.add("lease lost: " + shardId);
            }

            @Override
            public void shardEnded(ShardEndedInput input) {
                // KCL's rule: a shard's end is checkpointed before its children start.
                checkpoint(() -> input.checkpointer().checkpoint());
                ended.add(shardId);
            }

            @Override
            public void shutdownRequested(ShutdownRequestedInput input) {
                shutdownRequested = true;
                checkpoint(() -> input.checkpointer().checkpoint());
            }

            private void checkpoint(Checkpoint checkpoint) {
                try {
                    checkpoint.run();
                } catch (Exception e) {
                    failures.add("checkpoint of " + shardId + " failed: " + e);
                }
            }
        }

        interface Checkpoint {
            void run() throws Exception;
        }
    }

    /** A record as the workload expects it: the event, and the write numbers its images show. */
    private static String describe(Record record) {
        Map<String, AttributeValue> oldImage = record.dynamodb().oldImage();
        Map<String, AttributeValue> newImage = record.dynamodb().newImage();
        return switch (record.eventName()) {
            case INSERT -> "INSERT " + newImage.get("n").n();
            case MODIFY -> "MODIFY " + oldImage.get("n").n() + "->" + newImage.get("n").n();
            case REMOVE -> "REMOVE " + oldImage.get("n").n();
            default -> "UNKNOWN " + record;
        };
    }

    /**
     * Writers that go round their items, each item through INSERT, MODIFY, MODIFY, REMOVE again
     * and again (conditional writes, so each one changes the item and so leaves a record), noting
     * each acknowledged write as its record should read. Attribute n numbers an item's writes.
     */
    private static final class Workload {

        private final DynamoDbClient dynamo;
        private final String table;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        private final Map<String, List<String>> expected = new ConcurrentHashMap<>();
        private final List<Throwable> errors = new CopyOnWriteArrayList<>();
        final AtomicInteger acknowledged = new AtomicInteger();

        Workload(DynamoDbClient dynamo, String table) {
            this.dynamo = dynamo;
            this.table = table;
        }

        void start() {
            for (int w = 0; w < WRITERS; w++) {
                List<String> mine = new ArrayList<>();
                for (int i = w; i < ITEMS; i += WRITERS) mine.add(String.format("item-%02d", i));
                Thread t = new Thread(() -> write(mine), "writer-" + w);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        private void write(List<String> items) {
            int[] writes = new int[items.size()];
            try {
                while (running.get()) {
                    for (int i = 0; i < items.size() && running.get(); i++) {
                        String id = items.get(i);
                        int n = ++writes[i];
                        expected.computeIfAbsent(id, k -> new ArrayList<>()).add(writeOnce(id, n));
                        acknowledged.incrementAndGet();
                        // A steady trickle (about 200 writes a second in all), not a flood.
                        Thread.sleep(10);
                    }
                }
            } catch (Throwable e) {
                errors.add(e);
            }
        }

        /** The item's n-th write, and its stream record as it should read (the item's last write was n - 1). */
        private String writeOnce(String id, int n) {
            Map<String, AttributeValue> key = Map.of("id", AttributeValue.fromS(id));
            AttributeValue number = AttributeValue.fromN(Integer.toString(n));
            switch (n % 4) {
                case 1 -> {
                    dynamo.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id), "n", number))
                            .conditionExpression("attribute_not_exists(id)"));
                    return "INSERT " + n;
                }
                case 2, 3 -> {
                    dynamo.updateItem(b -> b.tableName(table).key(key).updateExpression("SET n = :n")
                            .conditionExpression("attribute_exists(id)")
                            .expressionAttributeValues(Map.of(":n", number)));
                    return "MODIFY " + (n - 1) + "->" + n;
                }
                default -> {
                    dynamo.deleteItem(b -> b.tableName(table).key(key).conditionExpression("attribute_exists(id)"));
                    return "REMOVE " + (n - 1);
                }
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) t.join();
            assertEquals(List.of(), errors, "every write acknowledged");
        }

        Map<String, List<String>> expected() {
            return new TreeMap<>(expected);
        }
    }
}
