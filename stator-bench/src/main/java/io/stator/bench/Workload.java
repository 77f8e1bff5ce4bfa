package io.stator.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * The request-per-operation workloads, and how each builds its requests before it is measured.
 *
 * <p>Why pools: every request a measurement sends is built and signed beforehand, so the
 * generator only picks one and writes it. A workload over at most {@link #POOL_LIMIT} keys gets
 * one request per key, picked uniformly; a larger one, or {@code hot-key}, draws
 * {@code POOL_LIMIT} keys from its distribution (uniform, or Zipf) and replays that sample, and
 * the report says so.
 * {@code load} and {@code scan} are not here: each request of theirs is new (a new item, the next
 * page), so they are built as they go ({@link Loader}, {@link FullScan}).
 */
enum Workload {
    GET("GetItem, eventually consistent, uniform keys"),
    GET_STRONG("GetItem, strongly consistent, uniform keys"),
    PUT("PutItem overwriting an item, uniform keys"),
    UPDATE("UpdateItem: SET c = c + 1 if the item exists, uniform keys"),
    TRANSACT("TransactWriteItems: a put of one item and an update of another, uniform keys"),
    QUERY("Query: first page of 10 items of a random partition"),
    MIXED("50% get / 50% update, uniform keys (YCSB A)"),
    READ_MOSTLY("95% get / 5% update, uniform keys (YCSB B)"),
    HOT_KEY("50% get / 50% update, Zipf(0.99) keys");

    static final int POOL_LIMIT = 1 << 17;

    final String description;

    Workload(String description) {
        this.description = description;
    }

    String label() { return name().toLowerCase(Locale.ROOT).replace('_', '-'); }

    static Workload parse(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Builds (and signs) this workload's requests for the table, using every core. */
    RequestSource build(DynamoRequests requests, BenchTable table) {
        return switch (this) {
            case GET -> pool(requests, Draws.of(table.itemCount(), false),
                    i -> new Req("GetItem", table.getItem(i, false)));
            case GET_STRONG -> pool(requests, Draws.of(table.itemCount(), false),
                    i -> new Req("GetItem", table.getItem(i, true)));
            case PUT -> pool(requests, Draws.of(table.itemCount(), false),
                    i -> new Req("PutItem", table.putItem(i)));
            case UPDATE -> pool(requests, Draws.of(table.itemCount(), false),
                    i -> new Req("UpdateItem", table.incrementCounter(i)));
            case TRANSACT -> pool(requests, Draws.of(table.itemCount(), false),
                    i -> new Req("TransactWriteItems", table.putAndIncrement(i)));
            case QUERY -> pool(requests, Draws.of(table.partitions(), false),
                    p -> new Req("Query", table.queryFirstPage(p)));
            case MIXED -> mix(requests, table, 0.5, false);
            case READ_MOSTLY -> mix(requests, table, 0.95, false);
            case HOT_KEY -> mix(requests, table, 0.5, true);
        };
    }

    /** Whether the pool holds every key once (true) or a sample of them drawn from the distribution. */
    static boolean coversEveryKey(long keys) {
        return keys <= POOL_LIMIT;
    }

    private static RequestSource mix(DynamoRequests requests, BenchTable table, double readShare, boolean zipf) {
        Draws draws = Draws.of(table.itemCount(), zipf);
        byte[][] gets = buildAll(requests, draws.keys, i -> new Req("GetItem", table.getItem(i, false)));
        byte[][] updates = buildAll(requests, draws.keys, i -> new Req("UpdateItem", table.incrementCounter(i)));
        return new RequestSource(new byte[][][] {gets, updates}, new double[] {readShare, 1}, draws.draws);
    }

    private static RequestSource pool(DynamoRequests requests, Draws draws, LongFunction<Req> request) {
        return new RequestSource(new byte[][][] {buildAll(requests, draws.keys, request)}, new double[] {1}, draws.draws);
    }

    private static byte[][] buildAll(DynamoRequests requests, long[] keys, LongFunction<Req> request) {
        byte[][] pool = new byte[keys.length][];
        int threads = Runtime.getRuntime().availableProcessors();
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = IntStream.range(0, threads).mapToObj(t -> Thread.ofPlatform().start(() -> {
            DynamoRequests mine = requests.copy();
            for (int i; (i = next.getAndIncrement()) < keys.length; ) {
                Req r = request.apply(keys[i]);
                pool[i] = mine.build(r.action(), r.body());
            }
        })).toList();
        LoadGenerator.join(workers);
        return pool;
    }

    /**
     * Which keys a workload's requests go to: the distinct {@code keys} (one request each), and
     * the sequence of {@code draws} (indexes into them) from which each send picks at random, or
     * null when every key is in once (a uniform pick of a key). A Zipf sample repeats its hot
     * keys many times; they are signed once.
     */
    private record Draws(long[] keys, int[] draws) {

        static Draws of(long count, boolean zipf) {
            SplittableRandom random = new SplittableRandom(42);
            if (!zipf && coversEveryKey(count)) return new Draws(LongStream.range(0, count).toArray(), null);
            long[] sample = new long[POOL_LIMIT];
            Zipf distribution = zipf ? new Zipf(count, Zipf.YCSB_SKEW) : null;
            for (int i = 0; i < sample.length; i++) {
                sample[i] = zipf ? distribution.next(random) : random.nextLong(count);
            }
            long[] keys = LongStream.of(sample).distinct().sorted().toArray();
            int[] draws = new int[sample.length];
            for (int i = 0; i < sample.length; i++) draws[i] = Arrays.binarySearch(keys, sample[i]);
            return new Draws(keys, draws);
        }
    }

    private record Req(String action, String body) {}

    /**
     * A workload's requests, built and signed, and how a send picks one: a key (uniformly from
     * {@code draws}, or from every key when it is null), then a part (a mix's get or update) by
     * the parts' shares. Kept as data rather than a function so that wrk's script can pick as
     * the Java generator does ({@link WrkGenerator} writes it out).
     *
     * @param parts  {@code parts[p][k]}: part {@code p}'s request for key {@code k}
     * @param shares cumulative share of each part; the last is 1
     * @param draws  key indexes to draw from uniformly, or null for every key once
     */
    record RequestSource(byte[][][] parts, double[] shares, int[] draws) {

        int keys() { return parts[0].length; }

        /** The next request to send; called by one connection's thread with its own random. */
        byte[] next(SplittableRandom random) {
            int k = draws == null ? random.nextInt(keys()) : draws[random.nextInt(draws.length)];
            if (parts.length == 1) return parts[0][k];
            double r = random.nextDouble();
            for (int p = 0; p < parts.length - 1; p++) if (r < shares[p]) return parts[p][k];
            return parts[parts.length - 1][k];
        }
    }
}
