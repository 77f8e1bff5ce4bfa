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
     */
    public record Replica(String region, ReplicaStatus status, int percentProgress, String statusDescription,
                          Instant inaccessibleSince) {

        public Replica with(ReplicaStatus newStatus) {
            return new Replica(region, newStatus, newStatus == ReplicaStatus.CREATING ? percentProgress : 0,
                    null, newStatus == ReplicaStatus.REGION_DISABLED ? inaccessibleSince : null);
        }
    }

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
