package io.stator.engine.transfer;

import io.stator.core.model.AttributeValue;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.jobs.JobStore;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.TableCreation;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Storage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * ImportTable's engine side: the new table, its items, and its end. The import's description (kept in
 * the BACKUPS key space, {@link JobStore}) is committed in the same batch
 * as each change of its table: the table's creation, the table becoming ACTIVE, its deletion. So
 * after a crash at any instant, a table being imported always has its import's record, IN_PROGRESS
 * (the front end runs it again from the start: its puts are idempotent), and an import that ended
 * ended with its table as it must: COMPLETED (or FAILED for items that failed validation) with the
 * table ACTIVE, or FAILED with no table.
 *
 * <p>A failed import leaves no table: DynamoDB creates the table for the import and a failed one
 * (an S3 bucket that does not exist, observed against DynamoDB: docs/dynamodb/backups.md) leaves
 * none, its ImportTableDescription saying why in FailureCode and FailureMessage ("the error code
 * corresponding to the failure that the import job ran into during execution", API reference,
 * ImportTableDescription). Items that fail validation FAIL the import too, but DynamoDB keeps the
 * table with the good items (developer guide, "Import format quotas and validation").
 */
final class TableImports {

    private final Storage storage;
    private final Catalog catalog;
    private final WritePipeline pipeline;
    private final JobStore records;
    private final Clock clock;

    TableImports(Storage storage, Catalog catalog, WritePipeline pipeline, JobStore records, Clock clock) {
        this.storage = storage;
        this.catalog = catalog;
        this.pipeline = pipeline;
        this.records = records;
        this.clock = clock;
    }

    /**
     * ImportTable: creates the table, CREATING and found by no item operation until
     * {@link #finish}, and commits the import's description with it: {@code description} is
     * given the new table's definition (its TableId) and returns the description to keep.
     */
    TableDefinition start(CreateTableSpec spec, String importArn, String importId,
                                 Function<TableDefinition, byte[]> description) {
        TableDefinition.Builder draft = TableCreation.definition(spec, catalog.arns(), clock);
        draft.importArn = importArn;
        return catalog.create(draft,
                (batch, table) -> records.stage(batch, importId, description.apply(table)));
    }

    /**
     * Writes one imported item into the table (a PutItem's checks: its key, its index keys, its
     * size), without consuming capacity; a DynamoDbException says why an item is refused.
     */
    void put(TableDefinition table, Map<String, AttributeValue> item) {
        pipeline.restore(ItemWrite.put(table, ItemLimits.check(item), null, ReturnValues.NONE, false, false));
    }

    /** Keeps the import's description as it now is (its counters, as they grow). */
    void save(String importId, byte[] description) {
        records.save(importId, description);
    }

    /**
     * The import ended with its table: the table becomes ACTIVE, committed with the import's
     * final description (COMPLETED, or FAILED for items that failed validation).
     */
    void finish(long tableId, String importId, byte[] description) {
        TableDefinition table = catalog.findById(tableId);
        if (table == null || table.importArn() == null) {
            records.save(importId, description);
            return;
        }
        catalog.update(table.name(), t -> {
            if (t.id() != tableId) return t;
            TableDefinition.Builder b = t.toBuilder();
            b.importArn = null;
            return b.build();
        }, (batch, t) -> records.stage(batch, importId, description));
    }

    /** The import failed: its half-filled table is deleted, committed with the import's final description (FAILED). */
    void fail(long tableId, String importId, byte[] description) {
        TableDefinition table = catalog.findById(tableId);
        if (table == null || table.importArn() == null) {
            records.save(importId, description);
            return;
        }
        catalog.delete(table.name(), (batch, t) -> records.stage(batch, importId, description));
    }

    /** The tables imports are filling (CREATING), by name. */
    List<TableDefinition> filling() {
        List<TableDefinition> filling = new ArrayList<>();
        for (TableDefinition t : catalog.all()) if (t.importArn() != null) filling.add(t);
        return filling;
    }
}
