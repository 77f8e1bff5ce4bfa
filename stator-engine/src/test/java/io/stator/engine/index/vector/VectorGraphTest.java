package io.stator.engine.index.vector;

import static io.stator.engine.index.vector.ClusteredVectors.key;
import static io.stator.engine.index.vector.Distance.COSINE;
import static io.stator.engine.index.vector.Distance.DOT_PRODUCT;
import static io.stator.engine.index.vector.Distance.EUCLIDEAN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.index.vector.VectorGraph.Hit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The graph against exact search: rankings and scores equal to {@link VectorScores}' on small
 * data, filters (one term, two, a selective one), replacement and removal, zero and extreme
 * vectors, DynamoDB's 4,096 dimensions, and searches during writes. Recall on larger data is
 * {@link VectorGraphRecallTest}'s.
 */
class VectorGraphTest {

    private static final String BOOKS = "h\u0000S:books";
    private static final String FILMS = "h\u0000S:films";
    private static final String RED = "f\u0000color\u0000S:red";
    private static final String RARE = "f\u0000rare\u0000BOOL:true";

    /** Entries as the test put them: key number to vector and terms. */
    private final Map<Integer, Entry> entries = new TreeMap<>();

    private record Entry(float[] vector, Set<String> terms) {
    }

    @ParameterizedTest
    @EnumSource(Distance.class)
    void rankingAndScoresEqualExactSearchOnSmallData(Distance distance) {
        ClusteredVectors data = new ClusteredVectors(1, 8, 10, 1.0);
        try (VectorGraph graph = new VectorGraph(8, distance)) {
            for (int i = 0; i < 1_000; i++) {
                put(graph, i, data.next(), Set.of());
            }
            for (int q = 0; q < 30; q++) {
                float[] query = data.next();
                assertEquals(exact(distance, query, 10, Set.of()),
                        graph.search(query, 10, Set.of()));
            }
            assertEquals(1_000, graph.size());
        }
    }

    @ParameterizedTest
    @EnumSource(Distance.class)
    void theCapturedFixtureRanksAsDynamoDb(Distance distance) {
        try (VectorGraph graph = new VectorGraph(3, distance)) {
            put(graph, 'a', new float[] {1, 0, 0}, Set.of());
            put(graph, 'b', new float[] {0, 1, 0}, Set.of());
            put(graph, 'c', new float[] {-1, 0, 0}, Set.of());
            put(graph, 'd', new float[] {0.6f, 0.8f, 0}, Set.of());
            List<Hit> hits = graph.search(new float[] {1, 0, 0}, 10, Set.of());
            // vector-search.md §8: a, d, b, c for all three distance functions.
            assertEquals(List.of((int) 'a', (int) 'd', (int) 'b', (int) 'c'), numbers(hits));
            assertEquals(exact(distance, new float[] {1, 0, 0}, 10, Set.of()), hits);
        }
    }

    @Test
    void anEmptyGraphFindsNothing() {
        try (VectorGraph graph = new VectorGraph(4, EUCLIDEAN)) {
            assertEquals(List.of(), graph.search(new float[4], 5, Set.of()));
            assertEquals(List.of(), graph.search(new float[] {1, 2, 3, 4}, 5, Set.of(BOOKS)));
            assertEquals(0, graph.size());
        }
    }

    @Test
    void fewerEntriesThanKAreAllReturned() {
        try (VectorGraph graph = new VectorGraph(2, DOT_PRODUCT)) {
            put(graph, 1, new float[] {1, 1}, Set.of());
            put(graph, 2, new float[] {2, -1}, Set.of());
            float[] query = {0.5f, 2};
            assertEquals(exact(DOT_PRODUCT, query, 100, Set.of()),
                    graph.search(query, 100, Set.of()));
            assertEquals(2, graph.search(query, 100, Set.of()).size());
        }
    }

    @ParameterizedTest
    @EnumSource(Distance.class)
    void oneRequiredTermKeepsOnlyTheEntriesCarryingIt(Distance distance) {
        ClusteredVectors data = new ClusteredVectors(2, 16, 8, 1.0);
        try (VectorGraph graph = new VectorGraph(16, distance)) {
            for (int i = 0; i < 2_000; i++) {
                put(graph, i, data.next(), Set.of(i % 2 == 0 ? BOOKS : FILMS));
            }
            double recall = 0;
            for (int q = 0; q < 20; q++) {
                recall += filteredSearch(graph, data.next(), Set.of(BOOKS));
            }
            assertTrue(recall / 20 >= 0.98, "recall " + recall / 20);
        }
    }

    @Test
    void twoRequiredTermsKeepOnlyTheEntriesCarryingBoth() {
        ClusteredVectors data = new ClusteredVectors(3, 16, 8, 1.0);
        try (VectorGraph graph = new VectorGraph(16, COSINE)) {
            for (int i = 0; i < 2_000; i++) {
                Set<String> terms = new HashSet<>();
                terms.add(i % 2 == 0 ? BOOKS : FILMS);
                if (i % 3 == 0) {
                    terms.add(RED);
                }
                put(graph, i, data.next(), terms);
            }
            double recall = 0;
            for (int q = 0; q < 20; q++) {
                recall += filteredSearch(graph, data.next(), Set.of(BOOKS, RED));
            }
            assertTrue(recall / 20 >= 0.98, "recall " + recall / 20);
            assertEquals(List.of(), graph.search(data.next(), 10, List.of(BOOKS, FILMS)));
        }
    }

    @ParameterizedTest
    @EnumSource(Distance.class)
    void aSelectiveFilterReturnsEveryMatchingEntry(Distance distance) {
        Random random = new Random(4);
        try (VectorGraph graph = new VectorGraph(16, distance)) {
            for (int i = 0; i < 10_000; i++) {
                float[] vector = new float[16];
                for (int j = 0; j < 16; j++) {
                    vector[j] = (float) random.nextGaussian();
                }
                // The 3 rare entries point away from the query: no unfiltered search finds them.
                if (i % 3_000 == 1_000) {
                    vector[0] = -20;
                }
                put(graph, i, vector, i % 3_000 == 1_000 ? Set.of(BOOKS, RARE) : Set.of(BOOKS));
            }
            float[] query = new float[16];
            query[0] = 20;
            List<Hit> hits = graph.search(query, 10, List.of(RARE));
            assertEquals(List.of(1_000, 4_000, 7_000), numbers(hits).stream().sorted().toList());
            assertEquals(exact(distance, query, 10, Set.of(RARE)), hits);
            assertEquals(exact(distance, query, 10, Set.of(BOOKS, RARE)),
                    graph.search(query, 10, List.of(BOOKS, RARE)));
        }
    }

    @Test
    void putReplacesTheEntryItsVectorAndItsTerms() {
        try (VectorGraph graph = new VectorGraph(2, EUCLIDEAN)) {
            put(graph, 1, new float[] {0, 0}, Set.of(BOOKS));
            put(graph, 2, new float[] {5, 5}, Set.of(BOOKS));
            put(graph, 1, new float[] {3, 4}, Set.of(FILMS));
            assertEquals(2, graph.size());
            List<Hit> hits = graph.search(new float[] {0, 0}, 10, Set.of());
            assertEquals(List.of(new Hit(key(1), 5.0), new Hit(key(2), Math.sqrt(50))), hits);
            assertEquals(List.of(2), numbers(graph.search(new float[] {0, 0}, 10, Set.of(BOOKS))));
            assertEquals(List.of(1), numbers(graph.search(new float[] {0, 0}, 10, Set.of(FILMS))));
        }
    }

    @Test
    void removeDeletesTheEntryAndIgnoresAnAbsentKey() {
        try (VectorGraph graph = new VectorGraph(2, EUCLIDEAN)) {
            put(graph, 1, new float[] {0, 0}, Set.of());
            put(graph, 2, new float[] {1, 1}, Set.of());
            graph.remove(key(1));
            graph.remove(key(3));
            assertEquals(1, graph.size());
            assertEquals(List.of(2), numbers(graph.search(new float[] {0, 0}, 10, Set.of())));
            graph.remove(key(2));
            assertEquals(0, graph.size());
            assertEquals(List.of(), graph.search(new float[] {0, 0}, 10, Set.of()));
        }
    }

    @Test
    void zeroVectorsUnderCosineScoreExactlyOne() {
        try (VectorGraph graph = new VectorGraph(3, COSINE)) {
            put(graph, 2, new float[] {0, 0, 0}, Set.of(BOOKS));
            put(graph, 1, new float[] {1, 0, 0}, Set.of());
            put(graph, 3, new float[] {-1, 0, 0}, Set.of(BOOKS));
            assertEquals(3, graph.size());
            assertEquals(List.of(new Hit(key(1), 0.0), new Hit(key(2), 1.0), new Hit(key(3), 2.0)),
                    graph.search(new float[] {1, 0, 0}, 10, Set.of()));
            assertEquals(List.of(new Hit(key(2), 1.0), new Hit(key(3), 2.0)),
                    graph.search(new float[] {1, 0, 0}, 10, Set.of(BOOKS)));
            assertEquals(List.of(new Hit(key(1), 1.0), new Hit(key(2), 1.0)),
                    graph.search(new float[] {0, 0, 0}, 2, Set.of()),
                    "a zero query ties every entry at 1.0, ranked by key");
            // Into the graph and out of it again.
            put(graph, 2, new float[] {0, 1, 0}, Set.of(BOOKS));
            assertEquals(List.of(new Hit(key(2), 1.0), new Hit(key(3), 2.0)),
                    graph.search(new float[] {1, 0, 0}, 10, Set.of(BOOKS)));
            assertEquals(3, graph.size());
            put(graph, 1, new float[] {0, 0, 0}, Set.of());
            assertEquals(exact(COSINE, new float[] {0, 1, 0}, 10, Set.of()),
                    graph.search(new float[] {0, 1, 0}, 10, Set.of()));
            graph.remove(key(1));
            assertEquals(2, graph.size());
            assertEquals(List.of(2, 3), numbers(graph.search(new float[] {0, 1, 0}, 10, Set.of())));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Distance.class, names = {"EUCLIDEAN", "DOT_PRODUCT"})
    void zeroVectorsRankUnderEuclideanAndDotProduct(Distance distance) {
        try (VectorGraph graph = new VectorGraph(2, distance)) {
            put(graph, 1, new float[] {0, 0}, Set.of());
            put(graph, 2, new float[] {1, 1}, Set.of());
            put(graph, 3, new float[] {-1, -1}, Set.of());
            for (float[] query : List.of(new float[] {1, 0}, new float[] {0, 0})) {
                assertEquals(exact(distance, query, 10, Set.of()),
                        graph.search(query, 10, Set.of()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Distance.class)
    void extremeMagnitudesAreRankedExactly(Distance distance) {
        ClusteredVectors data = new ClusteredVectors(5, 4, 4, 1.0);
        try (VectorGraph graph = new VectorGraph(4, distance)) {
            for (int i = 0; i < 300; i++) {
                put(graph, i, data.next(), Set.of(i % 2 == 0 ? BOOKS : FILMS));
            }
            put(graph, 1_000, new float[] {Float.MAX_VALUE, 0, 0, 0}, Set.of(BOOKS));
            put(graph, 1_001, new float[] {1e30f, 1e30f, -1e30f, 0}, Set.of(FILMS));
            put(graph, 1_002, new float[] {1e-23f, 0, 1e-23f, 0}, Set.of(BOOKS));
            put(graph, 1_003, new float[] {-Float.MAX_VALUE, Float.MAX_VALUE, 0, 1}, Set.of());
            List<float[]> queries = List.of(data.next(), new float[] {1e-23f, 2e-23f, 0, 0},
                    new float[] {1e30f, 0, 0, 0}, new float[] {Float.MAX_VALUE, 1, -1, 0},
                    new float[] {-1e-30f, 0, 0, 1e-30f});
            for (float[] query : queries) {
                assertEquals(exact(distance, query, 10, Set.of()),
                        graph.search(query, 10, Set.of()));
                assertEquals(exact(distance, query, 10, Set.of(BOOKS)),
                        graph.search(query, 10, Set.of(BOOKS)));
            }
            assertEquals(304, graph.size());
        }
    }

    @Test
    void dynamoDbsMaximumOf4096DimensionsIsAccepted() {
        ClusteredVectors data = new ClusteredVectors(6, 4_096, 3, 0.5);
        try (VectorGraph graph = new VectorGraph(4_096, COSINE)) {
            for (int i = 0; i < 200; i++) {
                put(graph, i, data.next(), Set.of());
            }
            for (int q = 0; q < 5; q++) {
                float[] query = data.next();
                assertEquals(exact(COSINE, query, 10, Set.of()),
                        graph.search(query, 10, Set.of()));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new VectorGraph(4_097, COSINE));
        assertThrows(IllegalArgumentException.class, () -> new VectorGraph(0, COSINE));
        new VectorGraph(1, EUCLIDEAN).close();
    }

    @Test
    void vectorsOfOtherDimensionsNonFiniteElementsAndKBelowOneAreRefused() {
        try (VectorGraph graph = new VectorGraph(3, EUCLIDEAN)) {
            assertThrows(IllegalArgumentException.class,
                    () -> graph.put(key(1), new float[2], Set.of()));
            assertThrows(IllegalArgumentException.class,
                    () -> graph.put(key(1), new float[] {0, Float.NaN, 0}, Set.of()));
            assertThrows(IllegalArgumentException.class,
                    () -> graph.put(key(1), new float[] {Float.POSITIVE_INFINITY, 0, 0}, Set.of()));
            assertThrows(IllegalArgumentException.class,
                    () -> graph.search(new float[4], 1, Set.of()));
            assertThrows(IllegalArgumentException.class,
                    () -> graph.search(new float[3], 0, Set.of()));
            assertEquals(0, graph.size());
        }
    }

    @Test
    void compactKeepsEveryEntryAndItsAnswers() {
        ClusteredVectors data = new ClusteredVectors(11, 8, 4, 1.0);
        try (VectorGraph graph = new VectorGraph(8, EUCLIDEAN)) {
            for (int i = 0; i < 1_000; i++) {
                put(graph, i, data.next(), Set.of(i % 2 == 0 ? BOOKS : FILMS));
                if (i % 100 == 99) {
                    graph.size();
                }
            }
            graph.remove(key(7));
            entries.remove(7);
            float[] query = data.next();
            assertEquals(exact(EUCLIDEAN, query, 10, Set.of(FILMS)),
                    graph.search(query, 10, Set.of(FILMS)));
            graph.compact();
            assertEquals(999, graph.size());
            assertEquals(exact(EUCLIDEAN, query, 10, Set.of(FILMS)),
                    graph.search(query, 10, Set.of(FILMS)));
            assertEquals(exact(EUCLIDEAN, query, 10, Set.of()), graph.search(query, 10, Set.of()));
        }
    }

    @Test
    void memoryGrowsWithTheEntriesAndCountsTheirVectors() {
        ClusteredVectors data = new ClusteredVectors(8, 64, 4, 1.0);
        try (VectorGraph graph = new VectorGraph(64, EUCLIDEAN)) {
            long empty = graph.memoryBytes();
            for (int i = 0; i < 2_000; i++) {
                put(graph, i, data.next(), Set.of(BOOKS));
            }
            long buffered = graph.memoryBytes();
            graph.size();
            long flushed = graph.memoryBytes();
            assertTrue(buffered - empty >= 2_000L * 64 * 4, "buffered " + buffered);
            assertTrue(flushed - empty >= 2_000L * 64 * 4, "flushed " + flushed);
        }
    }

    @Test
    void searchesDuringPutsRemovesAndACompactionSeeNoError() throws Exception {
        ClusteredVectors data = new ClusteredVectors(9, 32, 8, 1.0);
        float[][] vectors = data.next(6_000);
        float[][] queries = data.next(50);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger searches = new AtomicInteger();
        try (VectorGraph graph = new VectorGraph(32, COSINE)) {
            List<Body> bodies = new ArrayList<>();
            bodies.add(() -> {
                try {
                    for (int i = 0; i < vectors.length; i++) {
                        graph.put(key(i), i % 500 == 0 ? new float[32] : vectors[i],
                                Set.of(i % 2 == 0 ? BOOKS : FILMS));
                        if (i % 10 == 9) {
                            graph.remove(key(i - 5));
                        }
                        if (i == vectors.length / 2) {
                            graph.compact();
                        }
                    }
                } finally {
                    writing.set(false);
                }
            });
            for (int r = 0; r < 2; r++) {
                int offset = r;
                bodies.add(() -> {
                    for (int q = offset; writing.get(); q++) {
                        List<Hit> hits = graph.search(queries[q % queries.length], 10,
                                q % 2 == 0 ? Set.of() : Set.of(BOOKS));
                        assertTrue(hits.size() <= 10);
                        assertEquals(hits.size(), new HashSet<>(numbers(hits)).size());
                        searches.incrementAndGet();
                    }
                });
            }
            assertEquals(List.of(), runTogether(bodies));
            assertTrue(searches.get() > 0);
            assertEquals(vectors.length - vectors.length / 10, graph.size());
        }
    }

    @Test
    void putsAndRemovesFromSeveralThreadsLeaveOneEntryPerKey() throws Exception {
        ClusteredVectors data = new ClusteredVectors(10, 8, 4, 1.0);
        float[][] vectors = data.next(1_000);
        try (VectorGraph graph = new VectorGraph(8, COSINE)) {
            List<Body> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                writers.add(() -> {
                    for (int round = 0; round < 3; round++) {
                        for (int i = 0; i < vectors.length; i++) {
                            // Keys move in and out of the graph: zero vectors stay out of it.
                            boolean zero = (i + round + writer) % 3 == 0;
                            graph.put(key(i), zero ? new float[8] : vectors[i], Set.of(BOOKS));
                            if (i % 7 == writer) {
                                graph.remove(key(i));
                                graph.put(key(i), vectors[i], Set.of(BOOKS));
                            }
                        }
                    }
                });
            }
            assertEquals(List.of(), runTogether(writers));
            assertEquals(vectors.length, graph.size());
            List<Hit> all = graph.search(new float[8], 2_000, Set.of(BOOKS));
            assertEquals(vectors.length, new HashSet<>(numbers(all)).size());
        }
    }

    /** A thread's work; what it throws, an assertion's failure too, is collected. */
    private interface Body {
        void run() throws Exception;
    }

    /** Runs the bodies in threads of their own, started together; returns what they threw. */
    private static List<Throwable> runTogether(List<Body> bodies) throws InterruptedException {
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (Body body : bodies) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    body.run();
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(2));
        }
        return List.copyOf(errors);
    }

    /**
     * Searches with a filter and checks what must hold whatever the graph's approximation: every
     * hit carries the required terms, its score is its DynamoDB score, the hits are in ranking
     * order, and there are k of them. Returns the recall against the exact answer.
     */
    private double filteredSearch(VectorGraph graph, float[] query, Set<String> required) {
        Distance distance = graph.distance();
        List<Hit> hits = graph.search(query, 10, required);
        assertEquals(10, hits.size());
        for (Hit hit : hits) {
            Entry entry = entries.get(ClusteredVectors.number(hit.key()));
            assertTrue(entry.terms().containsAll(required), hit + " lacks " + required);
            assertEquals(VectorScores.score(distance, query, entry.vector()), hit.score());
        }
        List<Hit> ranked = new ArrayList<>(hits);
        ranked.sort(VectorScores.ranking(distance));
        assertEquals(ranked, hits);
        return ClusteredVectors.recall(exact(distance, query, 10, required), hits);
    }

    private void put(VectorGraph graph, int number, float[] vector, Set<String> terms) {
        entries.put(number, new Entry(vector, terms));
        graph.put(key(number), vector, terms);
    }

    /** The exact answer over what the test put: the best k carrying every required term. */
    private List<Hit> exact(Distance distance, float[] query, int k, Collection<String> required) {
        List<Hit> hits = new ArrayList<>();
        entries.forEach((number, entry) -> {
            if (entry.terms().containsAll(required)) {
                hits.add(new Hit(key(number), VectorScores.score(distance, query, entry.vector())));
            }
        });
        hits.sort(VectorScores.ranking(distance));
        return hits.subList(0, Math.min(k, hits.size()));
    }

    private static List<Integer> numbers(List<Hit> hits) {
        return hits.stream().map(hit -> ClusteredVectors.number(hit.key())).toList();
    }
}
