package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.GlobalTable;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableSpecs;
import io.stator.engine.table.TimeToLiveDescription;
import io.stator.engine.table.UpdateTableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The settings every replica of a global table shares, which version 2019.11.21 keeps aligned
 * (developer guide: GSIs, Time to Live and, for provisioned tables, write capacity; the billing
 * mode with them), and how a replica brings its own in line with another region's: through the
 * engine's own UpdateTable and UpdateTimeToLive, so that an index is built and Time to Live starts
 * exactly as if asked here. Read capacity, the table class and the KMS key may differ per replica.
 *
 * <p>With multi-Region strong consistency the stream is shared too: DynamoDB documents it as the
 * table's, "not required and can be changed", its records "identical on every replica" (the
 * CloudFormation GlobalTable's StreamSpecification), so enabling, disabling or changing it in one
 * region does so in every region. (With eventual consistency it is always on, NEW_AND_OLD_IMAGES
 * unless it was already KEYS_ONLY or another type before the table turned global.)
 */
public interface ReplicaSettings {

    /** UpdateTimeToLive, as this region's engine runs it. */
    void updateTimeToLive(String table, boolean enabled, String attributeName);

    /** UpdateTable, as this region's engine runs it. */
    void updateTable(UpdateTableSpec spec);

    /** What must match across replicas, as one comparable text. */
    static String aligned(TableDefinition t) {
        StringBuilder b = new StringBuilder();
        TimeToLiveDescription ttl = t.timeToLive();
        b.append("ttl=").append(ttl != null && ttl.active() ? ttl.attributeName() : "-");
        b.append(";billing=").append(t.billingMode());
        if (t.stronglyReplicated()) b.append(";stream=").append(streamOf(t));
        if (t.billingMode() == BillingMode.PROVISIONED) b.append(";write=").append(t.throughput().writeCapacityUnits());
        for (IndexDefinition i : byName(t.globalIndexes()).values()) {
            b.append(";gsi=").append(i.name()).append(i.partitionKey()).append(i.sortKey()).append(i.projectionType())
                    .append(i.nonKeyAttributes());
            if (i.throughput() != null && t.billingMode() == BillingMode.PROVISIONED) {
                b.append(":w").append(i.throughput().writeCapacityUnits());
            }
        }
        return b.toString();
    }

    /**
     * Brings {@code local}'s shared settings in line with {@code source}'s, one engine operation
     * at a time (DynamoDB changes one index per UpdateTable). A step that is refused (an index
     * still being built, say) is tried again when the members are next sent.
     */
    static void align(TableDefinition local, TableDefinition source, ReplicaSettings settings) {
        TimeToLiveDescription want = source.timeToLive();
        TimeToLiveDescription have = local.timeToLive();
        boolean wantOn = want != null && want.active();
        boolean haveOn = have != null && have.active();
        if (wantOn != haveOn || (wantOn && !want.attributeName().equals(have.attributeName()))) {
            if (haveOn) settings.updateTimeToLive(local.name(), false, have.attributeName());
            if (wantOn) settings.updateTimeToLive(local.name(), true, want.attributeName());
        }
        if (source.stronglyReplicated() && !streamOf(source).equals(streamOf(local))) {
            // Off first where one is on: DynamoDB enables a stream only on a table without one.
            if (local.stream() != null && local.stream().enabled()) {
                settings.updateTable(streamUpdate(local.name(), new TableSpecs.Stream(false, null)));
            }
            if (source.stream() != null && source.stream().enabled()) {
                settings.updateTable(streamUpdate(local.name(),
                        new TableSpecs.Stream(true, source.stream().viewType().name())));
            }
        }
        boolean billing = source.billingMode() != local.billingMode();
        boolean write = source.billingMode() == BillingMode.PROVISIONED
                && source.throughput().writeCapacityUnits() != local.throughput().writeCapacityUnits();
        if (billing || write) {
            TableSpecs.Throughput throughput = source.billingMode() == BillingMode.PROVISIONED
                    ? new TableSpecs.Throughput(local.billingMode() == BillingMode.PROVISIONED
                            ? local.throughput().readCapacityUnits() : source.throughput().readCapacityUnits(),
                            source.throughput().writeCapacityUnits())
                    : null;
            settings.updateTable(new UpdateTableSpec(local.name(), null, billing ? source.billingMode().name() : null,
                    throughput, null, null, null, null, null, null, null, null));
        }
        Map<String, IndexDefinition> wanted = byName(source.globalIndexes());
        Map<String, IndexDefinition> had = byName(local.globalIndexes());
        for (IndexDefinition i : had.values()) {
            if (!wanted.containsKey(i.name())) {
                settings.updateTable(new UpdateTableSpec(local.name(), null, null, null, null,
                        List.of(new TableSpecs.GlobalIndexUpdate(null, null, i.name())), null, null, null, null, null, null));
            }
        }
        for (IndexDefinition i : wanted.values()) {
            if (!had.containsKey(i.name())) {
                settings.updateTable(new UpdateTableSpec(local.name(), definitions(i), null, null, null,
                        List.of(new TableSpecs.GlobalIndexUpdate(indexSpec(source, i), null, null)),
                        null, null, null, null, null, null));
            }
        }
    }

    /**
     * Refuses overrides the table cannot take: a provisioned read capacity on an on-demand table,
     * or an index it does not have (DynamoDB's texts for these are not known: Stator's words).
     */
    static void checkOverrides(TableDefinition t, GlobalTable.Overrides o) {
        if (o == null) return;
        boolean onDemand = t.billingMode() == TableDefinition.BillingMode.PAY_PER_REQUEST;
        boolean provisionedRead = o.readCapacityUnits() != null
                || o.indexes().stream().anyMatch(i -> i.readCapacityUnits() != null);
        if (onDemand && provisionedRead) {
            throw DynamoDbException.validation("One or more parameter values were invalid: ProvisionedThroughputOverride "
                    + "is not allowed for a table in PAY_PER_REQUEST billing mode: " + t.name());
        }
        for (GlobalTable.IndexOverride i : o.indexes()) {
            if (i.maxReadRequestUnits() != null) {
                throw DynamoDbException.validation("A global secondary index's OnDemandThroughputOverride in "
                        + "ReplicaUpdates is not supported by Stator yet");
            }
            if (t.globalIndexes().stream().noneMatch(g -> g.name().equals(i.indexName()))) {
                throw DynamoDbException.validation("One or more parameter values were invalid: Global secondary index "
                        + i.indexName() + " does not exist in table " + t.name());
            }
        }
    }

    /**
     * Brings this region's replica in line with what it sets for itself ({@link
     * GlobalTable.Overrides}: ReplicaUpdates' overrides), one engine operation at a time; a step
     * refused now (the table UPDATING) is tried again next round.
     */
    static void override(TableDefinition local, GlobalTable.Overrides o, ReplicaSettings settings) {
        boolean provisioned = local.billingMode() == BillingMode.PROVISIONED;
        if (provisioned && o.readCapacityUnits() != null
                && local.throughput().readCapacityUnits() != o.readCapacityUnits()) {
            settings.updateTable(new UpdateTableSpec(local.name(), null, null, new TableSpecs.Throughput(
                    o.readCapacityUnits(), local.throughput().writeCapacityUnits()), null, null, null, null, null, null,
                    null, null));
        }
        if (!provisioned && o.maxReadRequestUnits() != null && (local.onDemandThroughput() == null
                || local.onDemandThroughput().maxReadRequestUnits() != o.maxReadRequestUnits())) {
            settings.updateTable(new UpdateTableSpec(local.name(), null, null, null, null, null, null, null, null,
                    new TableSpecs.OnDemand(o.maxReadRequestUnits(), null), null, null));
        }
        String tableClass = local.tableClass() == null ? "STANDARD" : local.tableClass().name();
        if (o.tableClass() != null && !o.tableClass().equals(tableClass)) {
            settings.updateTable(new UpdateTableSpec(local.name(), null, null, null, null, null, null, o.tableClass(),
                    null, null, null, null));
        }
        for (IndexDefinition i : local.globalIndexes()) {
            GlobalTable.IndexOverride io = o.index(i.name());
            if (!provisioned || io == null || io.readCapacityUnits() == null || i.throughput() == null
                    || i.throughput().readCapacityUnits() == io.readCapacityUnits()) {
                continue;
            }
            settings.updateTable(new UpdateTableSpec(local.name(), null, null, null, null, List.of(
                    new TableSpecs.GlobalIndexUpdate(null, new TableSpecs.IndexUpdate(i.name(), new TableSpecs.Throughput(
                            io.readCapacityUnits(), i.throughput().writeCapacityUnits())), null)),
                    null, null, null, null, null, null));
        }
    }

    /** The stream's view type, or "-" without one. */
    private static String streamOf(TableDefinition t) {
        return t.stream() != null && t.stream().enabled() ? t.stream().viewType().name() : "-";
    }

    private static UpdateTableSpec streamUpdate(String table, TableSpecs.Stream stream) {
        return new UpdateTableSpec(table, null, null, null, stream, null, null, null, null, null, null, null);
    }

    private static Map<String, IndexDefinition> byName(List<IndexDefinition> indexes) {
        Map<String, IndexDefinition> out = new TreeMap<>();
        for (IndexDefinition i : indexes) out.put(i.name(), i);
        return out;
    }

    private static TableSpecs.IndexSpec indexSpec(TableDefinition source, IndexDefinition i) {
        List<TableSpecs.KeyElement> keys = new ArrayList<>();
        for (IndexDefinition.KeyAttribute k : i.partitionKey()) keys.add(new TableSpecs.KeyElement(k.name(), "HASH"));
        for (IndexDefinition.KeyAttribute k : i.sortKey()) keys.add(new TableSpecs.KeyElement(k.name(), "RANGE"));
        TableSpecs.Throughput throughput = source.billingMode() == BillingMode.PROVISIONED && i.throughput() != null
                ? new TableSpecs.Throughput(i.throughput().readCapacityUnits(), i.throughput().writeCapacityUnits())
                : null;
        return new TableSpecs.IndexSpec(i.name(), keys, new TableSpecs.Projection(i.projectionType().name(),
                i.nonKeyAttributes().isEmpty() ? null : i.nonKeyAttributes()), throughput);
    }

    private static List<TableDefinition.AttributeDefinition> definitions(IndexDefinition i) {
        List<TableDefinition.AttributeDefinition> out = new ArrayList<>();
        for (IndexDefinition.KeyAttribute k : i.keyAttributes()) {
            out.add(new TableDefinition.AttributeDefinition(k.name(), k.type()));
        }
        return out;
    }
}
