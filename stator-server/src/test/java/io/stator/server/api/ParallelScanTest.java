package io.stator.server.api;

import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.KeyOrder;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.ParallelWrites;
import io.stator.server.testing.SharedServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * Parallel scan over 20,000 items: the segments of any TotalSegments (1, 3, 16, 1000) are
 * disjoint and together hold every item exactly once, whatever the paging; a partition key's
 * items stay together in one segment, in sort-key order (DynamoDB's segments are ranges of its
 * partition-key hash; docs/dynamodb/query-scan.md section 4.2).
 */
class ParallelScanTest {

    private static final int PARTITIONS = 5_000;
    private static final int ITEMS_PER_PARTITION = 4;
    private static final int HASH_ONLY_ITEMS = 3_000;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final KeyShape WITH_SORT_KEY = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.N);
    private static final KeyShape HASH_ONLY = new KeyShape(ScalarAttributeType.B, null);
    private static final Map<KeyShape, String> tables = new HashMap<>();
    private static final Map<KeyShape, List<Map<String, AttributeValue>>> stored = new HashMap<>();
    private static ExecutorService segmentReaders;

    @BeforeAll
    static void load() {
        segmentReaders = Executors.newFixedThreadPool(8);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int s = 0; s < ITEMS_PER_PARTITION; s++) {
                items.add(Map.of(PARTITION_KEY, AttributeValue.fromS("partition-" + p),
                        SORT_KEY, AttributeValue.fromN(Integer.toString(s * 7 - 10)),
                        "v", AttributeValue.fromN(Integer.toString(p))));
            }
        }
        stored.put(WITH_SORT_KEY, items);
        stored.put(HASH_ONLY, IntStream.range(0, HASH_ONLY_ITEMS)
                .mapToObj(i -> Map.of(PARTITION_KEY, KeyShape.value(ScalarAttributeType.B, i))).toList());
        for (KeyShape shape : List.of(WITH_SORT_KEY, HASH_ONLY)) {
            tables.put(shape, shape.createTable(server.client()));
            ParallelWrites.putAll(server.endpoint(), tables.get(shape), stored.get(shape));
        }
    }

    @AfterAll
    static void stopReaders() {
        segmentReaders.shutdownNow();
    }

    /** Every page of one segment (or of the whole table when totalSegments is null), in order. */
    private static List<Map<String, AttributeValue>> scanSegment(KeyShape shape, Integer segment, Integer totalSegments,
                                                                 Integer limit) {
        ScanRequest request = ScanRequest.builder().tableName(tables.get(shape)).segment(segment)
                .totalSegments(totalSegments).limit(limit).build();
        return server.client().scanPaginator(request).items().stream().toList();
    }

    /** The segments of a parallel scan, read at once from several threads as clients do. */
    private static List<List<Map<String, AttributeValue>>> scanAllSegments(KeyShape shape, int totalSegments,
                                                                           Integer limit) {
        List<Future<List<Map<String, AttributeValue>>>> futures = new ArrayList<>();
        for (int s = 0; s < totalSegments; s++) {
            int segment = s;
            futures.add(segmentReaders.submit(() -> scanSegment(shape, segment, totalSegments, limit)));
        }
        List<List<Map<String, AttributeValue>>> segments = new ArrayList<>();
        try {
            for (Future<List<Map<String, AttributeValue>>> f : futures) segments.add(f.get());
        } catch (ExecutionException e) {
            throw new AssertionError("a segment failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return segments;
    }

    private static void assertEveryItemExactlyOnce(KeyShape shape, List<List<Map<String, AttributeValue>>> segments) {
        Map<Map<String, AttributeValue>, Integer> segmentOfPartition = new HashMap<>();
        Set<Map<String, AttributeValue>> seen = new HashSet<>();
        int total = 0;
        for (int s = 0; s < segments.size(); s++) {
            List<Map<String, AttributeValue>> segment = segments.get(s);
            for (Map<String, AttributeValue> item : segment) {
                total++;
                assertTrue(seen.add(item), () -> "returned twice: " + item);
                Integer earlier = segmentOfPartition.putIfAbsent(Map.of(PARTITION_KEY, item.get(PARTITION_KEY)), s);
                assertEquals(earlier == null ? s : earlier, s, "a partition key's items are in one segment");
            }
            if (shape.hasSortKey()) assertPartitionsContiguousAndSorted(segment);
        }
        assertEquals(stored.get(shape).size(), total);
        assertEquals(new HashSet<>(stored.get(shape)), seen);
    }

    /** Within a segment, a partition's items come together, in sort-key order. */
    private static void assertPartitionsContiguousAndSorted(List<Map<String, AttributeValue>> segment) {
        Set<AttributeValue> finished = new HashSet<>();
        for (int i = 1; i < segment.size(); i++) {
            Map<String, AttributeValue> previous = segment.get(i - 1);
            Map<String, AttributeValue> item = segment.get(i);
            if (previous.get(PARTITION_KEY).equals(item.get(PARTITION_KEY))) {
                assertTrue(KeyOrder.compare(previous.get(SORT_KEY), item.get(SORT_KEY)) < 0, "sort-key order");
            } else {
                assertTrue(finished.add(previous.get(PARTITION_KEY)), "partition items together");
            }
        }
    }

    static Stream<Arguments> shapesAndSegmentCounts() {
        return Stream.of(WITH_SORT_KEY, HASH_ONLY)
                .flatMap(shape -> Stream.of(1, 3, 16, 1000).map(total -> Arguments.of(shape, total)));
    }

    @ParameterizedTest(name = "{0}, TotalSegments {1}")
    @MethodSource("shapesAndSegmentCounts")
    void parallelScanReturnsEveryItemExactlyOnceAcrossSegments(KeyShape shape, int totalSegments) {
        assertEveryItemExactlyOnce(shape, scanAllSegments(shape, totalSegments, null));
    }

    @Test
    void parallelScanPagedByLimitStillReturnsEveryItemExactlyOnce() {
        assertEveryItemExactlyOnce(WITH_SORT_KEY, scanAllSegments(WITH_SORT_KEY, 3, 997));
    }

    @Test
    void oneSegmentIsTheWholeTableInScanOrder() {
        assertEquals(scanSegment(WITH_SORT_KEY, null, null, null), scanSegment(WITH_SORT_KEY, 0, 1, null));
    }

    @Test
    void segmentsFollowEachOtherInScanOrder() {
        List<Map<String, AttributeValue>> concatenated = scanAllSegments(WITH_SORT_KEY, 16, null).stream()
                .flatMap(List::stream).toList();
        assertEquals(scanSegment(WITH_SORT_KEY, null, null, null), concatenated);
    }

    @Test
    void aSegmentOfTwoHoldsExactlyTwoSegmentsOfFour() {
        List<List<Map<String, AttributeValue>>> halves = scanAllSegments(WITH_SORT_KEY, 2, null);
        List<List<Map<String, AttributeValue>>> quarters = scanAllSegments(WITH_SORT_KEY, 4, null);
        for (int s = 0; s < 2; s++) {
            List<Map<String, AttributeValue>> joined = new ArrayList<>(quarters.get(2 * s));
            joined.addAll(quarters.get(2 * s + 1));
            assertEquals(halves.get(s), joined, "segment " + s + " of 2");
        }
    }
}
