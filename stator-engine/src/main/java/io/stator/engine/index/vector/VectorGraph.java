package io.stator.engine.index.vector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The approximate-nearest-neighbour accelerator of one vector index: an HNSW graph over the
 * index's entries, from Apache Lucene, answering "the k entries nearest this vector that carry
 * these terms". The entries' truth is the engine's storage; this is a derived structure, held in
 * memory, rebuilt from the stored entries when lost, and the exact search over the stored
 * entries remains the answer wherever the graph is not wanted.
 *
 * <p>Why Lucene: its HNSW is maintained, tested at scale and fast (SIMD with
 * {@code --add-modules jdk.incubator.vector}); and its index solves the parts a bare graph
 * leaves open: replacing and deleting an entry by key ({@code updateDocument} and
 * {@code deleteDocuments} on the key's term), searches that see a consistent snapshot while
 * writes go on (near-real-time readers), and filters applied inside the graph search.
 *
 * <p>Layout: one Lucene document per entry in a {@link ByteBuffersDirectory} (the heap): the
 * vector ({@link KnnFloatVectorField}), the key (an indexed term, to replace and delete by, and
 * a binary doc value, to read back) and one indexed term per filter term the entry carries.
 * Graphs: M {@value #MAX_CONNECTIONS}, beam width {@value #BEAM_WIDTH} (Lucene's defaults), float
 * vectors, not quantized, up to {@value #MAX_DIMENSIONS} dimensions ({@link GraphCodec}); with
 * {@value #DEFAULT_CANDIDATES} candidates a search reaches recall@10 above 0.95 on clustered data
 * of 100,000 vectors.
 *
 * <p>Distances: EUCLIDEAN is Lucene's EUCLIDEAN; DOT_PRODUCT, DynamoDB's raw inner product over
 * vectors of any length, is Lucene's MAXIMUM_INNER_PRODUCT (its DOT_PRODUCT assumes unit
 * vectors); COSINE is Lucene's COSINE, which keeps the vectors as given.
 *
 * <p>Scores: Lucene ranks by similarities of its own, computed in f32 and transformed
 * ({@code 1/(1+d²)}, {@code dot+1}, ...), so the graph only proposes candidates: the search asks
 * it for {@code max(k, candidates)} of them, reads their vectors back from the same snapshot,
 * scores each exactly as DynamoDB does ({@link VectorScores}) and keeps the best {@code k}, in
 * {@link VectorScores#ranking} order (equal scores by key). So every score returned is exact;
 * only the choice of candidates is approximate. Lucene's f32 similarities also limit what the
 * graph can tell apart: distances below about {@code 2e-4}, or inner products below about
 * {@code 1e-7}, all look alike to it (an offset of 1 in f32), and data at such scales is ranked
 * by the graph no better than by chance, though scored exactly.
 *
 * <p>Entries the graph cannot rank: a vector whose squared magnitude exceeds
 * {@value #GRAPH_MAX_SQUARED_NORM} (its f32 similarities would overflow), or under COSINE one
 * below {@value #COSINE_MIN_SQUARED_NORM} (a zero vector, which has no direction, and vectors
 * whose f32 magnitude would underflow), is kept out of the graph in a side map and scored
 * exactly on every search (a zero vector scores 1.0 under COSINE). The map is meant to stay
 * small; real embeddings never land there. On the query's side, COSINE and DOT_PRODUCT rank by
 * the query's direction only, so the graph is given the query scaled to unit length; a zero
 * query (every entry ties), or a EUCLIDEAN query beyond the f32 range, is answered by an exact
 * scan of the entries ({@link ExactTopK}).
 *
 * <p>Filters: the required terms become a conjunction of term queries given to Lucene's
 * {@link KnnFloatVectorQuery} as its filter, which applies it during the graph search and falls
 * back to an exact search over the matching entries when the filter is selective, so an entry
 * that matches is never lost to filtering after the fact: a filter matching 3 entries of 10,000
 * returns those 3.
 *
 * <p>Concurrency: the engine's index propagator is expected to put and remove from one thread,
 * and request threads to search concurrently; puts and removes from several threads are safe too
 * (Lucene's writer is thread-safe, and a key's moves in and out of the side map are serialized
 * by a lock striped by key). A search sees every put and remove that returned before it began:
 * it refreshes the snapshot first when a write has happened since the last refresh (a refresh
 * turns the writer's buffer into a small segment, which Lucene's merges fold in the background).
 * Every segment is a graph of its own that a search walks: after a bulk build, {@link #compact}
 * merges them into one. {@link #close} is for when no search is running any more.
 *
 * <p>Failures: the index lives in the heap, so Lucene's I/O cannot fail, and a failure of the
 * writer (its memory exhausted) closes it: the graph is then unusable and its owner builds a new
 * one from the stored entries.
 */
public final class VectorGraph implements AutoCloseable {

    /** DynamoDB's maximum of a vector index's Dimensions (vector-search.md §2.4). */
    public static final int MAX_DIMENSIONS = 4096;

    /**
     * Candidates asked of the graph per search unless set otherwise. With 100, recall@10 was
     * 0.94 on one graph of 100,000 clustered vectors (768 dimensions, and 128 with clusters
     * overlapping more); with 200 it was 0.98 and 0.96, at about 60% of the queries a second
     * ({@code VectorGraphBenchmark}). A wider beam at construction (200) did not help.
     */
    public static final int DEFAULT_CANDIDATES = 200;

    /** HNSW's M: the neighbours of a node per layer (twice as many on the bottom layer). */
    static final int MAX_CONNECTIONS = 16;

    /** HNSW's beam width at construction: the candidates considered when linking a node. */
    static final int BEAM_WIDTH = 100;

    /**
     * The largest squared magnitude the graph holds: with both vectors within it, Lucene's f32
     * similarities (squared distances up to {@code 4e36}, inner products up to {@code 1e36}) stay
     * finite and normal.
     */
    static final double GRAPH_MAX_SQUARED_NORM = 1e36;

    /**
     * The smallest squared magnitude the graph holds under COSINE: Lucene's f32 magnitude of such
     * a vector is a normal number, never zero.
     */
    static final double COSINE_MIN_SQUARED_NORM = 1e-30;

    /**
     * The writer's buffer, where entries wait for the next refresh or flush. A larger one makes
     * fewer segments while an index is built in bulk, and a search walks each segment's graph:
     * 50,000 vectors of 768 dimensions made 6 segments with 32 MB and 2 with 128 MB, built as
     * fast, the latter answering about 3 times the queries a second. The buffer holds the
     * entries themselves, not a copy of what the segments hold; a segment being flushed stands
     * beside it for a moment.
     */
    private static final double WRITER_BUFFER_MB = 128;

    private static final int LOCK_STRIPES = 64;

    private static final String VECTOR = "vector";
    private static final String KEY = "key";
    private static final String TERM = "term";

    private final int dimensions;
    private final Distance distance;
    private final VectorSimilarityFunction similarity;
    private final ByteBuffersDirectory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    /** Entries the graph cannot rank (see the class comment), by key. */
    private final Map<EntryKey, OffGraph> offGraph = new ConcurrentHashMap<>();
    private final Object[] stripes = new Object[LOCK_STRIPES];
    /** Changes that have returned: puts, removes, compactions. */
    private final AtomicLong changes = new AtomicLong();
    /** Of those, how many the searchers' current snapshot is known to show. */
    private final AtomicLong shown = new AtomicLong();
    private volatile int candidates = DEFAULT_CANDIDATES;

    /** A hit of a search: an entry's key and its DynamoDB score. */
    public record Hit(byte[] key, double score) {

        @Override
        public boolean equals(Object other) {
            return other instanceof Hit hit
                    && Double.compare(score, hit.score) == 0 && Arrays.equals(key, hit.key);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(key) * 31 + Double.hashCode(score);
        }

        @Override
        public String toString() {
            return "Hit[" + HexFormat.of().formatHex(key) + ", " + score + "]";
        }
    }

    /** An entry kept out of the graph: its vector as put, and its terms. */
    private record OffGraph(float[] vector, Set<String> terms) {
    }

    /** An entry's key as a map key: its bytes compared by content. The array is never changed. */
    private record EntryKey(byte[] bytes) {

        @Override
        public boolean equals(Object other) {
            return other instanceof EntryKey key && Arrays.equals(bytes, key.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** A graph for vectors of {@code dimensions} (1 to 4,096) under {@code distance}. */
    public VectorGraph(int dimensions, Distance distance) {
        if (dimensions < 1 || dimensions > MAX_DIMENSIONS) {
            throw new IllegalArgumentException(
                    "dimensions must be 1 to " + MAX_DIMENSIONS + ": " + dimensions);
        }
        this.dimensions = dimensions;
        this.distance = Objects.requireNonNull(distance, "distance");
        this.similarity = switch (distance) {
            case COSINE -> VectorSimilarityFunction.COSINE;
            case EUCLIDEAN -> VectorSimilarityFunction.EUCLIDEAN;
            case DOT_PRODUCT -> VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        };
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Object();
        }
        TieredMergePolicy merges = new TieredMergePolicy();
        merges.setNoCFSRatio(0.0);
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(new GraphCodec(MAX_CONNECTIONS, BEAM_WIDTH, MAX_DIMENSIONS))
                .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
                .setCommitOnClose(false)
                .setUseCompoundFile(false)
                .setMergePolicy(merges)
                .setRAMBufferSizeMB(WRITER_BUFFER_MB);
        this.directory = new ByteBuffersDirectory();
        try {
            this.writer = new IndexWriter(directory, config);
            this.searchers = new SearcherManager(writer, true, false, new UncachedSearchers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Adds the entry under {@code key}, or replaces it. {@code terms} are the filter terms the
     * entry carries (opaque to the graph, compared by their UTF-8 bytes; e.g.
     * {@code "h\u0000S:books"}), possibly none. The arrays are not kept.
     *
     * @throws IllegalArgumentException when the vector is not of the graph's dimensions, or an
     *         element is not finite
     */
    public void put(byte[] key, float[] vector, Collection<String> terms) {
        requireVector(vector, "vector");
        EntryKey entry = new EntryKey(key.clone());
        Term id = idTerm(entry);
        synchronized (stripe(entry)) {
            try {
                if (graphable(vector)) {
                    writer.updateDocument(id, document(entry, vector, terms));
                    offGraph.remove(entry);
                } else {
                    writer.deleteDocuments(id);
                    offGraph.put(entry, new OffGraph(vector.clone(), Set.copyOf(terms)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            changes.incrementAndGet();
        }
    }

    /** Removes the entry under {@code key}, if there is one. */
    public void remove(byte[] key) {
        EntryKey entry = new EntryKey(key.clone());
        synchronized (stripe(entry)) {
            try {
                writer.deleteDocuments(idTerm(entry));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            offGraph.remove(entry);
            changes.incrementAndGet();
        }
    }

    /**
     * The keys of (about) the {@code k} entries nearest {@code query} among those carrying every
     * one of {@code requiredTerms}, best first, each with its DynamoDB score; fewer when fewer
     * entries match.
     *
     * @throws IllegalArgumentException when the query is not of the graph's dimensions, an
     *         element is not finite, or {@code k} is below 1
     */
    public List<Hit> search(float[] query, int k, Collection<String> requiredTerms) {
        requireVector(query, "query");
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1: " + k);
        }
        Set<String> required = Set.copyOf(requiredTerms);
        Map<EntryKey, Hit> found = new HashMap<>();
        IndexSearcher searcher = currentSearcher();
        try {
            float[] probe = probe(query);
            Query filter = filter(required);
            List<Hit> fromGraph = probe == null
                    ? searcher.search(filter == null ? new MatchAllDocsQuery() : filter,
                            new ExactTopK(distance, query, k, VECTOR, KEY))
                    : nearest(searcher, query, probe, Math.max(k, candidates), filter);
            for (Hit hit : fromGraph) {
                found.put(new EntryKey(hit.key()), hit);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            release(searcher);
        }
        // A key moving in or out of the graph may show on both sides for a moment: the side
        // map, read live, is the newer.
        offGraph.forEach((key, entry) -> {
            if (entry.terms().containsAll(required)) {
                found.put(key, new Hit(key.bytes().clone(),
                        VectorScores.score(distance, query, entry.vector())));
            }
        });
        List<Hit> hits = new ArrayList<>(found.values());
        hits.sort(VectorScores.ranking(distance));
        return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
    }

    /**
     * Merges the index into one graph, and returns once it is done; puts, removes and searches
     * may go on meanwhile. A bulk build (a backfill) leaves a dozen segments, each a graph of its
     * own that every search walks; one graph answers several times as many queries a second.
     * Costs about a third of the build's time again (the merge starts from the largest graph).
     */
    public void compact() {
        try {
            writer.forceMerge(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        changes.incrementAndGet();
    }

    /**
     * How many candidates a search asks of the graph (at least its {@code k}): more raise recall
     * and cost time. {@value #DEFAULT_CANDIDATES} unless set.
     */
    public void setCandidates(int candidates) {
        if (candidates < 1) {
            throw new IllegalArgumentException("candidates must be at least 1: " + candidates);
        }
        this.candidates = candidates;
    }

    public int dimensions() {
        return dimensions;
    }

    public Distance distance() {
        return distance;
    }

    /** The number of entries, every put and remove that returned counted. */
    public int size() {
        IndexSearcher searcher = currentSearcher();
        try {
            return searcher.getIndexReader().numDocs() + offGraph.size();
        } finally {
            release(searcher);
        }
    }

    /**
     * An estimate of the heap the graph holds: the index's files (vectors, graphs, keys, terms),
     * the writer's buffer (the entries not yet in a segment, with their graph), and the side
     * map. Leaves out what a merge holds while it runs (the merged segment beside its sources).
     */
    public long memoryBytes() {
        long bytes = writer.ramBytesUsed();
        try {
            for (String file : directory.listAll()) {
                bytes += directory.fileLength(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Map.Entry<EntryKey, OffGraph> entry : offGraph.entrySet()) {
            bytes += 96 + entry.getKey().bytes().length + 16 + 4L * dimensions;
            for (String term : entry.getValue().terms()) {
                bytes += 56 + term.length();
            }
        }
        return bytes;
    }

    @Override
    public void close() {
        try {
            searchers.close();
            writer.rollback();
            directory.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The graph's candidates, scored exactly: at most {@code n} hits, in no order. */
    private List<Hit> nearest(IndexSearcher searcher, float[] query, float[] probe, int n,
            Query filter) throws IOException {
        Query candidates = new KnnFloatVectorQuery(VECTOR, probe, n, filter);
        ScoreDoc[] docs = searcher.search(candidates, n).scoreDocs;
        Arrays.sort(docs, (a, b) -> Integer.compare(a.doc, b.doc));
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        List<Hit> hits = new ArrayList<>(docs.length);
        int leaf = -1;
        SegmentEntries entries = null;
        for (ScoreDoc doc : docs) {
            int docLeaf = ReaderUtil.subIndex(doc.doc, leaves);
            if (docLeaf != leaf) {
                leaf = docLeaf;
                entries = SegmentEntries.of(leaves.get(leaf).reader(), VECTOR, KEY);
            }
            int segmentDoc = doc.doc - leaves.get(leaf).docBase;
            double score = VectorScores.score(distance, query, entries.vector(segmentDoc));
            hits.add(new Hit(entries.key(segmentDoc), score));
        }
        return hits;
    }

    /**
     * The query as the graph is given it, or null when the graph cannot rank for it. COSINE and
     * DOT_PRODUCT rank by the query's direction alone, so it is scaled to unit length (clear of
     * f32's limits at either end); EUCLIDEAN takes it as it is, within the graph's range.
     */
    private float[] probe(float[] query) {
        double squaredNorm = VectorScores.squaredNorm(query);
        if (distance == Distance.EUCLIDEAN) {
            return squaredNorm <= GRAPH_MAX_SQUARED_NORM ? query : null;
        }
        if (squaredNorm == 0) {
            return null;
        }
        double scale = 1 / Math.sqrt(squaredNorm);
        float[] unit = new float[query.length];
        for (int i = 0; i < query.length; i++) {
            unit[i] = (float) (query[i] * scale);
        }
        return unit;
    }

    private boolean graphable(float[] vector) {
        double squaredNorm = VectorScores.squaredNorm(vector);
        return squaredNorm <= GRAPH_MAX_SQUARED_NORM
                && (distance != Distance.COSINE || squaredNorm >= COSINE_MIN_SQUARED_NORM);
    }

    /** The entries carrying every required term: a conjunction of term queries; null for all. */
    private static Query filter(Set<String> required) {
        if (required.isEmpty()) {
            return null;
        }
        BooleanQuery.Builder all = new BooleanQuery.Builder();
        for (String term : required) {
            all.add(new TermQuery(new Term(TERM, term)), BooleanClause.Occur.FILTER);
        }
        return all.build();
    }

    private Document document(EntryKey key, float[] vector, Collection<String> terms) {
        Document document = new Document();
        document.add(new StringField(KEY, new BytesRef(key.bytes()), Field.Store.NO));
        document.add(new BinaryDocValuesField(KEY, new BytesRef(key.bytes())));
        document.add(new KnnFloatVectorField(VECTOR, vector, similarity));
        for (String term : terms) {
            document.add(new StringField(TERM, term, Field.Store.NO));
        }
        return document;
    }

    private static Term idTerm(EntryKey key) {
        return new Term(KEY, new BytesRef(key.bytes()));
    }

    private Object stripe(EntryKey key) {
        return stripes[Math.floorMod(key.hashCode(), stripes.length)];
    }

    private void requireVector(float[] vector, String what) {
        if (vector.length != dimensions) {
            throw new IllegalArgumentException(what + " of " + vector.length
                    + " dimensions for a graph of " + dimensions);
        }
        for (float element : vector) {
            if (!Float.isFinite(element)) {
                throw new IllegalArgumentException(
                        what + " with an element not finite: " + element);
            }
        }
    }

    /**
     * The searcher of a snapshot that shows every write returned before this call: refreshed
     * first when some write is not known to be shown. Released with {@link #release}.
     */
    private IndexSearcher currentSearcher() {
        long changed = changes.get();
        try {
            if (shown.get() < changed) {
                // Refreshes under Lucene's lock, so the snapshot is taken after this call began.
                searchers.maybeRefreshBlocking();
                shown.accumulateAndGet(changed, Math::max);
            }
            return searchers.acquire();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void release(IndexSearcher searcher) {
        try {
            searchers.release(searcher);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Searchers without Lucene's shared query cache: filters here are cheap conjunctions of
     * terms, and the cache's memory would be the JVM's, unaccounted to any graph.
     */
    private static final class UncachedSearchers extends SearcherFactory {
        @Override
        public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            return searcher;
        }
    }
}
