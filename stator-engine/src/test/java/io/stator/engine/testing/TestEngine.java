package io.stator.engine.testing;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.Engine;
import io.stator.engine.EngineConfig;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.index.PropagationDelay;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableSpecs.IndexSpec;
import io.stator.engine.table.TableSpecs.KeyElement;
import io.stator.engine.table.TableSpecs.Projection;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An engine on real RocksDB in a directory of the test's, with a fixed clock, and the small
 * helpers engine tests share: tables made from specs, items written in DynamoDB's terms.
 */
public final class TestEngine implements AutoCloseable {

    private final RocksStorage storage;
    private final Engine engine;
    private final FaultyStorage faults;

    private TestEngine(RocksStorage storage, Engine engine, FaultyStorage faults) {
        this.storage = storage;
        this.engine = engine;
        this.faults = faults;
    }

    public static TestEngine open(Path directory) {
        return open(directory, new CapacityMeter());
    }

    public static TestEngine open(Path directory, CapacityMeter meter) {
        return open(directory, meter, Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC));
    }

    /** An engine whose time is {@code clock}'s (Time to Live's tests move it). */
    public static TestEngine open(Path directory, CapacityMeter meter, Clock clock) {
        EngineConfig config = config(clock);
        RocksStorage storage = RocksStorage.open(directory, Keyspaces.ALL);
        FaultyStorage faults = new FaultyStorage(storage);
        return new TestEngine(storage, new Engine(faults, config, meter), faults);
    }

    /** The configuration test engines run with: no propagation delays. */
    public static EngineConfig config(Clock clock) {
        return new EngineConfig(EngineConfig.DEFAULT_REGION, EngineConfig.DEFAULT_ACCOUNT_ID, clock,
                PropagationDelay.NONE, EngineConfig.DEFAULT_ITEM_COLLECTION_LIMIT_BYTES, PropagationDelay.NONE);
    }

    public Engine engine() { return engine; }

    /** The storage under the engine, to look at what a commit wrote. */
    public RocksStorage storage() { return storage; }

    /** Makes the engine's writes fail as on a full disk, and heals them. */
    public FaultyStorage faults() { return faults; }

    /**
     * An on-demand table keyed by {@code pk} (S) and, when {@code sortKey}, {@code sk} (N), with
     * the indexes given (global ones keyed by {@code gpk} (S) and {@code gsk} (N), local ones
     * by {@code lsk} (N)).
     */
    public TableDefinition createTable(String name, boolean sortKey, List<IndexSpec> globalIndexes,
                                       List<IndexSpec> localIndexes) {
        return createTable(engine, name, sortKey, globalIndexes, localIndexes);
    }

    /** As {@link #createTable(String, boolean, List, List)}, on any engine. */
    public static TableDefinition createTable(Engine engine, String name, boolean sortKey, List<IndexSpec> globalIndexes,
                                              List<IndexSpec> localIndexes) {
        List<AttributeDefinition> definitions = new ArrayList<>();
        definitions.add(new AttributeDefinition("pk", AttributeValue.Type.S));
        List<KeyElement> key = new ArrayList<>(List.of(new KeyElement("pk", "HASH")));
        if (sortKey) {
            definitions.add(new AttributeDefinition("sk", AttributeValue.Type.N));
            key.add(new KeyElement("sk", "RANGE"));
        }
        if (globalIndexes != null) {
            definitions.add(new AttributeDefinition("gpk", AttributeValue.Type.S));
            definitions.add(new AttributeDefinition("gsk", AttributeValue.Type.N));
        }
        if (localIndexes != null) definitions.add(new AttributeDefinition("lsk", AttributeValue.Type.N));
        return engine.tables().create(new CreateTableSpec(name, definitions, key, "PAY_PER_REQUEST", null,
                localIndexes, globalIndexes, null, null, null, null, null, null, null, null, null));
    }

    /** A global index on {@code gpk} and {@code gsk} projecting everything. */
    public static IndexSpec globalIndex(String name) {
        return new IndexSpec(name, List.of(new KeyElement("gpk", "HASH"), new KeyElement("gsk", "RANGE")),
                new Projection("ALL", null), null);
    }

    /** A local index on {@code pk} and {@code lsk} projecting its keys only. */
    public static IndexSpec localIndex(String name) {
        return new IndexSpec(name, List.of(new KeyElement("pk", "HASH"), new KeyElement("lsk", "RANGE")),
                new Projection("KEYS_ONLY", null), null);
    }

    /** An item from names and values: strings stay strings, numbers become N. */
    public static Map<String, AttributeValue> item(Object... namesAndValues) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Object v = namesAndValues[i + 1];
            item.put((String) namesAndValues[i], v instanceof Number n ? new AttributeValue.N(DynamoNumber.parse(n.toString()))
                    : v instanceof AttributeValue a ? a : new AttributeValue.S((String) v));
        }
        return item;
    }

    /** Waits until every change queued for global indexes has been applied. */
    public void awaitGlobalIndexes() throws InterruptedException {
        engine.indexPropagator().awaitIdle(30_000);
    }

    @Override
    public void close() {
        engine.close();
    }
}
