package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.Tables;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Scan and Query stream the table instead of materialising it. A separate Stator JVM with a
 * 128 MB heap (a quarter of its {@code --memory 512MB}), which exits on its first
 * OutOfMemoryError, takes 1 GB of 300 KB items from several client threads; the test then
 * scans the whole table (eight times the heap) and queries one partition holding half of it
 * (four times the heap) page by page through the SDK, with no Limit, so that every page is
 * DynamoDB's 1 MB. Every item must come back exactly once and intact, every page must hold 1 MB
 * of items (four of them), and the server must stay up throughout.
 *
 * <p>The server's memory is watched as it reads, from outside: its GC log gives the live heap at
 * each full collection (one is forced at the end of each read with {@code jcmd GC.run}), which
 * must stay under half the heap; {@code /proc} gives its resident size, which may grow by the
 * block cache it fills while reading but nowhere near the gigabyte it reads.
 */
class LargeScanTest {

    private static final int HEAP_MB = 128;
    /** The bulk of an item: random bytes, so that RocksDB's compression cannot shrink them. */
    private static final int PAYLOAD_BYTES = 300 * 1024;
    /** 3,500 items of 300 KB: 1 GB. */
    private static final int ITEMS = 3_500;
    /** Items 0 to this - 1 share one partition (512 MB) under sort keys 0, 1, 2...; each other item has its own. */
    private static final int BIG_PARTITION_ITEMS = ITEMS / 2;
    private static final String BIG_PARTITION = "big";
    /** Three items of 300 KB are under the page's 1 MB, the fourth reaches it and ends the page. */
    private static final int ITEMS_PER_PAGE = 4;
    private static final int WRITERS = 4;
    private static final long MB = 1024 * 1024;
    /**
     * How much the server's resident memory may grow while it reads: the block cache it fills
     * (RocksDB's 192 MB share of {@code --memory 512MB}), and slack. Holding what it reads would
     * take the whole gigabyte.
     */
    private static final long READ_RESIDENT_GROWTH_LIMIT_MB = 256;

    /** Deleted when the test ends, passed or failed, with the gigabyte of data in it. */
    @TempDir(cleanup = CleanupMode.ALWAYS)
    Path tmp;

    /**
     * About 65 s of CPU in all (server and client), so 40 to 50 s on two idle cores; the timeout
     * only catches a hang, with room for a machine busy with other work.
     */
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void scansAndQueriesATableEightTimesTheServerHeapPageByPage() throws Exception {
        GcLog gcLog = new GcLog(tmp.resolve("gc.log"));
        List<String> jvm = List.of("-Xmx" + HEAP_MB + "m", "-XX:+ExitOnOutOfMemoryError",
                "-Xlog:gc:file=" + gcLog.file + ":uptime:filecount=0");
        // The budget whose heap share is HEAP_MB, as bin/stator --memory 512MB would run it.
        try (StatorProcess server = StatorProcess.start(tmp.resolve("data"), tmp.resolve("stator-stderr.txt"), jvm,
                List.of("--memory", "512MB"))) {
            DynamoDbClient client = server.client();
            String table = "large-scan";
            client.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("sk", ScalarAttributeType.N))
                    .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE)));
            Memory memory = new Memory(server, gcLog);

            long[] checksums = load(server, table, memory);
            Figures loaded = memory.phase("load", ITEMS);

            int[] seen = new int[ITEMS];
            int scanPages = readAllPages(server, memory, start -> {
                ScanRequest.Builder request = ScanRequest.builder().tableName(table);
                if (start != null) request.exclusiveStartKey(start);
                ScanResponse page = client.scan(request.build());
                return new Page(page.items(), page.scannedCount(), page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null);
            }, item -> seen[check(item, checksums)]++);
            memory.forceFullCollection();
            Figures scanned = memory.phase("scan", scanPages);

            int[] next = {0};
            int queryPages = readAllPages(server, memory, start -> {
                QueryRequest.Builder request = QueryRequest.builder().tableName(table)
                        .keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(BIG_PARTITION)));
                if (start != null) request.exclusiveStartKey(start);
                QueryResponse page = client.query(request.build());
                return new Page(page.items(), page.scannedCount(), page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null);
            }, item -> assertEquals(next[0]++, check(item, checksums), "the partition's items in sort-key order"));
            memory.forceFullCollection();
            Figures queried = memory.phase("query", queryPages);

            System.out.printf("LargeScanTest: %d items of %d KB (%d MB) against a %d MB heap%n%s%n%s%n%s%n",
                    ITEMS, PAYLOAD_BYTES / 1024, (long) ITEMS * PAYLOAD_BYTES / MB, HEAP_MB, loaded, scanned, queried);
            for (int id = 0; id < ITEMS; id++) {
                assertEquals(1, seen[id], "times the scan returned item " + id);
            }
            assertEquals(ITEMS / ITEMS_PER_PAGE + 1, scanPages, "scan pages of 1 MB (the last one short or empty)");
            assertEquals(BIG_PARTITION_ITEMS, next[0], "items the query returned");
            assertEquals(BIG_PARTITION_ITEMS / ITEMS_PER_PAGE + 1, queryPages, "query pages of 1 MB");
            assertTrue(server.isAlive(), "the server is still running" + server.stderrText());
            for (Figures reading : List.of(scanned, queried)) reading.assertStreamed(loaded.maxResidentMb());
        }
    }

    /** One page as the test sees it, from a Scan or a Query. */
    private record Page(List<Map<String, AttributeValue>> items, int scannedCount,
                        Map<String, AttributeValue> lastEvaluatedKey) {}

    /**
     * Reads pages until one comes without LastEvaluatedKey, handing each item to {@code check},
     * and returns the number of pages. Each page must be DynamoDB's 1 MB (no Limit is given), and
     * the server must still be running after each.
     */
    private static int readAllPages(StatorProcess server, Memory memory, Function<Map<String, AttributeValue>, Page> read,
                                    Consumer<Map<String, AttributeValue>> check) {
        Map<String, AttributeValue> start = null;
        int pages = 0;
        do {
            Page page;
            try {
                page = read.apply(start);
            } catch (RuntimeException e) {
                throw new AssertionError("page " + pages + " failed (server running: " + server.isAlive() + ")"
                        + server.stderrText(), e);
            }
            pages++;
            assertEquals(page.items().size(), page.scannedCount(), "ScannedCount without a filter");
            if (page.lastEvaluatedKey() != null) {
                assertEquals(ITEMS_PER_PAGE, page.items().size(), "items in page " + pages + ", not the last");
            } else {
                assertTrue(page.items().size() < ITEMS_PER_PAGE, "the last page is short: " + page.items().size());
            }
            page.items().forEach(check);
            memory.sample();
            start = page.lastEvaluatedKey();
        } while (start != null);
        return pages;
    }

    /** Writes the items from {@link #WRITERS} threads; returns each item's payload checksum, by id. */
    private static long[] load(StatorProcess server, String table, Memory memory) throws InterruptedException {
        long[] checksums = new long[ITEMS];
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int first = w;
                done.add(writers.submit(() -> {
                    for (int id = first; id < ITEMS; id += WRITERS) {
                        byte[] payload = payload(id);
                        checksums[id] = crc(payload);
                        boolean big = id < BIG_PARTITION_ITEMS;
                        Map<String, AttributeValue> item = Map.of(
                                "pk", AttributeValue.fromS(big ? BIG_PARTITION : "item-" + id),
                                "sk", AttributeValue.fromN(big ? Integer.toString(id) : "0"),
                                "id", AttributeValue.fromN(Integer.toString(id)),
                                "payload", AttributeValue.fromB(SdkBytes.fromByteArrayUnsafe(payload)));
                        server.client().putItem(b -> b.tableName(table).item(item));
                    }
                    return null;
                }));
            }
            for (Future<?> writer : done) {
                while (true) {
                    try {
                        writer.get(100, TimeUnit.MILLISECONDS);
                        break;
                    } catch (TimeoutException e) {
                        memory.sample();
                    } catch (ExecutionException e) {
                        throw new AssertionError("a write failed (server running: " + server.isAlive() + ")"
                                + server.stderrText(), e.getCause());
                    }
                }
            }
        } finally {
            writers.shutdownNow();
        }
        return checksums;
    }

    /** The payload of item {@code id}: random, and the same every time. */
    private static byte[] payload(int id) {
        byte[] bytes = new byte[PAYLOAD_BYTES];
        new SplittableRandom(id).nextBytes(bytes);
        return bytes;
    }

    private static long crc(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    /** Checks that an item read back is one that was written, whole; returns its id. */
    private static int check(Map<String, AttributeValue> item, long[] checksums) {
        int id = Integer.parseInt(item.get("id").n());
        boolean big = id < BIG_PARTITION_ITEMS;
        assertEquals(big ? BIG_PARTITION : "item-" + id, item.get("pk").s(), "pk of item " + id);
        assertEquals(big ? Integer.toString(id) : "0", item.get("sk").n(), "sk of item " + id);
        byte[] payload = item.get("payload").b().asByteArrayUnsafe();
        assertEquals(PAYLOAD_BYTES, payload.length, "payload length of item " + id);
        assertEquals(checksums[id], crc(payload), "payload checksum of item " + id);
        assertEquals(4, item.size(), "attributes of item " + id);
        return id;
    }

    /**
     * What one phase took: time, CPU, and the server's memory as its GC log and /proc saw it;
     * -1 where a figure could not be had (no /proc, no jcmd).
     */
    private record Figures(String phase, int steps, double seconds, double serverCpu, double clientCpu,
                           int collections, long maxHeapAfterGcMb, int fullCollections, long maxLiveHeapMb,
                           long maxResidentMb) {

        /**
         * A read of several times the heap: what is live on the heap at a full collection must
         * be a small part of it (pages are 1 MB), and the resident memory may grow by the block
         * cache but not by what was read.
         */
        void assertStreamed(long residentBeforeMb) {
            if (fullCollections > 0) {
                assertTrue(maxLiveHeapMb <= HEAP_MB / 2, phase + ": " + maxLiveHeapMb + " MB of the "
                        + HEAP_MB + " MB heap were live at a full collection");
            }
            if (maxResidentMb >= 0 && residentBeforeMb >= 0) {
                assertTrue(maxResidentMb - residentBeforeMb < READ_RESIDENT_GROWTH_LIMIT_MB, phase
                        + ": the server's resident memory grew from " + residentBeforeMb + " to " + maxResidentMb + " MB");
            }
        }

        @Override
        public String toString() {
            return String.format("  %-5s %4d %s in %5.1f s (CPU: server %5.1f s, client %5.1f s); server: %3d GCs, "
                            + "heap after GC at most %3d MB, live at %d full GCs at most %3d MB, resident at most %4d MB",
                    phase, steps, phase.equals("load") ? "items" : "pages", seconds, serverCpu, clientCpu,
                    collections, maxHeapAfterGcMb, fullCollections, maxLiveHeapMb, maxResidentMb);
        }
    }

    /** Watches the server from outside: resident size and CPU from /proc (on Linux), heap from its GC log. */
    private static final class Memory {
        private final long pid;
        private final GcLog gcLog;
        private long phaseStart = System.nanoTime();
        private double serverCpuStart;
        private double clientCpuStart;
        private long maxResidentKb = -1;

        Memory(StatorProcess server, GcLog gcLog) {
            this.pid = server.pid();
            this.gcLog = gcLog;
            this.serverCpuStart = serverCpu();
            this.clientCpuStart = clientCpu();
        }

        void sample() {
            maxResidentKb = Math.max(maxResidentKb, residentKb());
        }

        /** Makes the server collect its whole heap, so its GC log shows what is live now. */
        void forceFullCollection() throws IOException, InterruptedException {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            if (!Files.isExecutable(jcmd)) return;
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
        }

        /** The figures of the phase that ends now; the next one starts. */
        Figures phase(String name, int steps) throws IOException {
            sample();
            long now = System.nanoTime();
            double serverCpu = serverCpu();
            double clientCpu = clientCpu();
            GcLog.Collections gcs = gcLog.readNew();
            Figures figures = new Figures(name, steps, (now - phaseStart) / 1e9, serverCpu - serverCpuStart,
                    clientCpu - clientCpuStart, gcs.count(), gcs.maxAfterMb(), gcs.fullCount(), gcs.maxLiveMb(),
                    maxResidentKb < 0 ? -1 : maxResidentKb / 1024);
            phaseStart = now;
            serverCpuStart = serverCpu;
            clientCpuStart = clientCpu;
            maxResidentKb = -1;
            return figures;
        }

        /** VmRSS from /proc/[pid]/status, in KB; -1 if unknown. */
        private long residentKb() {
            try {
                for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                    if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", ""));
                }
            } catch (IOException | RuntimeException e) {
                // not Linux, or the process is gone
            }
            return -1;
        }

        /** User and system time from /proc/[pid]/stat (clock ticks of 1/100 s), in seconds; 0 if unknown. */
        private double serverCpu() {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        }

        private static double clientCpu() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime() / 1e9;
        }
    }

    /**
     * The server's {@code -Xlog:gc} output, read as it grows; a collection is a line like
     * "GC(7) Pause Young (Allocation Failure) 40M->6M(123M) 2.1ms", and after a full one
     * ("Pause Full") what is left is what is live.
     */
    private static final class GcLog {
        private static final Pattern COLLECTION = Pattern.compile("GC\\(\\d+\\) Pause (\\w+) .* (\\d+)M->(\\d+)M\\(\\d+M\\)");

        final Path file;
        private int linesRead;

        GcLog(Path file) {
            this.file = file;
        }

        record Collections(int count, long maxAfterMb, int fullCount, long maxLiveMb) {}

        /** The collections logged since the last call (complete lines only). */
        Collections readNew() throws IOException {
            String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
            String complete = text.substring(0, text.lastIndexOf('\n') + 1);
            if (complete.isEmpty()) return new Collections(0, -1, 0, -1);
            String[] lines = complete.split("\n");
            int count = 0;
            int fullCount = 0;
            long maxAfter = -1;
            long maxLive = -1;
            for (int i = linesRead; i < lines.length; i++) {
                Matcher m = COLLECTION.matcher(lines[i]);
                if (!m.find()) continue;
                long after = Long.parseLong(m.group(3));
                count++;
                maxAfter = Math.max(maxAfter, after);
                if (m.group(1).equals("Full")) {
                    fullCount++;
                    maxLive = Math.max(maxLive, after);
                }
            }
            linesRead = lines.length;
            return new Collections(count, maxAfter, fullCount, maxLive);
        }
    }
}
