package io.stator.engine.transfer;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.engine.backup.Backup;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.jobs.JobStore;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.WritePipeline;
import io.stator.storage.Storage;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * ImportTable, DescribeImport, ListImports: a new table filled from every object under an S3 key
 * prefix, read by the front end's {@link ImportSource}. As DynamoDB does (docs/dynamodb/backups.md,
 * from its developer guide and tests run against it):
 * <ul>
 *   <li>the table is created at once, CREATING (item operations do not find it) until the end;</li>
 *   <li>every object under the prefix is read (the format given decides, not the key's extension);
 *       empty lines are skipped; a line that is not an item, or an item DynamoDB would refuse (no
 *       key, a key of the wrong type, too large), is an error, logged with where it is (the server's
 *       log stands in for CloudWatch), and the rest of that object is skipped: a bad line never stops
 *       the import;</li>
 *   <li>ProcessedItemCount = ImportedItemCount + ErrorCount; an item whose key repeats overwrites
 *       the earlier one and counts as imported; ProcessedSizeBytes counts the uncompressed bytes;</li>
 *   <li>the import ends COMPLETED without errors, else FAILED (ItemValidationError) with the good
 *       items in and the table ACTIVE; an import from a bucket that does not exist FAILS
 *       (S3NoSuchBucket) and leaves no table.</li>
 * </ul>
 * Stator shows the counters as they grow (DynamoDB shows them at the end only).
 *
 * <p>Whatever is killed when, an import ends as DynamoDB ends one: COMPLETED, or FAILED (with no
 * table, or for items that failed validation with its table ACTIVE). The import's description is
 * committed with each change of its table ({@link TableImports}): the table's creation, its
 * becoming ACTIVE, its deletion; so an import in progress when the server stops is found with its
 * table, and runs again from the start (its puts are idempotent, the table CREATING until the
 * end), to COMPLETED with exactly the items of its files. Imports run on their lane of the
 * engine's {@link JobRunner}.
 */
public final class Imports implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Imports.class.getName());

    private final Catalog catalog;
    private final Clock clock;
    private final JobRunner.Lane lane;
    private final ImportSource source;
    private final TableImports tables;
    private final Descriptions<ImportDescription> imports;
    /** The import running or last run, for the command line's progress line; null before the first. */
    private volatile ImportDescription current;

    /** An import's request, as the action read it. */
    public record Request(String clientToken, String s3Bucket, String s3BucketOwner, String s3KeyPrefix,
                          ImportDescription.InputFormat inputFormat, String csvDelimiter, List<String> csvHeaders,
                          ImportDescription.Compression compression, CreateTableSpec table) {}

    public Imports(Storage storage, Catalog catalog, WritePipeline pipeline, Clock clock, JobRunner.Lane lane,
                   ImportSource source) {
        this.catalog = catalog;
        this.clock = clock;
        this.lane = lane;
        this.source = source;
        JobStore store = new JobStore(storage, "import");
        this.tables = new TableImports(storage, catalog, pipeline, store, clock);
        this.imports = new Descriptions<>(store, "import", new Descriptions.Form<>(ImportDescription::decode,
                ImportDescription::encode, ImportDescription::importArn, ImportDescription::tableArn,
                d -> d.status() == ImportDescription.Status.IN_PROGRESS));
        resume();
    }

    /**
     * Where several servers share the store, submits again the imports in progress (the one
     * holding an import's lease runs it; when that server dies, another takes it over once the
     * lease expires). Nothing is failed here: a table another server has just created may not be
     * in this server's catalog yet.
     */
    public void sweep() {
        for (ImportDescription d : imports.all()) {
            if (d.status() != ImportDescription.Status.IN_PROGRESS) continue;
            TableDefinition table = catalog.find(d.tableName());
            if (table != null && d.importArn().equals(table.importArn())) submit(d, table, true);
        }
    }

    /** Runs the import where this server holds its lease, unless it ended meanwhile ({@code found}: adopted). */
    private void submit(ImportDescription d, TableDefinition table, boolean found) {
        Runnable load = () -> {
            if (imports.inProgress(d.importId())) run(d, table);
        };
        if (found) lane.adopt("import/" + d.importId(), load);
        else lane.submit("import/" + d.importId(), load);
    }

    /** Runs again the imports a stopped server left in progress; fails those it cannot finish. */
    private void resume() {
        Set<String> running = new HashSet<>();
        for (ImportDescription d : imports.all()) {
            if (d.status() != ImportDescription.Status.IN_PROGRESS) continue;
            TableDefinition table = catalog.find(d.tableName());
            if (table != null && d.importArn().equals(table.importArn())) {
                LOG.info("import " + d.importArn() + " was in progress when the server stopped; starting over");
                running.add(d.importArn());
                submit(d, table, true);
            } else {
                // Only a server older than the one commit left an import without its table. On the
                // jobs' lane, as every write at start (a server may start on a full disk).
                lane.submit(() -> imports.save(d.importId(), d.ended(ImportDescription.Status.FAILED, clock.instant(),
                        "InternalError", "The server stopped during the import")));
            }
        }
        for (TableDefinition t : tables.filling()) {
            if (running.contains(t.importArn())) continue;
            // A table being imported without its import's record: a server older than the one
            // commit stopped between the two. Nothing can finish it: FAILED, and the name free again.
            String id = t.importArn().substring(t.importArn().lastIndexOf('/') + 1);
            ImportDescription failed = new ImportDescription(t.importArn(), id, ImportDescription.Status.FAILED,
                    catalog.arns().tableArn(t.name()), t.tableId(), t.name(), UUID.randomUUID().toString(), null, null,
                    null, null, null, null, null, t.creationDateTime(), clock.instant(), 0, 0, 0, 0, "InternalError",
                    "The server stopped during the import");
            LOG.warning("table " + t.name() + " was being imported without its import's record; the import "
                    + t.importArn() + " FAILED and the table is deleted");
            lane.submit(() -> {
                tables.fail(t.id(), id, failed.encode());
                imports.show(id, failed);
            });
        }
    }

    /** The import running or last run, for the command line's progress line; null before the first. */
    public ImportDescription running() {
        return current;
    }

    /** ImportTable: creates the table (CREATING) and starts filling it; the import's description, IN_PROGRESS. */
    public ImportDescription start(Request request) {
        Instant now = clock.instant();
        String tableName = catalog.arns().tableName(request.table().tableName());
        if (request.clientToken() != null) {
            for (ImportDescription d : imports.all()) {
                if (!request.clientToken().equals(d.clientToken()) || d.status() != ImportDescription.Status.IN_PROGRESS) {
                    continue;
                }
                // While in progress the same token is the same import; with another table a conflict.
                if (tableName.equals(d.tableName())) return d;
                throw new DynamoDbException(ErrorType.IMPORT_CONFLICT,
                        "Import conflict: Duplicate request detected with conflicting parameters");
            }
        }
        if (catalog.find(tableName) != null) {
            throw DynamoDbException.resourceInUse("Table already exists: " + tableName);
        }
        String id = Backup.newId(now);
        String tableArn = catalog.arns().tableArn(tableName);
        String importArn = tableArn + "/import/" + id;
        ImportDescription requested = new ImportDescription(importArn, id, ImportDescription.Status.IN_PROGRESS,
                tableArn, null, tableName, request.clientToken() == null ? UUID.randomUUID().toString()
                : request.clientToken(), request.s3Bucket(), request.s3BucketOwner(), request.s3KeyPrefix(),
                request.inputFormat(), request.csvDelimiter(), request.csvHeaders(),
                request.compression() == null ? ImportDescription.Compression.NONE : request.compression(), now, null,
                0, 0, 0, 0, null, null);
        // The table and the import's record in one commit: neither is ever found without the other.
        ImportDescription[] started = new ImportDescription[1];
        TableDefinition table = tables.start(request.table(), importArn, id, created -> {
            started[0] = requested.withTableId(created.tableId());
            return started[0].encode();
        });
        imports.show(id, started[0]);
        LOG.info("import " + importArn + " into table " + tableName + " started");
        submit(started[0], table, false);
        // ImportTable answers the import as it started (IN_PROGRESS), whatever its job has
        // done by the time the answer is written.
        return started[0];
    }

    /** The table an import created, as it was created (DescribeImport's TableCreationParameters). */
    public TableDefinition table(ImportDescription d) {
        TableDefinition t = catalog.find(d.tableName());
        return t != null && t.tableId().equals(d.tableId()) ? t : null;
    }

    /** DescribeImport: the import of that ARN, or ImportNotFoundException. */
    public ImportDescription describe(String importArn) {
        ImportDescription d = imports.find(importArn);
        if (d == null) {
            // DynamoDB's text for this one is not recorded.
            throw new DynamoDbException(ErrorType.IMPORT_NOT_FOUND, "Import not found: " + importArn);
        }
        return d;
    }

    /** ListImports: the imports (into a table, when given), newest first. */
    public List<ImportDescription> list(String tableArn) {
        return imports.list(tableArn);
    }

    // ---- the import itself ------------------------------------------------------------------------

    /** One run of an import: its counters as they grow, shown as they change. */
    private final class Run implements ImportSource.Items {
        final TableDefinition table;
        ImportDescription d;
        String key;
        int index;
        boolean stopped;

        Run(ImportDescription d, TableDefinition table) {
            this.d = d.counted(0, 0, 0, 0);
            this.table = table;
            show();
        }

        void show() {
            imports.show(d.importId(), d);
        }

        void add(long processed, long imported, long errors, long sizeBytes) {
            d = d.counted(d.processedItemCount() + processed, d.importedItemCount() + imported,
                    d.errorCount() + errors, d.processedSizeBytes() + sizeBytes);
            show();
        }

        @Override
        public void size(long uncompressedBytes) {
            add(0, 0, 0, uncompressedBytes);
        }

        /** Puts one item, or counts its error; false when the rest of the object is to be skipped. */
        @Override
        public boolean item(Map<String, AttributeValue> item, RuntimeException error) {
            if (stopped || lane.closed()) return false;
            int at = index++;
            add(1, 0, 0, 0);
            current = d;
            if (error == null) {
                try {
                    tables.put(table, item);
                    add(0, 1, 0, 0);
                    current = d;
                    if (d.importedItemCount() % 100_000 == 0) {
                        imports.save(d.importId(), d);
                        LOG.info("import " + d.importArn() + ": " + d.importedItemCount() + " items imported");
                    }
                    return true;
                } catch (RuntimeException e) {
                    error = e;
                }
            }
            error(key, at, error instanceof DynamoDbException x ? x.getMessage() : String.valueOf(error));
            stopped = true;
            return false;
        }

        /** Counts an error; an object that cannot be read at all counts as one item processed, in error. */
        void error(String object, int itemIndex, String message) {
            add(0, 0, 1, 0);
            // What DynamoDB writes to CloudWatch Logs (/aws-dynamodb/imports), to the server's log.
            LOG.warning("import " + d.importArn() + ": {\"itemS3Pointer\":{\"bucket\":\"" + d.s3Bucket()
                    + "\",\"key\":\"" + object + "\",\"itemIndex\":" + itemIndex + "},\"errorMessages\":[\"" + message
                    + "\"]}");
        }

        /** Reads one object: every item in, up to its first bad line. */
        void readObject(String object) {
            key = object;
            index = 0;
            stopped = false;
            try {
                source.read(d, table, object, this);
            } catch (ImportSource.Unreadable e) {
                add(1, 0, 0, 0);
                error(object, 0, e.getMessage());
            }
        }
    }

    private void run(ImportDescription started, TableDefinition table) {
        Run run = new Run(started, table);
        try {
            List<String> keys;
            try {
                keys = source.objects(started.s3Bucket(), started.s3KeyPrefix() == null ? "" : started.s3KeyPrefix());
            } catch (IOException e) {
                fail(run.d, table, "S3NoSuchBucket",
                        "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket)");
                return;
            }
            for (String key : keys) {
                if (lane.closed()) return; // still IN_PROGRESS, its table CREATING: the next start runs it again
                run.readObject(key);
            }
            if (lane.closed()) return;
            if (run.d.errorCount() == 0) {
                finish(run.d, table, ImportDescription.Status.COMPLETED, null, null);
            } else {
                finish(run.d, table, ImportDescription.Status.FAILED, "ItemValidationError", "Some of the items failed "
                        + "validation checks and were not imported. Please check CloudWatch error logs for more details.");
            }
        } catch (RuntimeException e) {
            if (lane.closed()) return;
            LOG.warning("import " + started.importArn() + " failed: " + e);
            fail(run.d, table, "InternalError", String.valueOf(e.getMessage()));
        }
    }

    /** The import ends with its table ACTIVE, committed with its description. */
    private void finish(ImportDescription d, TableDefinition table, ImportDescription.Status status, String failureCode,
                        String failureMessage) {
        ImportDescription ended = d.ended(status, clock.instant(), failureCode, failureMessage);
        committed(d, ended, () -> tables.finish(table.id(), d.importId(), ended.encode()));
    }

    /** The import FAILED: its table is deleted, committed with its description. */
    private void fail(ImportDescription d, TableDefinition table, String failureCode, String failureMessage) {
        ImportDescription ended = d.ended(ImportDescription.Status.FAILED, clock.instant(), failureCode, failureMessage);
        committed(d, ended, () -> tables.fail(table.id(), d.importId(), ended.encode()));
    }

    /**
     * Commits an import's end; when the storage refuses it (a full disk), the import is shown
     * IN_PROGRESS, as it is kept: the next start runs it again.
     */
    private void committed(ImportDescription running, ImportDescription ended, Runnable commit) {
        imports.show(ended.importId(), ended);
        current = ended;
        try {
            commit.run();
        } catch (RuntimeException e) {
            imports.show(running.importId(), running);
            current = running;
            LOG.warning("import " + running.importArn() + " could not end: " + e + "; it runs again at the next start");
            return;
        }
        LOG.info("import " + ended.importArn() + " " + ended.status() + ": " + ended.processedItemCount()
                + " processed, " + ended.importedItemCount() + " imported, " + ended.errorCount() + " errors");
    }

    /** Waits for the imports queued so far (tests, the command line). */
    public void awaitIdle() throws InterruptedException {
        lane.awaitIdle();
    }

    /** Stops the running import at its next item (it stays IN_PROGRESS and runs again at the next start). */
    @Override
    public void close() {
        lane.close();
    }
}
