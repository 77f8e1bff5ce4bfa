package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.IndexDefinition.IndexStatus;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableSpecs.GlobalIndexUpdate;
import io.stator.engine.table.TableSpecs.IndexSpec;
import io.stator.engine.table.TableSpecs.IndexUpdate;
import io.stator.engine.table.TableSpecs.Throughput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * UpdateTable's GlobalSecondaryIndexUpdates: create a global index (it builds in the background,
 * CREATING with Backfilling, then ACTIVE), delete one (DELETING while its entries go), or change
 * one's throughput. DynamoDB allows one create or delete per request and per table at a time;
 * its messages for each refusal are used.
 */
final class GlobalIndexUpdates {

    /** The creates and deletes a request asked for, to start once the definition is stored. */
    record Started(List<String> created, List<String> deleted) {}

    private GlobalIndexUpdates() {}

    /** The request's own rules, checked before the table is looked at. */
    static void checkRequest(List<GlobalIndexUpdate> entries, Set<TableChange> updates) {
        if (entries == null) return;
        if (entries.isEmpty()) throw DynamoDbException.invalidParameter("List of GlobalSecondaryIndexUpdates is empty");
        Set<String> names = new HashSet<>();
        int createsAndDeletes = 0;
        for (GlobalIndexUpdate entry : entries) {
            int actions = (entry.create() != null ? 1 : 0) + (entry.update() != null ? 1 : 0)
                    + (entry.delete() != null ? 1 : 0);
            if (actions == 0) {
                throw DynamoDbException.invalidParameter("One of GlobalSecondaryIndexUpdate.Update, "
                        + "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
            }
            if (actions > 1) {
                throw DynamoDbException.invalidParameter(
                        "Only one global secondary index action is allowed per GlobalSecondaryIndexUpdate object");
            }
            String name = entry.indexName();
            if (!names.add(name)) {
                throw DynamoDbException.invalidParameter("Only one global secondary index update per index is allowed "
                        + "simultaneously. Index: " + name);
            }
            if (entry.update() == null) createsAndDeletes++;
        }
        if (createsAndDeletes > 1) throw onlyOneOnlineIndex();
        if (createsAndDeletes == 1) {
            if (updates.contains(TableChange.PROVISIONED_THROUGHPUT)) {
                throw DynamoDbException.invalidParameter("You cannot create or delete index while updating table IOPS");
            }
            if (updates.contains(TableChange.STREAM_SPECIFICATION)) {
                throw DynamoDbException.invalidParameter("You cannot create or delete index while changing stream status");
            }
            if (updates.contains(TableChange.WARM_THROUGHPUT)) {
                throw DynamoDbException.invalidParameter(
                        "Create global secondary index cannot be specified when updating WarmThroughput");
            }
        }
    }

    static DynamoDbException onlyOneOnlineIndex() {
        return DynamoDbException.limitExceeded(
                "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
    }

    /** Applies the updates to the table's new definition (under the catalog lock). */
    static Started apply(UpdateTableSpec request, TableDefinition table, TableDefinition.Builder changed,
                         BillingMode mode, Instant now) {
        List<GlobalIndexUpdate> entries = request.globalIndexUpdates();
        List<String> created = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        if (entries == null || entries.isEmpty()) return new Started(created, deleted);
        List<IndexDefinition> globals = new ArrayList<>(changed.globalIndexes);
        for (GlobalIndexUpdate entry : entries) {
            if (entry.create() != null) {
                IndexSpec create = entry.create();
                if (globals.stream().anyMatch(i -> i.status() != IndexStatus.ACTIVE)
                        || table.vectorIndexes().stream().anyMatch(i -> i.status() != IndexStatus.ACTIVE)) {
                    throw onlyOneOnlineIndex();
                }
                globals.add(create(request, table, changed, create, mode, now));
                created.add(create.indexName());
            } else {
                String name = entry.indexName();
                int at = indexOf(globals, name);
                if (at < 0) {
                    if (table.index(name) != null) {
                        throw DynamoDbException.validation("Cannot " + (entry.delete() != null ? "delete" : "update")
                                + " an index that is not a GlobalSecondaryIndex: " + name);
                    }
                    throw DynamoDbException.resourceNotFound("Requested resource not found: Index " + name
                            + " for table " + table.name());
                }
                IndexDefinition index = globals.get(at);
                if (index.status() == IndexStatus.DELETING) {
                    throw DynamoDbException.resourceInUse("Attempt to change a resource which is still in use: Index is "
                            + "being deleted. Table: " + table.name() + " Index: " + name);
                }
                if (entry.delete() != null) {
                    if (globals.stream().anyMatch(i -> i != index && i.status() != IndexStatus.ACTIVE)) {
                        throw onlyOneOnlineIndex();
                    }
                    globals.set(at, index.withStatus(IndexStatus.DELETING, false));
                    deleted.add(name);
                } else {
                    globals.set(at, update(index, entry.update(), mode, now));
                }
            }
        }
        changed.globalIndexes = globals;
        return new Started(created, deleted);
    }

    private static IndexDefinition create(UpdateTableSpec request, TableDefinition table, TableDefinition.Builder changed,
                                          IndexSpec create, BillingMode mode, Instant now) {
        String name = create.indexName();
        if (table.index(name) != null) throw DynamoDbException.validation("Attempting to create an index which already exists");
        if (table.globalIndexes().size() >= IndexSpecs.MAX_GLOBAL_INDEXES) {
            throw DynamoDbException.limitExceeded("Subscriber limit exceeded: Number of global secondary indexes "
                    + "exceeds per-table limit of " + IndexSpecs.MAX_GLOBAL_INDEXES);
        }
        // The key's attributes come from this request's definitions, then from the table's.
        Map<String, AttributeValue.Type> types = new LinkedHashMap<>();
        for (AttributeDefinition d : table.attributeDefinitions()) types.put(d.name(), d.type());
        List<AttributeDefinition> given = request.attributeDefinitions();
        if (given == null) {
            throw DynamoDbException.invalidParameter("AttributeDefinitions is not specified for index: " + name);
        }
        for (AttributeDefinition d : given) types.put(d.name(), d.type());
        Throughput throughput = create.throughput();
        if (mode == BillingMode.PAY_PER_REQUEST && throughput != null) {
            throw DynamoDbException.invalidParameter("Neither ReadCapacityUnits nor WriteCapacityUnits can be specified "
                    + "for index: " + name + " when BillingMode is PAY_PER_REQUEST");
        }
        if (mode == BillingMode.PROVISIONED && throughput == null) {
            throw DynamoDbException.invalidParameter("Both ReadCapacityUnits and WriteCapacityUnits must be specified "
                    + "for index: " + name);
        }
        int id = changed.lastIndexId + 1;
        changed.lastIndexId = id;
        IndexDefinition index = IndexSpecs.globalIndex(create, types, mode, now, id, IndexStatus.CREATING, true);
        // The table keeps a definition for each attribute its keys use.
        List<AttributeDefinition> definitions = new ArrayList<>(changed.attributeDefinitions);
        for (IndexDefinition.KeyAttribute k : index.keyAttributes()) {
            if (definitions.stream().noneMatch(d -> d.name().equals(k.name()))) {
                definitions.add(new AttributeDefinition(k.name(), k.type()));
            }
        }
        changed.attributeDefinitions = definitions;
        return index;
    }

    private static IndexDefinition update(IndexDefinition index, IndexUpdate update, BillingMode mode, Instant now) {
        Throughput throughput = update.throughput();
        if (throughput == null) return index;
        String name = index.name();
        if (mode == BillingMode.PAY_PER_REQUEST) {
            throw DynamoDbException.invalidParameter("The only Updates for index: " + name
                    + " when TableThroughputMode is PAY_PER_REQUEST can be to OnDemandThroughput, WarmThroughput");
        }
        TableSettings.checkThroughputBounds(throughput);
        long read = throughput.readCapacityUnits();
        long write = throughput.writeCapacityUnits();
        ProvisionedThroughput current = index.throughput();
        if (read == current.readCapacityUnits() && write == current.writeCapacityUnits()) {
            throw DynamoDbException.validation("The provisioned throughput for the index " + name + " will not change. "
                    + "The requested value equals the current value. Current ReadCapacityUnits provisioned for index "
                    + name + ": " + current.readCapacityUnits() + ". Requested ReadCapacityUnits: " + read
                    + ". Current WriteCapacityUnits provisioned for index " + name + ": " + current.writeCapacityUnits()
                    + ". Requested WriteCapacityUnits: " + write + ". Refer to the Amazon DynamoDB Developer Guide for "
                    + "current limits and how to request higher limits.");
        }
        // The index's decreases are limited as the table's are, counted on their own.
        return new IndexDefinition(name, index.id(), true, index.partitionKey(), index.sortKey(), index.projectionType(),
                index.nonKeyAttributes(), TableUpdates.changedThroughput(current, read, write, now),
                index.onDemandThroughput(), index.warmThroughput(), index.status(), index.backfilling(),
                index.creationDateTime(), null);
    }

    private static int indexOf(List<IndexDefinition> indexes, String name) {
        for (int i = 0; i < indexes.size(); i++) if (indexes.get(i).name().equals(name)) return i;
        return -1;
    }
}
