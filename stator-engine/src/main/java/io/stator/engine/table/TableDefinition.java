package io.stator.engine.table;

import io.stator.core.key.PartitionHash;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything DynamoDB knows about a table's definition: what CreateTable and UpdateTable set
 * and DescribeTable shows. Immutable; an update makes a new definition. Persisted by
 * {@link TableCodec}.
 *
 * @param id                 Stator's storage id for the table's rows; never reused
 * @param tableId            DynamoDB's TableId, a UUID
 * @param attributeDefinitions as the client gave them, in order
 * @param throughput         provisioned throughput; for on-demand tables DynamoDB shows 0 and 0
 * @param stream             null when streams were never specified
 * @param sse                null for DynamoDB's default (an AWS owned key): no SSEDescription
 * @param onDemandThroughput null when not set; a member is -1 when not set
 * @param warmThroughput     null when not set (see {@link #effectiveWarmThroughput})
 * @param tags               in the order they were added
 * @param globalIndexes      global secondary indexes, in the order created
 * @param localIndexes       local secondary indexes, in the order given
 * @param vectorIndexes      vector indexes, in the order created
 * @param lastIndexId        the highest index id ever given in this table (ids are not reused)
 * @param resourcePolicy     the table's resource-based policy, or null when it has none
 * @param timeToLive         the table's Time to Live, or null when UpdateTimeToLive never changed it
 * @param pointInTimeRecovery the table's point-in-time recovery while enabled; null while disabled
 * @param importArn          the ImportArn of the ImportTable filling the table, until every item is
 *                           in (CREATING until then); null otherwise
 * @param restore            for a table restored from a backup, where from and whether it is still
 *                           being filled (its TableStatus is CREATING until then); null otherwise
 * @param contributorInsights Contributor Insights of the table (key 0) and of its global indexes (by
 *                           index id), for those UpdateContributorInsights ever changed
 * @param globalTable        the global table it is a replica of (its replicas and their states);
 *                           null for a regional table
 * @param partitionHash      the hash that places the table's rows ({@link PartitionHash}): DynamoDB's
 *                           for every table created since key layout 2, which orders Scan as
 *                           DynamoDB does; xxHash64 for a table created before, which keeps it
 * @param transition         the CreateTable or UpdateTable still taking effect (--table-creation-delay), or null
 * @param kinesisDestinations its Kinesis data stream destinations, in the order first enabled
 */
public record TableDefinition(
        long id,
        String name,
        String tableId,
        Instant creationDateTime,
        KeySchema keySchema,
        List<AttributeDefinition> attributeDefinitions,
        BillingMode billingMode,
        Instant lastUpdateToPayPerRequestDateTime,
        ProvisionedThroughput throughput,
        StreamSpecification stream,
        String latestStreamLabel,
        SseSpecification sse,
        TableClass tableClass,
        Instant tableClassLastUpdateDateTime,
        boolean deletionProtectionEnabled,
        OnDemandThroughput onDemandThroughput,
        WarmThroughput warmThroughput,
        Map<String, String> tags,
        List<IndexDefinition> globalIndexes,
        List<IndexDefinition> localIndexes,
        List<IndexDefinition> vectorIndexes,
        int lastIndexId,
        ResourcePolicy resourcePolicy,
        TimeToLiveDescription timeToLive,
        PointInTimeRecovery pointInTimeRecovery,
        String importArn,
        RestoreSummary restore,
        Map<Integer, ContributorInsightsSetting> contributorInsights,
        GlobalTable globalTable,
        PartitionHash partitionHash,
        Transition transition,
        List<KinesisDataStreamDestination> kinesisDestinations) {

    /**
     * Point-in-time recovery, while enabled (UpdateContinuousBackups).
     *
     * @param recoveryPeriodInDays 1 to 35
     * @param baseDateTime         when the table's items were copied as the base its change history
     *                             replays over: no restore to an earlier time
     * @param baseReady            false until that copy is done (a restore waits for it)
     */
    public record PointInTimeRecovery(int recoveryPeriodInDays, Instant baseDateTime, boolean baseReady) {}

    /**
     * DynamoDB's RestoreSummary of a restored table.
     *
     * @param sourceBackupArn null for a point-in-time restore
     * @param sourceTableArn  the table the backup was taken of
     * @param inProgress      true until every item is in: item operations find no table until then
     */
    public record RestoreSummary(String sourceBackupArn, String sourceTableArn, Instant restoreDateTime,
                                 boolean inProgress) {}

    /**
     * True for a replica of a global table with multi-Region strong consistency (MRSC): its writes
     * are ordered by its regions' consensus group, and DynamoDB refuses transactions and Time to
     * Live on it.
     */
    public boolean stronglyReplicated() {
        return globalTable != null && globalTable.consistency() == GlobalTable.Consistency.STRONG;
    }

    /** True for a replica of a global table with multi-Region eventual consistency (MREC). */
    public boolean eventuallyReplicated() {
        return globalTable != null && globalTable.consistency() == GlobalTable.Consistency.EVENTUAL;
    }

    /** True while a restore fills the table. */
    public boolean restoring() {
        return restore != null && restore.inProgress();
    }

    /**
     * True while a restore or an import fills the table: it is CREATING, and only DescribeTable
     * and ListTables see it.
     */
    public boolean filling() {
        return restoring() || importArn != null || (transition != null && transition.status() == Transition.Status.CREATING);
    }

    /**
     * A change DynamoDB takes a while to apply, made to take {@code --table-creation-delay}: the
     * table is CREATING (its items not found, no change accepted) or UPDATING until {@code until},
     * then ACTIVE ({@link Catalog} settles it once that time has come, as the table is next named).
     *
     * @param increase whether the update raised provisioned throughput: LastIncreaseDateTime moves to
     *                 {@code until} when it completes
     * @param decrease whether it lowered it: LastDecreaseDateTime moves likewise
     */
    public record Transition(Status status, Instant until, boolean increase, boolean decrease) {
        public enum Status { CREATING, UPDATING }
    }

    /** This definition once its transition is complete: ACTIVE, an update's throughput dates at its end. */
    public TableDefinition settled() {
        Builder b = toBuilder();
        b.transition = null;
        if (transition != null && (transition.increase() || transition.decrease())) {
            ProvisionedThroughput p = throughput;
            b.throughput = new ProvisionedThroughput(p.readCapacityUnits(), p.writeCapacityUnits(),
                    transition.increase() ? transition.until() : p.lastIncreaseDateTime(),
                    transition.decrease() ? transition.until() : p.lastDecreaseDateTime(), p.numberOfDecreasesToday());
        }
        return b.build();
    }

    /** The Kinesis data stream destination the table's changes are kept for, or null. */
    public KinesisDataStreamDestination collectingKinesis() {
        for (KinesisDataStreamDestination d : kinesisDestinations) if (d.collecting()) return d;
        return null;
    }

    /** This definition with the destination of {@code streamArn} replaced by {@code d} (or added, last). */
    public TableDefinition withKinesisDestination(KinesisDataStreamDestination d) {
        List<KinesisDataStreamDestination> all = new java.util.ArrayList<>(kinesisDestinations);
        KinesisDataStreamDestination old = kinesisDestination(d.streamArn());
        if (old == null) all.add(d);
        else all.set(all.indexOf(old), d);
        Builder b = toBuilder();
        b.kinesisDestinations = all;
        return b.build();
    }

    /** The destination of that stream ARN, or null. */
    public KinesisDataStreamDestination kinesisDestination(String streamArn) {
        for (KinesisDataStreamDestination d : kinesisDestinations) if (d.streamArn().equals(streamArn)) return d;
        return null;
    }

    /** Every index whose entries writes derive: global ones, local ones, then vector ones. */
    public List<IndexDefinition> indexes() {
        if (localIndexes.isEmpty() && vectorIndexes.isEmpty()) return globalIndexes;
        if (globalIndexes.isEmpty() && vectorIndexes.isEmpty()) return localIndexes;
        List<IndexDefinition> all = new java.util.ArrayList<>(globalIndexes);
        all.addAll(localIndexes);
        all.addAll(vectorIndexes);
        return all;
    }

    /** The index with that id, or null. */
    public IndexDefinition indexById(int indexId) {
        for (IndexDefinition i : globalIndexes) if (i.id() == indexId) return i;
        for (IndexDefinition i : localIndexes) if (i.id() == indexId) return i;
        for (IndexDefinition i : vectorIndexes) if (i.id() == indexId) return i;
        return null;
    }

    /** The index of that name (global, local or vector), or null. */
    public IndexDefinition index(String indexName) {
        for (IndexDefinition i : globalIndexes) if (i.name().equals(indexName)) return i;
        for (IndexDefinition i : localIndexes) if (i.name().equals(indexName)) return i;
        for (IndexDefinition i : vectorIndexes) if (i.name().equals(indexName)) return i;
        return null;
    }

    public record AttributeDefinition(String name, io.stator.core.model.AttributeValue.Type type) {}

    public enum BillingMode { PROVISIONED, PAY_PER_REQUEST }

    public enum TableClass { STANDARD, STANDARD_INFREQUENT_ACCESS }

    /**
     * Provisioned capacity and DynamoDB's bookkeeping of its changes. Dates are null until the
     * first increase or decrease.
     */
    public record ProvisionedThroughput(long readCapacityUnits, long writeCapacityUnits,
                                        Instant lastIncreaseDateTime, Instant lastDecreaseDateTime,
                                        int numberOfDecreasesToday) {
        public static final ProvisionedThroughput ZERO = new ProvisionedThroughput(0, 0, null, null, 0);
    }

    public enum StreamViewType { NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY }

    /** @param viewType null when streams are disabled */
    public record StreamSpecification(boolean enabled, StreamViewType viewType) {}

    public enum SseType { AES256, KMS }

    /** Server-side encryption with a KMS key (the only kind DynamoDB describes). */
    public record SseSpecification(SseType type, String kmsMasterKeyArn) {}

    /** Maximum on-demand throughput; -1 means "no maximum", as DynamoDB reports it. */
    public record OnDemandThroughput(long maxReadRequestUnits, long maxWriteRequestUnits) {}

    public record WarmThroughput(long readUnitsPerSecond, long writeUnitsPerSecond) {

        /** DynamoDB's initial throughput of an on-demand table, which its warm throughput starts at. */
        public static final WarmThroughput ON_DEMAND_BASELINE = new WarmThroughput(12_000, 4_000);

        /** The larger of the two, unit by unit. */
        public WarmThroughput max(WarmThroughput other) {
            return new WarmThroughput(Math.max(readUnitsPerSecond, other.readUnitsPerSecond),
                    Math.max(writeUnitsPerSecond, other.writeUnitsPerSecond));
        }
    }

    /**
     * The warm throughput DynamoDB reports: never below the table's baseline (12,000 reads and
     * 4,000 writes per second on demand, the provisioned units otherwise), nor below what was set.
     */
    public WarmThroughput effectiveWarmThroughput() {
        WarmThroughput baseline = billingMode == BillingMode.PAY_PER_REQUEST ? WarmThroughput.ON_DEMAND_BASELINE
                : new WarmThroughput(throughput.readCapacityUnits(), throughput.writeCapacityUnits());
        return warmThroughput == null ? baseline : baseline.max(warmThroughput);
    }

    /** A mutable copy of this definition, to build a changed one from. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** A mutable copy, for UpdateTable and tagging. */
    public static final class Builder {
        public long id;
        public String name;
        public String tableId;
        public Instant creationDateTime;
        public KeySchema keySchema;
        public List<AttributeDefinition> attributeDefinitions;
        public BillingMode billingMode;
        public Instant lastUpdateToPayPerRequestDateTime;
        public ProvisionedThroughput throughput;
        public StreamSpecification stream;
        public String latestStreamLabel;
        public SseSpecification sse;
        public TableClass tableClass;
        public Instant tableClassLastUpdateDateTime;
        public boolean deletionProtectionEnabled;
        public OnDemandThroughput onDemandThroughput;
        public WarmThroughput warmThroughput;
        public Map<String, String> tags;
        public List<IndexDefinition> globalIndexes = List.of();
        public List<IndexDefinition> localIndexes = List.of();
        public List<IndexDefinition> vectorIndexes = List.of();
        public int lastIndexId;
        public ResourcePolicy resourcePolicy;
        public TimeToLiveDescription timeToLive;
        public PointInTimeRecovery pointInTimeRecovery;
        public String importArn;
        public RestoreSummary restore;
        public Map<Integer, ContributorInsightsSetting> contributorInsights = Map.of();
        public GlobalTable globalTable;
        public PartitionHash partitionHash = PartitionHash.DYNAMODB;
        public Transition transition;
        public List<KinesisDataStreamDestination> kinesisDestinations = List.of();

        public Builder() {}

        Builder(TableDefinition t) {
            id = t.id;
            name = t.name;
            tableId = t.tableId;
            creationDateTime = t.creationDateTime;
            keySchema = t.keySchema;
            attributeDefinitions = t.attributeDefinitions;
            billingMode = t.billingMode;
            lastUpdateToPayPerRequestDateTime = t.lastUpdateToPayPerRequestDateTime;
            throughput = t.throughput;
            stream = t.stream;
            latestStreamLabel = t.latestStreamLabel;
            sse = t.sse;
            tableClass = t.tableClass;
            tableClassLastUpdateDateTime = t.tableClassLastUpdateDateTime;
            deletionProtectionEnabled = t.deletionProtectionEnabled;
            onDemandThroughput = t.onDemandThroughput;
            warmThroughput = t.warmThroughput;
            tags = t.tags;
            globalIndexes = t.globalIndexes;
            localIndexes = t.localIndexes;
            vectorIndexes = t.vectorIndexes;
            lastIndexId = t.lastIndexId;
            resourcePolicy = t.resourcePolicy;
            timeToLive = t.timeToLive;
            pointInTimeRecovery = t.pointInTimeRecovery;
            importArn = t.importArn;
            restore = t.restore;
            contributorInsights = t.contributorInsights;
            globalTable = t.globalTable;
            partitionHash = t.partitionHash;
            transition = t.transition;
            kinesisDestinations = t.kinesisDestinations;
        }

        public TableDefinition build() {
            return new TableDefinition(id, name, tableId, creationDateTime, keySchema,
                    List.copyOf(attributeDefinitions), billingMode, lastUpdateToPayPerRequestDateTime,
                    throughput, stream, latestStreamLabel, sse, tableClass, tableClassLastUpdateDateTime,
                    deletionProtectionEnabled, onDemandThroughput, warmThroughput,
                    java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tags)),
                    List.copyOf(globalIndexes), List.copyOf(localIndexes), List.copyOf(vectorIndexes), lastIndexId, resourcePolicy, timeToLive,
                    pointInTimeRecovery, importArn, restore, Map.copyOf(contributorInsights), globalTable,
                    partitionHash, transition, List.copyOf(kinesisDestinations));
        }
    }
}
