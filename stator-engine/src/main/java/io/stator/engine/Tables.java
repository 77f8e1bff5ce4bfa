package io.stator.engine;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.advisor.Observations;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.index.IndexBuilds;
import io.stator.engine.replication.GlobalTables;
import io.stator.engine.streams.Streams;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.ResourceArns;
import io.stator.engine.table.ResourcePolicies;
import io.stator.engine.table.TableChange;
import io.stator.engine.table.TableCreation;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableSpecs.Tag;
import io.stator.engine.table.TableUpdates;
import io.stator.engine.table.TagRules;
import io.stator.engine.table.UpdateTableSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The table operations: CreateTable, DescribeTable, UpdateTable (with the lifecycle of global
 * indexes, built and dropped in the background by {@link IndexBuilds}), DeleteTable, ListTables,
 * the tags of a table and its resource-based policy (kept in its definition, so deleted with it). Their rules live in {@code io.stator.engine.table}; this class runs
 * them against the {@link Catalog}.
 */
public final class Tables {

    private final Catalog catalog;
    private final IndexBuilds indexBuilds;
    private final Streams streams;
    private final Clock clock;
    /** How long a new table is CREATING, and an updated one UPDATING (--table-creation-delay). */
    private final Duration transitionDelay;
    private final ResourcePolicies resourcePolicies;
    private final CapacityMeter meter;
    private final Observations observations;

    Tables(Catalog catalog, IndexBuilds indexBuilds, Streams streams, CapacityMeter meter, Observations observations,
           Clock clock, Duration transitionDelay) {
        this.catalog = catalog;
        this.transitionDelay = transitionDelay;
        this.meter = meter;
        this.observations = observations;
        this.streams = streams;
        this.indexBuilds = indexBuilds;
        this.clock = clock;
        this.resourcePolicies = new ResourcePolicies(catalog, clock);
    }

    /** The tables' resource-based policies: PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy. */
    public ResourcePolicies resourcePolicies() {
        return resourcePolicies;
    }

    /**
     * The table an item operation names, by name or ARN, or ResourceNotFoundException ("Requested
     * resource not found", as item operations word it). A table a restore or an import is still filling is not
     * found: DynamoDB's ResourceNotFoundException covers a table "not specified correctly, or its
     * status might not be ACTIVE" (API reference).
     */
    public TableDefinition require(String nameOrArn) {
        TableDefinition table = catalog.require(nameOrArn, NotFoundMessage.PLAIN);
        if (table.filling()) throw DynamoDbException.resourceNotFound(NotFoundMessage.PLAIN.text(nameOrArn));
        return table;
    }

    /**
     * A table a restore or an import is still filling cannot be changed or deleted: DynamoDB's answer to a
     * change of a CREATING table.
     */
    private static TableDefinition changeable(TableDefinition table) {
        if (table.filling()) {
            throw DynamoDbException.resourceInUse(
                    "Attempt to change a resource which is still in use: Table is being created: " + table.name());
        }
        return table;
    }

    /**
     * Creates a table; it is usable as soon as this returns, or, with --table-creation-delay, once
     * that delay has passed (CREATING until then, as DynamoDB's new tables are for a while).
     */
    public TableDefinition create(CreateTableSpec spec) {
        // Stream records are staged from the first write after the definition is committed.
        if (spec.stream() != null && spec.stream().enabled()) streams.register();
        TableDefinition.Builder definition = TableCreation.definition(spec, catalog.arns(), clock);
        if (!transitionDelay.isZero()) {
            definition.transition = new TableDefinition.Transition(TableDefinition.Transition.Status.CREATING,
                    clock.instant().plus(transitionDelay), false, false);
        }
        TableDefinition created = catalog.create(definition);
        if (created.stream() != null) streams.tableChanged(created.name());
        return created;
    }

    public TableDefinition describe(String nameOrArn) {
        return catalog.require(nameOrArn, NotFoundMessage.WITH_TABLE_NAME);
    }

    /** Applies the change at once, and starts the global index builds and drops it asked for. */
    public TableUpdates.Result update(UpdateTableSpec spec) {
        Set<TableChange> changes = TableUpdates.changes(spec);
        TableUpdates.checkRequest(spec, changes);
        TableDefinition current = changeable(describe(spec.tableName()));
        GlobalTables.checkNotChanging(current);
        if (spec.stream() != null) GlobalTables.checkStreamChange(current, spec.stream().enabled());
        String name = current.name();
        if (spec.stream() != null && spec.stream().enabled()) streams.register();
        Instant now = clock.instant();
        AtomicReference<TableUpdates.Applied> applied = new AtomicReference<>();
        TableDefinition updated = catalog.update(name, table -> {
            applied.set(TableUpdates.apply(spec, changes, table, now, catalog.arns()));
            return inTransition(applied.get(), changes, now);
        });
        applied.get().createdIndexes().forEach(index -> indexBuilds.backfill(name, index));
        applied.get().deletedIndexes().forEach(index -> indexBuilds.drop(name, index));
        TableDefinition before = applied.get().before();
        if (changes.contains(TableChange.STREAM_SPECIFICATION)) streams.tableChanged(name);
        return new TableUpdates.Result(before, updated, TableUpdates.asStillUpdating(before, updated, changes), changes);
    }

    /**
     * The updated table, UPDATING until --table-creation-delay has passed when DynamoDB shows the
     * change so (its throughput's dates then move to that moment, as DynamoDB's when it completes).
     */
    private TableDefinition inTransition(TableUpdates.Applied applied, Set<TableChange> changes, Instant now) {
        TableDefinition after = applied.after();
        if (transitionDelay.isZero() || !TableUpdates.updating(changes)) return after;
        TableDefinition.ProvisionedThroughput was = applied.before().throughput();
        TableDefinition.ProvisionedThroughput is = after.throughput();
        boolean increase = is.readCapacityUnits() > was.readCapacityUnits() || is.writeCapacityUnits() > was.writeCapacityUnits();
        boolean decrease = is.readCapacityUnits() < was.readCapacityUnits() || is.writeCapacityUnits() < was.writeCapacityUnits();
        TableDefinition.Builder b = after.toBuilder();
        b.transition = new TableDefinition.Transition(TableDefinition.Transition.Status.UPDATING, now.plus(transitionDelay),
                increase, decrease);
        return b.build();
    }

    /** Deletes a table and its items; refused while deletion protection is on. Returns the definition it had. */
    public TableDefinition delete(String nameOrArn) {
        TableDefinition table = changeable(describe(nameOrArn));
        GlobalTables.checkDeletable(table);
        TableDefinition deleted = catalog.delete(table.name());
        meter.tableDeleted(deleted);
        observations.tableDeleted(deleted.id());
        indexBuilds.tableDeleted(deleted);
        // Its stream, if any, is disabled and stays readable until it expires, as on DynamoDB.
        streams.tableChanged(deleted.name());
        return deleted;
    }

    /** One page of table names in ascending order, and the last one when more follow. */
    public record TableNames(List<String> names, String lastEvaluatedTableName) {}

    /** ListTables: names after {@code exclusiveStartName} (which need not exist), at most {@code limit}. */
    public TableNames list(String exclusiveStartName, int limit) {
        List<String> names = catalog.names(exclusiveStartName, limit);
        boolean more = names.size() == limit && catalog.hasTablesAfter(names.get(names.size() - 1));
        return new TableNames(names, more ? names.get(names.size() - 1) : null);
    }

    /** TagResource: adds or replaces tags, all or none. */
    public void tag(String resourceArn, List<Tag> tags) {
        if (tags.isEmpty()) throw DynamoDbException.validation("Atleast one Tag needs to be provided as Input.");
        Map<String, String> added = TagRules.parseTags(tags);
        TableDefinition table = changeable(ResourceArns.table(resourceArn, catalog));
        catalog.update(table.name(), current -> {
            Map<String, String> merged = new LinkedHashMap<>(current.tags());
            merged.putAll(added);
            TagRules.checkCount(merged.size());
            TableDefinition.Builder b = current.toBuilder();
            b.tags = merged;
            return b.build();
        });
    }

    /** UntagResource: removes tags by key (absent keys are no-ops). */
    public void untag(String resourceArn, List<String> keys) {
        if (keys.isEmpty()) throw DynamoDbException.validation("Atleast one Tag Key needs to be provided as Input.");
        TagRules.checkTagKeys(keys);
        TagRules.checkCount(keys.size());
        TableDefinition table = ResourceArns.table(resourceArn, catalog);
        catalog.update(table.name(), current -> {
            Map<String, String> remaining = new LinkedHashMap<>(current.tags());
            keys.forEach(remaining::remove);
            TableDefinition.Builder b = current.toBuilder();
            b.tags = remaining;
            return b.build();
        });
    }

    /** ListTagsOfResource: all of a table's tags (a table has at most 50), in the order added. */
    public Map<String, String> tags(String resourceArn) {
        return ResourceArns.table(resourceArn, catalog).tags();
    }
}
