package io.stator.engine;

import io.stator.engine.index.IndexBuilds;
import io.stator.engine.index.IndexPropagator;
import io.stator.engine.item.ItemOperations;
import io.stator.engine.item.PageReader;
import io.stator.engine.item.Transactions;
import io.stator.engine.storage.Storage;
import io.stator.engine.table.Catalog;

/**
 * The database: the table catalog and the item operations, over one storage backend. It knows
 * nothing of HTTP or JSON; the server turns requests into calls on it.
 */
public final class Engine implements AutoCloseable {

    private final Storage storage;
    private final EngineConfig config;
    private final Catalog catalog;
    private final IndexPropagator propagator;
    private final ItemOperations items;
    private final IndexBuilds indexBuilds;
    private final PageReader pages;
    private final Transactions transactions;

    public Engine(Storage storage, EngineConfig config) {
        this.storage = storage;
        this.config = config;
        this.catalog = new Catalog(storage, config);
        this.propagator = new IndexPropagator(storage, catalog, config.clock(), config.gsiPropagationDelay());
        this.items = new ItemOperations(storage, propagator, catalog, config.itemCollectionLimitBytes());
        this.indexBuilds = new IndexBuilds(storage, catalog, items);
        this.pages = new PageReader(storage);
        this.transactions = new Transactions(items, config.clock());
        indexBuilds.resume();
    }

    public EngineConfig config() { return config; }

    public Catalog catalog() { return catalog; }

    public ItemOperations items() { return items; }

    /** TransactWriteItems and TransactGetItems. */
    public Transactions transactions() { return transactions; }

    /** Query and Scan. */
    public PageReader pages() { return pages; }

    /** Building and dropping global secondary indexes in the background. */
    public IndexBuilds indexBuilds() { return indexBuilds; }

    /** The propagation of changes to global secondary indexes. */
    public IndexPropagator indexPropagator() { return propagator; }

    @Override
    public void close() {
        indexBuilds.close();
        propagator.close();
        storage.close();
    }
}
