package io.stator.engine.replication;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.replication.GlobalTables.ReplicaUpdate;
import io.stator.engine.replication.GlobalTables.WitnessUpdate;
import io.stator.engine.table.GlobalTable;
import io.stator.engine.table.GlobalTable.Replica;
import io.stator.engine.table.GlobalTable.ReplicaStatus;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * What DynamoDB allows of a global table with multi-Region strong consistency (MRSC), in its
 * words where they were observed (ack-api-quirks findings DDB-TABLE-257, -258, -202 and -260,
 * 2026-10; docs/dynamodb/global-tables.md): it is made whole in one UpdateTable, from an empty
 * regional table, with three regions (two replica Creates, or one and a witness), and is frozen
 * afterwards. Texts AWS's observations do not give (a table with items, an LSI, Time to Live,
 * transactions) are Stator's, worded as DynamoDB words its refusals.
 */
final class StrongRules {

    static final String UNSUPPORTED_COUNT = "Unsupported replica count for global tables with MultiRegionConsistency set "
            + "to STRONG.";

    private StrongRules() {}

    /** The request's own rules, before the table is looked up. */
    static void checkRequest(List<ReplicaUpdate> updates, String consistency, List<WitnessUpdate> witnesses) {
        boolean strong = "STRONG".equals(consistency);
        boolean createsWitness = false;
        for (WitnessUpdate w : witnesses) createsWitness |= w.create();
        if (createsWitness && !strong) {
            throw DynamoDbException.validation("MultiRegionConsistency must be set as STRONG when "
                    + "GlobalTableWitnessUpdates parameter is present.");
        }
        if (strong) {
            for (ReplicaUpdate u : updates) {
                if (u.kind() != ReplicaUpdate.Kind.CREATE) {
                    throw DynamoDbException.validation("Only Replica Create actions are supported when "
                            + "MultiRegionConsistency parameter is provided.");
                }
            }
        }
    }

    /**
     * A change of an MRSC table's members: only its whole teardown, every other replica and the
     * witness deleted in one UpdateTable, which leaves this region's table regional ("the deletion
     * of both a witness and replica converts the remaining replica to a single-Region DynamoDB
     * table", API reference). Returns the members with those DELETING, or DynamoDB's refusal.
     */
    static GlobalTable teardown(GlobalTable g, String region, List<ReplicaUpdate> updates, String consistency,
                                List<WitnessUpdate> witnesses) {
        if (consistency != null) {
            throw DynamoDbException.validation("MultiRegionConsistency parameter is unsupported on existing global table");
        }
        List<String> deleted = new ArrayList<>();
        for (ReplicaUpdate u : updates) {
            if (u.kind() == ReplicaUpdate.Kind.CREATE) {
                throw DynamoDbException.validation("Cannot add replicas to a global table with strong "
                        + "MultiRegionConsistency");
            }
            if (u.kind() == ReplicaUpdate.Kind.DELETE) deleted.add(u.region());
        }
        boolean deletesWitness = false;
        for (WitnessUpdate w : witnesses) {
            if (w.create() || g.witness() == null || !g.witness().region().equals(w.region())) {
                throw DynamoDbException.validation("Update global table operation failed because one or more witnesses "
                        + "were not part of the global table. Please retry the request without these witnesses: ["
                        + w.region() + "].");
            }
            deletesWitness = true;
        }
        if (g.witness() != null && !deletesWitness) {
            throw DynamoDbException.validation("Update table delete operation does not include all witnesses.");
        }
        GlobalTable next = g;
        for (Replica r : g.replicas()) {
            if (r.region().equals(region)) continue;
            if (!deleted.contains(r.region())) {
                throw DynamoDbException.validation("Deletion of only one table replica is not supported for global tables "
                        + "with MultiRegionConsistency set to STRONG.");
            }
            next = next.withReplica(r.with(ReplicaStatus.DELETING));
        }
        if (g.witness() != null) {
            next = new GlobalTable(next.consistency(), next.epoch() + 1, next.replicas(),
                    new GlobalTable.Witness(g.witness().region(), GlobalTable.WitnessStatus.DELETING));
        }
        return next;
    }

    /**
     * The new MRSC global table: this region's replica ACTIVE, the others and the witness
     * CREATING, or DynamoDB's refusal.
     *
     * @param empty whether the table holds no item (it must be empty)
     */
    static GlobalTable created(TableDefinition table, String region, List<ReplicaUpdate> updates,
                               List<WitnessUpdate> witnesses, boolean empty) {
        String witness = null;
        for (WitnessUpdate w : witnesses) {
            if (!w.create()) {
                throw DynamoDbException.validation("Update global table operation failed because one or more witnesses "
                        + "were not part of the global table. Please retry the request without these witnesses: ["
                        + w.region() + "].");
            }
            witness = w.region();
        }
        if (updates.size() + witnesses.size() != 2) throw DynamoDbException.validation(UNSUPPORTED_COUNT);
        if (witness != null) {
            for (ReplicaUpdate u : updates) {
                if (u.region().equals(witness)) {
                    throw DynamoDbException.validation("Cannot target multiple regions with the same action");
                }
            }
            if (witness.equals(region)) {
                throw DynamoDbException.validation("Cannot add a witness in the same region as an existing replica when "
                        + "creating a global table with MultiRegionConsistency set to STRONG.");
            }
        }
        if (!empty) {
            throw DynamoDbException.validation("One or more parameter values were invalid: the table must be empty to "
                    + "create a global table with MultiRegionConsistency set to STRONG");
        }
        if (!table.localIndexes().isEmpty()) {
            throw DynamoDbException.validation("One or more parameter values were invalid: local secondary indexes are "
                    + "not supported for global tables with MultiRegionConsistency set to STRONG");
        }
        if (table.timeToLive() != null && table.timeToLive().active()) {
            throw DynamoDbException.validation("One or more parameter values were invalid: Time to Live is not supported "
                    + "for global tables with MultiRegionConsistency set to STRONG");
        }
        List<Replica> replicas = new ArrayList<>();
        replicas.add(new Replica(region, ReplicaStatus.ACTIVE, 0, null, null));
        for (ReplicaUpdate u : updates) {
            ReplicaSettings.checkOverrides(table, u.overrides());
            replicas.add(new Replica(u.region(), ReplicaStatus.CREATING, 0, null, null, u.overrides()));
        }
        return new GlobalTable(GlobalTable.Consistency.STRONG, 0, replicas,
                witness == null ? null : new GlobalTable.Witness(witness, GlobalTable.WitnessStatus.CREATING));
    }

    /** DeleteTable of one replica of an MRSC table: refused (DynamoDB's text, observed). */
    static void checkDeletable(TableDefinition table) {
        if (table.stronglyReplicated()) {
            throw DynamoDbException.validation("Deletion of only one table replica is not supported for global tables "
                    + "with MultiRegionConsistency set to STRONG.");
        }
    }
}
