package io.stator.engine.index;

import io.stator.core.item.ItemCodec;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.index.vector.VectorGraph;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The HNSW graphs ({@link VectorGraph}) of the vector indexes large enough to want one: derived,
 * in memory, built in the background from the index's stored entries (the truth), and kept up
 * to date by the changes committed to those entries afterwards.
 *
 * <p><b>When.</b> An index of fewer than {@link #GRAPH_THRESHOLD} entries is searched exactly:
 * at that size ranking every entry costs less than a graph's upkeep, and is exact. The write that
 * takes an index past it, or the first search of a larger one (after a restart), starts its
 * graph's build; until the graph is ready, searches are answered exactly.
 *
 * <p><b>Keeping up.</b> Every change to a vector index's entries on one server's storage passes
 * through {@link IndexWrites} (the propagator's queue and the backfill's copies), whose callers
 * report it here once committed ({@link #committed}). A graph being built registers before it
 * takes its snapshot: a change reported meanwhile is applied to the graph at once and marks its
 * key, and the build's own copy of a marked key (older or the same) is skipped, so the graph ends
 * with every entry's latest state whatever the interleaving. A graph may briefly lag its entries
 * (a search is eventually consistent, as DynamoDB's is) and never shows an entry that is gone:
 * the search reads each candidate's entry back from storage and scores it from there.
 *
 * <p><b>Shared storage.</b> Several servers write one Cassandra cluster, and one server's graph
 * would miss the others' writes: there, every search is exact, over the entries the cluster
 * holds (docs/vector-search.md).
 */
public final class VectorGraphs implements AutoCloseable {

    /** The entries from which an index is searched through a graph rather than exactly. */
    public static final long GRAPH_THRESHOLD = 5_000;

    private final Storage storage;
    private final Deployment deployment;
    private final Catalog catalog;
    private final boolean enabled;
    private final Map<Key, Slot> slots = new ConcurrentHashMap<>();
    /** The indexes whose graph was found too large for the heap (said once). */
    private final Set<Key> tooLarge = ConcurrentHashMap.newKeySet();
    /** New entries seen per index without a graph (see {@link #committed}). */
    private final Map<Key, java.util.concurrent.atomic.AtomicLong> newEntries = new ConcurrentHashMap<>();
    private final ExecutorService builder = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "stator-vector-graphs");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    private record Key(long tableId, int indexId) {}

    /** One index's graph: being built (with the keys changed since it began), then ready. */
    private static final class Slot {
        final VectorGraph graph;
        final IndexDefinition index;
        volatile boolean ready;
        /** Keys changed while the build runs; null once it has ended. */
        Set<ByteBuffer> changedDuringBuild = new HashSet<>();

        Slot(IndexDefinition index) {
            this.index = index;
            this.graph = new VectorGraph(index.vector().dimensions(), index.vector().distanceFunction());
        }
    }

    public VectorGraphs(Storage storage, Deployment deployment, Catalog catalog) {
        this.storage = storage;
        this.deployment = deployment;
        this.catalog = catalog;
        this.enabled = deployment.keepsVectorGraphs();
    }

    /**
     * The index's graph when it is ready to be searched; otherwise null, and the build is started
     * if the index is large enough to want one.
     */
    public VectorGraph graph(TableDefinition table, IndexDefinition index) {
        if (!enabled) return null;
        Key key = new Key(table.id(), index.id());
        Slot slot = slots.get(key);
        if (slot != null) return slot.ready ? slot.graph : null;
        long entries = catalog.counters().indexItemCount(table.id(), index.id());
        if (entries < GRAPH_THRESHOLD || !fits(table, index, entries)) return null;
        Slot created = new Slot(index);
        if (slots.putIfAbsent(key, created) != null) {
            created.graph.close();
            return null;
        }
        try {
            builder.execute(() -> build(table.id(), created));
        } catch (RejectedExecutionException e) {
            slots.remove(key, created); // closing
        }
        return null;
    }

    /**
     * Whether a graph of that many entries fits in the heap beside the graphs there are: its
     * estimate (twice its vectors and links, for the writer's buffer beside the segments it
     * writes) within half of the heap, with the others'. A graph that does not fit is not built
     * (the index is searched exactly; said once): the server's --memory gives the heap a quarter.
     */
    private boolean fits(TableDefinition table, IndexDefinition index, long entries) {
        long estimate = 2 * entries * (4L * index.vector().dimensions() + BYTES_PER_ENTRY);
        long used = 0;
        for (Slot slot : slots.values()) used += slot.graph.memoryBytes();
        if (used + estimate <= Runtime.getRuntime().maxMemory() / 2) return true;
        if (tooLarge.add(new Key(table.id(), index.id()))) {
            System.err.printf("stator: vector index %s of %s (%d entries) is searched exactly: its graph (about %d MB) "
                    + "would not fit in the heap (%d MB, %d MB in graphs); give the server more --memory%n", index.name(),
                    table.name(), entries, estimate >> 20, Runtime.getRuntime().maxMemory() >> 20, used >> 20);
        }
        return false;
    }

    /** A graph entry's bytes beside its vector: its links, key, terms and Lucene's bookkeeping. */
    private static final long BYTES_PER_ENTRY = 400;

    /** Whether the index is searched through its graph now (for tests and metrics). */
    public boolean ready(long tableId, int indexId) {
        Slot slot = slots.get(new Key(tableId, indexId));
        return slot != null && slot.ready;
    }

    private void build(long tableId, Slot slot) {
        long started = System.nanoTime();
        int copied = 0;
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, Keyspaces.ITEMS, KeyLayout.indexPrefix(tableId, slot.index.id()),
                     KeyLayout.indexUpperBound(tableId, slot.index.id()), false)) {
            while (cursor.next()) {
                if (closed) return;
                byte[] key = cursor.key();
                Map<String, AttributeValue> entry = ItemCodec.decode(cursor.value());
                synchronized (slot) {
                    if (slot.changedDuringBuild.contains(ByteBuffer.wrap(key))) continue;
                    put(slot, key, entry);
                }
                copied++;
            }
        } catch (RuntimeException e) {
            // Dropped meanwhile (its graph closed under the build), or failed: searched exactly.
            if (slots.remove(new Key(tableId, slot.index.id()), slot)) {
                System.err.println("stator: building the graph of vector index " + slot.index.name() + " failed: " + e);
                slot.graph.close();
            }
            return;
        }
        slot.graph.compact(); // one graph rather than the bulk build's segments: searched several times faster
        synchronized (slot) {
            slot.changedDuringBuild = null;
            slot.ready = true;
        }
        System.err.printf("stator: vector index %s: graph of %d entries built in %d ms%n", slot.index.name(), copied,
                (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * A change committed to a vector index's entry: removed from {@code oldKey} (if any), written at
     * {@code newKey} with {@code newValue} (if any).
     */
    void committed(long tableId, int indexId, byte[] oldKey, byte[] newKey, byte[] newValue) {
        Slot slot = slots.get(new Key(tableId, indexId));
        if (slot == null) {
            // An index growing past the threshold gets its graph now rather than at its next search.
            // (Its count is read every 256th new entry: a read of the counters' store each time would cost more.)
            if (newKey != null && oldKey == null
                    && newEntries.computeIfAbsent(new Key(tableId, indexId), k -> new java.util.concurrent.atomic.AtomicLong())
                            .incrementAndGet() % 256 == 0
                    && catalog.counters().indexItemCount(tableId, indexId) >= GRAPH_THRESHOLD) {
                TableDefinition table = catalog.findById(tableId);
                IndexDefinition index = table == null ? null : table.indexById(indexId);
                if (index != null && index.isVector()) graph(table, index);
            }
            return;
        }
        synchronized (slot) {
            if (slot.changedDuringBuild != null) {
                if (oldKey != null) slot.changedDuringBuild.add(ByteBuffer.wrap(oldKey));
                if (newKey != null) slot.changedDuringBuild.add(ByteBuffer.wrap(newKey));
            }
            if (oldKey != null && (newKey == null || !java.util.Arrays.equals(oldKey, newKey))) slot.graph.remove(oldKey);
            if (newKey != null) put(slot, newKey, ItemCodec.decode(newValue));
        }
    }

    /** The index (or its whole table) is gone: its graph goes too. */
    void dropped(long tableId, int indexId) {
        newEntries.remove(new Key(tableId, indexId));
        Slot slot = slots.remove(new Key(tableId, indexId));
        if (slot != null) slot.graph.close();
    }

    private static void put(Slot slot, byte[] key, Map<String, AttributeValue> entry) {
        IndexDefinition index = slot.index;
        if (!(entry.get(index.vector().attribute()) instanceof AttributeValue.B stored)) return;
        slot.graph.put(key, VectorEntries.vectorOf(stored), terms(index, entry));
    }

    /** The filter terms an entry carries: its HASH value and each INLINE_FILTER value it holds. */
    static List<String> terms(IndexDefinition index, Map<String, AttributeValue> entry) {
        List<String> terms = new ArrayList<>(1 + index.vector().inlineFilters().size());
        for (KeyAttribute k : index.partitionKey()) {
            AttributeValue v = entry.get(k.name());
            if (v != null) terms.add(term(k.name(), v));
        }
        for (KeyAttribute k : index.vector().inlineFilters()) {
            AttributeValue v = entry.get(k.name());
            if (v != null && v.type() == k.type()) terms.add(term(k.name(), v));
        }
        return terms;
    }

    /** The term of one attribute's value: numbers by value, so that "1.0" and "1" are one term. */
    public static String term(String attribute, AttributeValue v) {
        String value = switch (v) {
            case AttributeValue.S s -> "S" + s.value();
            case AttributeValue.N n -> "N" + n.value().bigDecimal().stripTrailingZeros().toPlainString();
            case AttributeValue.B b -> "B" + Base64.getEncoder().encodeToString(b.value());
            default -> v.type().name() + v;
        };
        return attribute + '\u0000' + value;
    }

    @Override
    public void close() {
        closed = true;
        builder.shutdownNow();
        try {
            builder.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Slot slot : slots.values()) slot.graph.close();
        slots.clear();
    }
}
