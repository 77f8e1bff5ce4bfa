package io.stator.engine.transfer;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.backup.Backup;
import io.stator.engine.backup.PointInTimeRecovery;
import io.stator.engine.jobs.JobRunner;
import io.stator.engine.jobs.JobStore;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Storage;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * ExportTableToPointInTime, DescribeExport, ListExports: a table as it was at a point in time
 * (FULL_EXPORT), or its changes over a period (INCREMENTAL_EXPORT), read from point-in-time
 * recovery's history and written by the front end's {@link ExportSink} (DynamoDB's S3 export
 * layout). Exports run one at a time on their lane of the engine's {@link JobRunner}
 * (IN_PROGRESS, then COMPLETED or FAILED); their descriptions are kept, so a server that stops
 * mid-export runs it again from the start when it starts (its files are overwritten; the table at
 * the export's time comes from the point-in-time recovery history, which an export requires).
 */
public final class Exports implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Exports.class.getName());

    private final Catalog catalog;
    private final PointInTimeRecovery recovery;
    private final Clock clock;
    private final JobRunner.Lane lane;
    private final ExportSink sink;
    private final Descriptions<ExportDescription> exports;
    /** The export {@link #exportNow} is running, for the command line's progress line. */
    private volatile ExportDescription current;

    /** An export's request, checked by the action. */
    public record Request(String tableArn, Instant exportTime, String clientToken, String s3Bucket, String s3BucketOwner,
                          String s3Prefix, String s3SseAlgorithm, String s3SseKmsKeyId,
                          ExportDescription.Format exportFormat, ExportDescription.Type exportType, Instant fromTime,
                          Instant toTime, ExportDescription.ViewType viewType) {}

    public Exports(Storage storage, Catalog catalog, PointInTimeRecovery recovery, Clock clock, JobRunner.Lane lane,
                   ExportSink sink) {
        this.catalog = catalog;
        this.recovery = recovery;
        this.clock = clock;
        this.lane = lane;
        this.sink = sink;
        this.exports = new Descriptions<>(new JobStore(storage, "export"), "export", new Descriptions.Form<>(
                ExportDescription::decode, ExportDescription::encode, ExportDescription::exportArn,
                ExportDescription::tableArn, d -> d.status() == ExportDescription.Status.IN_PROGRESS));
        for (ExportDescription d : exports.all()) {
            if (d.status() == ExportDescription.Status.IN_PROGRESS) {
                LOG.info("export " + d.exportArn() + " was in progress when the server stopped; starting over");
                submit(d, true);
            }
        }
    }

    /**
     * Where several servers share the store, submits again the exports in progress: the one
     * holding an export's lease runs it, another once that one died and its lease expired.
     */
    public void sweep() {
        for (ExportDescription d : exports.all()) {
            if (d.status() == ExportDescription.Status.IN_PROGRESS) submit(d, true);
        }
    }

    /** Runs the export where this server holds its lease, unless it ended meanwhile ({@code found}: adopted). */
    private void submit(ExportDescription d, boolean found) {
        Runnable export = () -> {
            if (exports.inProgress(d.exportId())) run(d);
        };
        if (found) lane.adopt("export/" + d.exportId(), export);
        else lane.submit("export/" + d.exportId(), export);
    }

    /** ExportTableToPointInTime: the export's description, IN_PROGRESS. */
    public ExportDescription start(Request request) {
        TableDefinition table = findTable(request.tableArn());
        PointInTimeRecovery.RecoveryWindow window = recovery.requireWindow(table);
        Instant now = clock.instant();
        boolean incremental = request.exportType() == ExportDescription.Type.INCREMENTAL_EXPORT;
        Instant exportTime = request.exportTime() == null ? now : request.exportTime();
        Instant to = null;
        if (incremental) {
            // The texts recorded from DynamoDB (docs/dynamodb/backups.md); the period is 15 minutes to 24 hours.
            Instant from = request.fromTime();
            to = request.toTime() == null ? now : request.toTime();
            if (from == null) throw DynamoDbException.validation("Invalid Request: ExportFromTime must be provided in "
                    + "IncrementalExportSpecification");
            if (Duration.between(from, to).compareTo(Duration.ofMinutes(15)) < 0) {
                throw invalidExportTime("Difference between export period from time and export period to time is less "
                        + "than 15 minutes");
            }
            if (Duration.between(from, to).compareTo(Duration.ofHours(24)) > 0) {
                throw invalidExportTime("Difference between export period from time and export period to time is more "
                        + "than 24 hours");
            }
            if (from.isBefore(table.creationDateTime())) {
                throw invalidExportTime("Incremental export period from time cannot be less than the table creation "
                        + "time : " + table.creationDateTime());
            }
            if (to.isAfter(now)) {
                throw invalidExportTime("Incremental export period to time cannot be greater than the current time : " + now);
            }
            if (from.isBefore(window.earliestRestorable())) {
                throw invalidExportTime("Point in Time Recovery is not available for specified export time");
            }
        } else if (exportTime.isAfter(now) || exportTime.isBefore(window.earliestRestorable())) {
            throw invalidExportTime("Export Time is invalid");
        }
        String tableArn = catalog.arns().tableArn(table.name());
        String parameters = String.join("|", tableArn, String.valueOf(request.s3Bucket()),
                String.valueOf(request.s3BucketOwner()), String.valueOf(request.s3Prefix()),
                String.valueOf(request.s3SseAlgorithm()), String.valueOf(request.s3SseKmsKeyId()),
                String.valueOf(request.exportFormat()), String.valueOf(request.exportType()),
                String.valueOf(request.fromTime()), String.valueOf(request.toTime()), String.valueOf(request.viewType()),
                String.valueOf(request.exportTime()));
        if (request.clientToken() != null) {
            for (ExportDescription d : exports.all()) {
                if (!request.clientToken().equals(d.clientToken())) continue;
                // The same request again is the same export; the same token with other parameters a conflict.
                if (parameters.equals(d.parameters())) return d;
                throw new DynamoDbException(ErrorType.EXPORT_CONFLICT,
                        "Export conflict: Duplicate request detected with conflicting parameters");
            }
        }
        String id = Backup.newId(now);
        ExportDescription started = new ExportDescription(tableArn + "/export/" + id, id,
                ExportDescription.Status.IN_PROGRESS, now, null, null, tableArn, table.tableId(),
                incremental ? null : exportTime,
                request.clientToken() == null ? UUID.randomUUID().toString() : request.clientToken(),
                request.s3Bucket(), request.s3BucketOwner(), request.s3Prefix(),
                request.s3SseAlgorithm() == null ? "AES256" : request.s3SseAlgorithm(), request.s3SseKmsKeyId(), null,
                null, request.exportFormat() == null ? ExportDescription.Format.DYNAMODB_JSON : request.exportFormat(),
                null, null, request.exportType(), incremental ? request.fromTime() : null, incremental ? to : null,
                incremental ? (request.viewType() == null ? ExportDescription.ViewType.NEW_AND_OLD_IMAGES
                        : request.viewType()) : null, parameters, false);
        exports.save(id, started);
        LOG.info("export " + started.exportArn() + " of table " + table.name() + " started");
        submit(started, false);
        return started; // answered as it started, whatever its job has done meanwhile
    }

    /**
     * An export of the table as it is now, without point-in-time recovery, run at once on the
     * calling thread and never kept: the command line's {@code stator export}, on a server's data
     * directory.
     */
    public ExportDescription exportNow(String tableName, String bucket, String prefix, ExportDescription.Format format)
            throws IOException {
        TableDefinition table = catalog.find(tableName);
        if (table == null) throw new IOException("no table " + tableName + " in this data directory");
        Instant now = clock.instant();
        String id = Backup.newId(now);
        String tableArn = catalog.arns().tableArn(table.name());
        ExportDescription d = new ExportDescription(tableArn + "/export/" + id, id, ExportDescription.Status.IN_PROGRESS,
                now, null, null, tableArn, table.tableId(), now, null, bucket, null, prefix, "AES256", null, null, null,
                format, null, 0L, null, null, null, null, null, true);
        current = d;
        return run(d);
    }

    /** The export running or last run, for the command line's progress line; null before the first. */
    public ExportDescription running() {
        return current;
    }

    /** The table a TableArn names: it must be an ARN (DynamoDB's texts, docs/dynamodb/backups.md). */
    private TableDefinition findTable(String tableArn) {
        if (!tableArn.startsWith("arn:")) {
            throw DynamoDbException.validation("One or more parameter values were invalid: tableArn is not a valid ARN");
        }
        TableDefinition table = catalog.find(catalog.arns().tableName(tableArn));
        if (table == null || table.filling()) {
            throw new DynamoDbException(ErrorType.TABLE_NOT_FOUND, "Table not found: " + tableArn);
        }
        return table;
    }

    private static DynamoDbException invalidExportTime(String message) {
        return new DynamoDbException(ErrorType.INVALID_EXPORT_TIME, message);
    }

    /** DescribeExport: the export of that ARN; ExportNotFoundException (its text doubled, as DynamoDB's is). */
    public ExportDescription describe(String exportArn) {
        ExportDescription d = exports.find(exportArn);
        if (d == null) {
            throw new DynamoDbException(ErrorType.EXPORT_NOT_FOUND, "Export not found: Export not found: " + exportArn);
        }
        return d;
    }

    /** ListExports: the exports (of a table, when given), newest first. */
    public List<ExportDescription> list(String tableArn) {
        return exports.list(tableArn);
    }

    // ---- the export itself ------------------------------------------------------------------------

    /** One run of an export: its counts as they grow. */
    private final class Run {
        ExportDescription d;
        final ExportSink.Files files;
        long items;
        long billed;

        Run(ExportDescription d, ExportSink.Files files) {
            this.d = d;
            this.files = files;
        }

        void item(Map<String, AttributeValue> item) throws IOException {
            files.item(item);
            counted(ItemSize.of(item));
        }

        void change(PointInTimeRecovery.ItemChange change, boolean oldImages) throws IOException {
            files.change(change, oldImages);
            counted(change.newImage() == null ? 0 : ItemSize.of(change.newImage()));
        }

        private void counted(long size) throws IOException {
            if (lane.closed()) throw new IOException("the server is stopping");
            items++;
            billed += size;
            if (items % 10_000 == 0) publish(d.counted(items, billed));
            if (items % 100_000 == 0) {
                if (!d.offline()) exports.save(d.exportId(), d);
                LOG.info("export " + d.exportArn() + ": " + items + " items written");
            }
        }

        void publish(ExportDescription now) {
            d = now;
            if (d.offline()) current = d;
            else exports.show(d.exportId(), d);
        }
    }

    private ExportDescription run(ExportDescription started) {
        ExportDescription ended;
        try {
            Run run = write(started);
            ended = run.d.ended(ExportDescription.Status.COMPLETED, clock.instant(), null, null);
            LOG.info("export " + ended.exportArn() + " COMPLETED: " + ended.itemCount() + " items, "
                    + ended.billedSizeBytes() + " bytes");
            if (started.offline()) {
                current = ended;
                return ended;
            }
        } catch (IOException | RuntimeException e) {
            if (lane.closed()) return started; // still IN_PROGRESS: the next start runs it again
            if (started.offline()) throw new IllegalStateException("export failed: " + e.getMessage(), e);
            ExportDescription now = exports.find(started.exportArn()); // with its counts so far
            ended = (now == null ? started : now).ended(ExportDescription.Status.FAILED, clock.instant(),
                    e instanceof ExportSink.NoSuchBucket ? "S3NoSuchBucket"
                            : e instanceof IOException ? "S3WriteFailed" : "InternalError", String.valueOf(e.getMessage()));
            LOG.warning("export " + ended.exportArn() + " FAILED: " + e);
        }
        exports.save(ended.exportId(), ended);
        return ended;
    }

    /** Writes the export's items (or changes) and its manifests; the run, with its counts. */
    private Run write(ExportDescription started) throws IOException {
        TableDefinition table = catalog.find(catalog.arns().tableName(started.tableArn()));
        if (table == null) throw new IOException("the table was deleted during the export");
        Run run = new Run(started, sink.open(started));
        if (started.incremental()) {
            boolean oldImages = started.exportViewType() == ExportDescription.ViewType.NEW_AND_OLD_IMAGES;
            recovery.changesBetween(table, started.exportFromTime(), started.exportToTime(),
                    change -> run.change(change, oldImages));
        } else {
            // The command line's export reads the table as it is; the API's, as it was at its time.
            recovery.itemsAt(table, started.offline() ? null : started.exportTime(), run::item);
        }
        run.publish(run.d.counted(run.items, run.billed));
        run.publish(run.d.withManifest(run.files.finish(run.d, clock.instant())));
        return run;
    }

    /** Waits for the exports queued so far (tests, the command line). */
    public void awaitIdle() throws InterruptedException {
        lane.awaitIdle();
    }

    /** Stops the running export at its next item (it stays IN_PROGRESS and runs again at the next start). */
    @Override
    public void close() {
        lane.close();
    }
}
