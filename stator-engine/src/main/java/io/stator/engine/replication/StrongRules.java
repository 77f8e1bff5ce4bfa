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
        if (!witnesses.isEmpty() && !strong) {
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

    /** Any change of an MRSC table's members or mode: refused, it is frozen once made. */
    static DynamoDbException frozen(GlobalTable g, List<ReplicaUpdate> updates, String consistency,
                                    List<WitnessUpdate> witnesses) {
        if (consistency != null) {
            return DynamoDbException.validation("MultiRegionConsistency parameter is unsupported on existing global table");
        }
        for (ReplicaUpdate u : updates) {
            if (u.kind() == ReplicaUpdate.Kind.CREATE) {
                return DynamoDbException.validation("Cannot add replicas to a global table with strong "
                        + "MultiRegionConsistency");
            }
        }
        boolean deletesWitness = false;
        for (WitnessUpdate w : witnesses) deletesWitness |= !w.create();
        if (g.witness() != null && !deletesWitness) {
            return DynamoDbException.validation("Update table delete operation does not include all witnesses.");
        }
        return DynamoDbException.validation("Deleting the replicas of a global table with MultiRegionConsistency set to "
                + "STRONG is not yet served by Stator");
    }

    /**
     * The new MRSC global table: this region's replica ACTIVE, the others and the witness
     * CREATING, or DynamoDB's refusal.
     *
     * @param items the table's item count (it must be empty)
     */
    static GlobalTable created(TableDefinition table, String region, List<ReplicaUpdate> updates,
                               List<WitnessUpdate> witnesses, long items) {
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
        if (items > 0) {
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
        for (ReplicaUpdate u : updates) replicas.add(new Replica(u.region(), ReplicaStatus.CREATING, 0, null, null));
        return new GlobalTable(GlobalTable.Consistency.STRONG, 0, replicas,
                witness == null ? null : new GlobalTable.Witness(witness, GlobalTable.WitnessStatus.CREATING));
    }

    /** DeleteTable of one replica of an MRSC table: refused (DynamoDB's text, observed). */
    static void checkDeletable(TableDefinition table) {
        if (table.globalTable() != null && table.globalTable().consistency() == GlobalTable.Consistency.STRONG) {
            throw DynamoDbException.validation("Deletion of only one table replica is not supported for global tables "
                    + "with MultiRegionConsistency set to STRONG.");
        }
    }
}
