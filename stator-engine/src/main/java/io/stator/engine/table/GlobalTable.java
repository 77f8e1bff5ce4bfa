package io.stator.engine.table;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's place in a global table of version 2019.11.21: its replicas, one per region (this
 * one's included), and, for multi-Region strong consistency, its witness. Every member keeps
 * its own copy; {@code epoch} orders them, so that a member adopts a copy only when it is newer
 * than its own (a change reaches a member that was away when it returns).
 *
 * @param consistency EVENTUAL (MREC, the default) or STRONG (MRSC), fixed when the table turns global
 * @param epoch       bumped by every change of the members or their states
 * @param witness     STRONG only, else null
 */
public record GlobalTable(Consistency consistency, long epoch, List<Replica> replicas, Witness witness) {

    /** DescribeTable's GlobalTableVersion of every global table Stator makes. */
    public static final String VERSION = "2019.11.21";

    public GlobalTable {
        replicas = List.copyOf(replicas);
    }

    public enum Consistency { EVENTUAL, STRONG }

    /** DynamoDB's ReplicaStatus values that Stator moves through. */
    public enum ReplicaStatus { CREATING, CREATION_FAILED, UPDATING, DELETING, ACTIVE, REGION_DISABLED }

    public enum WitnessStatus { CREATING, DELETING, ACTIVE }

    /**
     * One region's replica.
     *
     * @param percentProgress  while CREATING: how much of the table's items it has been sent
     * @param inaccessibleSince when it was first found unreachable (REGION_DISABLED), else null
     * @param overrides        what it sets for itself (ReplicaUpdates' Create or Update), or null
     */
    public record Replica(String region, ReplicaStatus status, int percentProgress, String statusDescription,
                          Instant inaccessibleSince, Overrides overrides) {

        public Replica(String region, ReplicaStatus status, int percentProgress, String statusDescription,
                       Instant inaccessibleSince) {
            this(region, status, percentProgress, statusDescription, inaccessibleSince, null);
        }

        public Replica with(ReplicaStatus newStatus) {
            return new Replica(region, newStatus, newStatus == ReplicaStatus.CREATING ? percentProgress : 0,
                    null, newStatus == ReplicaStatus.REGION_DISABLED ? inaccessibleSince : null, overrides);
        }

        /** This replica, CREATING with that much of the table sent. */
        public Replica creating(int percent) {
            return new Replica(region, ReplicaStatus.CREATING, percent, null, null, overrides);
        }

        /** This replica, its creation failed for that reason. */
        public Replica failed(String description) {
            return new Replica(region, ReplicaStatus.CREATION_FAILED, 0, description, null, overrides);
        }

        /** This replica with {@code given} set over its overrides. */
        public Replica overridden(Overrides given) {
            return new Replica(region, status, percentProgress, statusDescription, inaccessibleSince,
                    overrides == null ? given : overrides.with(given));
        }
    }

    /**
     * What one replica sets for itself rather than share (DynamoDB's ReplicaUpdates Create and
     * Update: ProvisionedThroughputOverride, OnDemandThroughputOverride, TableClassOverride,
     * KMSMasterKeyId, and per global index its throughput overrides). Null members were not given;
     * the replica's own region applies them to its table ({@code ReplicaSettings}).
     */
    public record Overrides(Long readCapacityUnits, Long maxReadRequestUnits, String tableClass, String kmsMasterKeyId,
                            List<IndexOverride> indexes) {

        public Overrides {
            indexes = List.copyOf(indexes);
        }

        /** These, with what {@code given} sets over them (an index's, per index). */
        public Overrides with(Overrides given) {
            List<IndexOverride> merged = new ArrayList<>(indexes);
            for (IndexOverride i : given.indexes()) {
                IndexOverride had = index(i.indexName());
                merged.remove(had);
                merged.add(had == null ? i : new IndexOverride(i.indexName(),
                        i.readCapacityUnits() != null ? i.readCapacityUnits() : had.readCapacityUnits(),
                        i.maxReadRequestUnits() != null ? i.maxReadRequestUnits() : had.maxReadRequestUnits()));
            }
            return new Overrides(given.readCapacityUnits != null ? given.readCapacityUnits : readCapacityUnits,
                    given.maxReadRequestUnits != null ? given.maxReadRequestUnits : maxReadRequestUnits,
                    given.tableClass != null ? given.tableClass : tableClass,
                    given.kmsMasterKeyId != null ? given.kmsMasterKeyId : kmsMasterKeyId, merged);
        }

        /** The override of that index, or null. */
        public IndexOverride index(String name) {
            for (IndexOverride i : indexes) if (i.indexName().equals(name)) return i;
            return null;
        }
    }

    /** A replica's own throughput of one global index; null members were not given. */
    public record IndexOverride(String indexName, Long readCapacityUnits, Long maxReadRequestUnits) {}

    public record Witness(String region, WitnessStatus status) {}

    /** The replica in that region, or null. */
    public Replica replica(String region) {
        for (Replica r : replicas) if (r.region().equals(region)) return r;
        return null;
    }

    /** The regions of every replica, in the order they joined. */
    public List<String> regions() {
        List<String> out = new ArrayList<>(replicas.size());
        for (Replica r : replicas) out.add(r.region());
        return out;
    }

    /** This global table with the replica of {@code replica.region()} replaced (or added), one epoch on. */
    public GlobalTable withReplica(Replica replica) {
        List<Replica> changed = new ArrayList<>(replicas.size() + 1);
        boolean found = false;
        for (Replica r : replicas) {
            if (r.region().equals(replica.region())) {
                changed.add(replica);
                found = true;
            } else {
                changed.add(r);
            }
        }
        if (!found) changed.add(replica);
        return new GlobalTable(consistency, epoch + 1, changed, witness);
    }

    /** The same members, one epoch on: the replicas' shared settings changed here. */
    public GlobalTable bumped() {
        return new GlobalTable(consistency, epoch + 1, replicas, witness);
    }

    /** This global table without the replica of that region, one epoch on. */
    public GlobalTable without(String region) {
        List<Replica> changed = new ArrayList<>(replicas);
        changed.removeIf(r -> r.region().equals(region));
        return new GlobalTable(consistency, epoch + 1, changed, witness);
    }

    /** True while a replica is being created or deleted: the table is UPDATING. */
    public boolean changing() {
        for (Replica r : replicas) {
            if (r.status() == ReplicaStatus.CREATING || r.status() == ReplicaStatus.DELETING
                    || r.status() == ReplicaStatus.UPDATING) return true;
        }
        return witness != null && witness.status() != WitnessStatus.ACTIVE;
    }
}
