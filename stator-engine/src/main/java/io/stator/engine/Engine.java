package io.stator.engine;

import io.stator.engine.advisor.ContributorInsights;
import io.stator.engine.advisor.Observations;
import io.stator.engine.advisor.PartitionMap;
import io.stator.engine.backup.Backups;
import io.stator.engine.backup.PointInTimeRecovery;
import io.stator.engine.backup.Restores;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.Throughput;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.index.IndexBuilds;
import io.stator.engine.index.IndexPropagator;
import io.stator.engine.index.VectorGraphs;
import io.stator.engine.jobs.JobLeases;
import io.stator.engine.kinesis.KinesisDestinations;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.lock.ItemLocks;
import io.stator.engine.lock.StripedItemLocks;
import io.stator.engine.read.Reads;
import io.stator.engine.replication.GlobalTables;
import io.stator.engine.replication.ReplicaSettings;
import io.stator.engine.table.UpdateTableSpec;
import io.stator.engine.streams.Streams;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableCounters;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.ttl.Expirer;
import io.stator.engine.transfer.ExportSink;
import io.stator.engine.transfer.Exports;
import io.stator.engine.transfer.ImportSource;
import io.stator.engine.transfer.Imports;
import io.stator.engine.ttl.TimeToLive;
import io.stator.engine.write.TransactionTokens;
import io.stator.engine.write.Transactions;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Storage;
import java.util.ArrayList;
import java.util.List;

/**
 * The database, over one storage backend: every DynamoDB semantic lives below it, and it knows
 * nothing of HTTP or JSON. Front ends (the JSON API's actions, later PartiQL) call its
 * operations: {@link #tables()} for the table operations, {@link #items()} for the item
 * operations. Every item write passes the one {@link WritePipeline}, every read runs as a
 * {@link io.stator.engine.read.ReadPlan}, every operation is admitted and billed by the one
 * {@link CapacityMeter}, and every item change is handed to the {@link ChangeLog}. Time to Live's
 * {@link Expirer} deletes expired items in the background, through the same pipeline.
 */
public final class Engine implements AutoCloseable {

    private final Storage storage;
    /** One server on its own storage, or several sharing a store: chosen here, once. */
    private final Deployment deployment;
    private final EngineConfig config;
    private final Catalog catalog;
    private final ChangeLog changeLog = new ChangeLog();
    private final CapacityMeter meter;
    private final IndexPropagator propagator;
    private final VectorGraphs vectorGraphs;
    private final IndexBuilds indexBuilds;
    private final Expirer expirer;
    private final TimeToLive timeToLive;
    private final Streams streams;
    private final JobRunner jobs;
    /** The front end's imports and exports, once made: the cluster's sweep resubmits their jobs. */
    private volatile Imports imports;
    private volatile Exports exports;
    private final WritePipeline pipeline;
    private final Backups backups;
    private final PointInTimeRecovery recovery;
    private final Restores restores;
    private final Tables tables;
    private final Items items;
    private final Observations observations;
    private final ContributorInsights contributorInsights;
    private final GlobalTables globalTables;
    private final KinesisDestinations kinesis;

    /** An engine that admits operations by DynamoDB's throughput rules ({@link Throughput}). */
    public Engine(Storage storage, EngineConfig config) {
        this(storage, config, new CapacityMeter(new Throughput(config.clock(), config.throughput(),
                new TableArns(config.region(), config.accountId()), new StoredThroughput(new TableCounters(storage, Deployment.of(storage))))));
    }

    /**
     * Sizes from the stored counters (DescribeTable's TableSizeBytes and IndexSizeBytes), and the
     * partitions kept beside them.
     */
    private record StoredThroughput(TableCounters counters) implements Throughput.Stored {
        @Override
        public long bytes(TableDefinition table, IndexDefinition index) {
            return index == null ? counters.sizeBytes(table.id()) : counters.indexSizeBytes(table.id(), index.id());
        }

        @Override
        public long[] partitionStarts(TableDefinition table, IndexDefinition index) {
            return counters.partitionStarts(table.id(), index == null ? 0 : index.id());
        }

        @Override
        public void savePartitionStarts(TableDefinition table, IndexDefinition index, long[] starts) {
            counters.savePartitionStarts(table.id(), index == null ? 0 : index.id(), starts);
        }
    }

    /** An engine whose operations are admitted and billed by {@code meter}. */
    public Engine(Storage storage, EngineConfig config, CapacityMeter meter) {
        this.storage = storage;
        this.deployment = Deployment.of(storage);
        JobLeases leases = deployment.jobLeaseMillis() > 0 ? new JobLeases(storage, deployment.jobLeaseMillis()) : null;
        this.jobs = leases != null ? new JobRunner(leases) : new JobRunner();
        this.config = config;
        this.meter = meter;
        this.catalog = new Catalog(storage, deployment, new TableArns(config.region(), config.accountId()), config.clock());
        catalog.onChange(meter::tableChanged);
        PartitionMap partitions = meter.admission() instanceof Throughput throughput
                ? (table, index) -> throughput.partitionStarts(table, index == null ? null : index.name())
                : PartitionMap.ONE;
        this.observations = new Observations(config.clock(), partitions);
        Deployment.ObservedElsewhere observedElsewhere = deployment.observedElsewhere();
        if (observedElsewhere != null) {
            observations.shareWith((tableId, fromMinute) -> observedElsewhere.rows(tableId, fromMinute).stream()
                    .map(r -> new Observations.Published(r.tableId(), r.minute(), r.part(), r.figures())).toList());
        }
        this.contributorInsights = new ContributorInsights(catalog, config.clock());
        ItemLocks locks = new StripedItemLocks();
        this.vectorGraphs = new VectorGraphs(storage, deployment, catalog);
        this.propagator = new IndexPropagator(storage, catalog, config.clock(), config.gsiPropagationDelay(), vectorGraphs);
        this.indexBuilds = new IndexBuilds(storage, deployment, catalog, locks, meter, propagator, vectorGraphs);
        this.pipeline = new WritePipeline(storage, deployment, catalog, locks, propagator, meter, changeLog,
                config.itemCollectionLimitBytes(), observations, config.writeIsolation());
        Transactions transactions = new Transactions(pipeline, new TransactionTokens(storage, config.clock()), meter);
        this.streams = new Streams(storage, deployment, catalog, changeLog, config.clock(), config.streams(),
                table -> partitions.starts(table, null));
        if (meter.admission() instanceof Throughput throughput) throughput.onTableSplit(streams::partitionsChanged);
        // Before the expirer, a writer from its start: a table's destinations keep every change.
        this.kinesis = new KinesisDestinations(storage, catalog, changeLog, config.clock(), config.region(),
                config.accountId(), leases, deployment.catalogSettleMillis());
        this.tables = new Tables(catalog, indexBuilds, streams, meter, observations, config.clock(),
                config.tableCreationDelay());
        this.items = new Items(storage, pipeline, transactions, new Reads(storage, deployment), locks, meter, observations,
                vectorGraphs);
        // Before the expirer, the first writer: a backup a stopped server was creating keeps the
        // items it changes as they were (backup/BeforeImages).
        JobRunner.Lane backupWork = jobs.lane("backups", false);
        this.backups = new Backups(storage, catalog, changeLog, locks, config.clock(), backupWork);
        this.recovery = new PointInTimeRecovery(storage, catalog, changeLog, locks, config.clock(), backupWork,
                config.pitrRestorableLag());
        this.restores = new Restores(storage, catalog, pipeline, config.clock(), backups, recovery, backupWork);
        this.expirer = new Expirer(storage, deployment, catalog, changeLog, locks, pipeline, config.clock(), config.ttlDelay());
        this.timeToLive = new TimeToLive(catalog, config.clock(), expirer);
        this.globalTables = new GlobalTables(storage, catalog, streams, pipeline, changeLog, locks, config.clock(),
                config.region(), tables::delete, new ReplicaSettings() {
                    @Override
                    public void updateTimeToLive(String table, boolean enabled, String attributeName) {
                        timeToLive.update(table, enabled, attributeName);
                    }

                    @Override
                    public void updateTable(UpdateTableSpec spec) {
                        tables.update(spec);
                    }
                }, leases, deployment.catalogSettleMillis());
        indexBuilds.follow();
        backups.resume();
        recovery.resume();
        restores.resume();
        deployment.startUpkeep(new Deployment.Upkeep() {
            @Override
            public void rereadCatalog() {
                catalog.refresh();
                streams.refreshShared();
                recovery.follow();
                indexBuilds.follow();
                backups.follow();
            }

            @Override
            public void resumeJobs() {
                backups.resumeCopies();
                restores.resume();
                recovery.resumeBaseCopies();
                Imports i = imports;
                if (i != null) i.sweep();
                Exports e = exports;
                if (e != null) e.sweep();
            }

            @Override
            public boolean recount(long tableId) {
                TableDefinition table = catalog.findById(tableId);
                if (table == null) return false;
                catalog.counters().recount(table);
                return true;
            }

            @Override
            public List<Deployment.Consumption> consumedHere() {
                List<Deployment.Consumption> out = new ArrayList<>();
                if (meter.admission() instanceof Throughput throughput) {
                    throughput.consumedHere((table, index, read, write, starts, reads, writes) ->
                            out.add(new Deployment.Consumption(table, index, read, write, starts, reads, writes)));
                }
                return out;
            }

            @Override
            public List<Deployment.ObservedRow> observedHere() {
                return observations.publishable().stream()
                        .map(p -> new Deployment.ObservedRow(p.tableId(), p.minute(), p.part(), p.figures())).toList();
            }

            @Override
            public long observedMinute() {
                return Math.floorDiv(config.clock().millis(), 60_000);
            }

            @Override
            public boolean consumedElsewhere(Deployment.Consumption units) {
                TableDefinition table = catalog.findById(units.tableId());
                if (table == null) return false;
                if (meter.admission() instanceof Throughput throughput) {
                    throughput.consumedElsewhere(table, units.indexId(), units.read(), units.write(),
                            units.partitionStarts(), units.partitionReads(), units.partitionWrites());
                }
                return true;
            }
        });
    }

    public EngineConfig config() { return config; }

    /** The tables that exist (lookups, names, counters, ARNs). */
    public Catalog catalog() { return catalog; }

    /** CreateTable, DescribeTable, UpdateTable, DeleteTable, ListTables and the tagging operations. */
    public Tables tables() { return tables; }

    /** The item operations: writes, reads, queries, scans, batches and transactions. */
    public Items items() { return items; }

    /** UpdateTimeToLive and DescribeTimeToLive; the deletions run in the background. */
    public TimeToLive timeToLive() { return timeToLive; }

    /** DynamoDB Streams: ListStreams, DescribeStream, GetShardIterator, GetRecords. */
    public Streams streams() { return streams; }

    /** On-demand backups: CreateBackup, DescribeBackup, ListBackups, DeleteBackup. */
    public Backups backups() { return backups; }

    /** Point-in-time recovery: its settings, its window, the table at a time and its changes between two. */
    public PointInTimeRecovery recovery() { return recovery; }

    /** RestoreTableFromBackup and RestoreTableToPointInTime. */
    public Restores restores() { return restores; }

    /** The one runner of the engine's long jobs (backups, restores, recovery's copies, imports, exports). */
    public JobRunner jobs() { return jobs; }

    /**
     * ImportTable, DescribeImport, ListImports, reading their objects from {@code source} (the
     * front end's object store and file formats); imports a stopped server left are resumed.
     */
    public Imports imports(ImportSource source) {
        Imports made = new Imports(storage, catalog, pipeline, config.clock(), jobs.lane("imports", true), source);
        imports = made;
        return made;
    }

    /**
     * ExportTableToPointInTime, DescribeExport, ListExports, writing to {@code sink} (the front
     * end's object store and file formats); exports a stopped server left are resumed.
     */
    public Exports exports(ExportSink sink) {
        Exports made = new Exports(storage, catalog, recovery, config.clock(), jobs.lane("exports", true), sink);
        exports = made;
        return made;
    }

    /**
     * Global tables: UpdateTable's ReplicaUpdates, and the replication between this region and its
     * peers (started by {@link GlobalTables#connect}).
     */
    public GlobalTables globalTables() { return globalTables; }

    /**
     * Kinesis Data Streams destinations: the four actions, and the delivery of the tables' changes
     * to the front end's Kinesis endpoint ({@link KinesisDestinations#deliverTo}).
     */
    public KinesisDestinations kinesis() { return kinesis; }

    /** Where every item change is handed, in its own commit (Streams and TTL consume it). */
    public ChangeLog changeLog() { return changeLog; }

    /** What the advisor observed of the traffic (Contributor Insights' data, the read API's, the findings'). */
    public Observations observations() { return observations; }

    /** UpdateContributorInsights, DescribeContributorInsights, ListContributorInsights. */
    public ContributorInsights contributorInsights() { return contributorInsights; }

    /** Admission and billing of every operation. */
    public CapacityMeter capacityMeter() { return meter; }

    /** Building and dropping global secondary indexes in the background. */
    public IndexBuilds indexBuilds() { return indexBuilds; }

    /** The propagation of changes to global secondary indexes. */
    public IndexPropagator indexPropagator() { return propagator; }

    /** The vector indexes' HNSW graphs. */
    public VectorGraphs vectorGraphs() { return vectorGraphs; }

    @Override
    public void close() {
        kinesis.close();
        globalTables.close();
        deployment.close();
        jobs.close();
        expirer.close();
        indexBuilds.close();
        propagator.close();
        vectorGraphs.close();
        storage.close();
    }
}
