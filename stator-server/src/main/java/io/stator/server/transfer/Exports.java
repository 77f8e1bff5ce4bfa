package io.stator.server.transfer;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.backup.Backup;
import io.stator.engine.backup.Backups;
import io.stator.engine.table.TableDefinition;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Logger;
import java.util.zip.GZIPOutputStream;

/**
 * ExportTableToPointInTime, DescribeExport, ListExports: a table as it was at a point in time
 * (FULL_EXPORT), or its changes over a period (INCREMENTAL_EXPORT), written in DynamoDB's S3
 * export layout to an {@link ObjectStore}:
 * <pre>
 * [prefix/]AWSDynamoDB/&lt;export id&gt;/_started               empty: the export has begun
 * [prefix/]AWSDynamoDB/&lt;export id&gt;/data/&lt;26 base32&gt;.json.gz (.ion.gz), up to 100,000 items each
 *     (an incremental export's data files go to the shared [prefix/]AWSDynamoDB/data/)
 * [prefix/]AWSDynamoDB/&lt;export id&gt;/manifest-files.json   JSON lines: itemCount, md5Checksum, etag, dataFileS3Key
 * [prefix/]AWSDynamoDB/&lt;export id&gt;/manifest-summary.json
 * [prefix/]AWSDynamoDB/&lt;export id&gt;/manifest-files.md5, manifest-summary.md5: base64 MD5 of each
 * </pre>
 * as real exports have them (docs/dynamodb/backups.md has the sources: the developer guide calls
 * the checksum files ".checksum", a real export writes ".md5").
 * Exports run one at a time in the background (IN_PROGRESS, then COMPLETED or FAILED); their
 * descriptions are kept in the engine, so a server that stops mid-export runs it again from the
 * start when it starts (its files are overwritten; the table at the export's time comes from the
 * point-in-time recovery history, which an export requires).
 */
public final class Exports implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Exports.class.getName());
    private static final String KIND = "export";
    private static final int ITEMS_PER_FILE = 100_000;

    private final Engine engine;
    private final ObjectStore store;
    private final Jobs exports;

    public Exports(Engine engine, ObjectStore store) {
        this.engine = engine;
        this.store = store;
        this.exports = new Jobs(engine, KIND);
        for (JobRecord r : exports.all()) {
            if ("IN_PROGRESS".equals(r.string("ExportStatus"))) {
                LOG.info("export " + r.string("ExportArn") + " was in progress when the server stopped; starting over");
                exports.submit(() -> run(r));
            }
        }
    }

    /** An export's request, checked by the action. */
    public record Request(String tableArn, Instant exportTime, String clientToken, String s3Bucket, String s3BucketOwner,
                          String s3Prefix, String s3SseAlgorithm, String s3SseKmsKeyId, String exportFormat,
                          String exportType, Instant fromTime, Instant toTime, String viewType) {}

    /** ExportTableToPointInTime: the export's description, IN_PROGRESS. */
    public JobView start(Request request) throws IOException {
        TableDefinition table = findTable(request.tableArn());
        Backups.RecoveryWindow window = engine.backups().requireWindow(table);
        Instant now = engine.config().clock().instant();
        boolean incremental = "INCREMENTAL_EXPORT".equals(request.exportType());
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
        String tableArn = engine.catalog().arns().tableArn(table.name());
        String parameters = String.join("|", tableArn, String.valueOf(request.s3Bucket()),
                String.valueOf(request.s3BucketOwner()), String.valueOf(request.s3Prefix()),
                String.valueOf(request.s3SseAlgorithm()), String.valueOf(request.s3SseKmsKeyId()),
                String.valueOf(request.exportFormat()), String.valueOf(request.exportType()),
                String.valueOf(request.fromTime()), String.valueOf(request.toTime()), String.valueOf(request.viewType()),
                String.valueOf(request.exportTime()));
        if (request.clientToken() != null) {
            for (JobRecord r : exports.all()) {
                if (!request.clientToken().equals(r.string("ClientToken"))) continue;
                // The same request again is the same export; the same token with other parameters a conflict.
                if (parameters.equals(r.string("Parameters"))) return r;
                throw new DynamoDbException(io.stator.core.error.ErrorType.EXPORT_CONFLICT,
                        "Export conflict: Duplicate request detected with conflicting parameters");
            }
        }
        String id = Backup.newId(now);
        JobRecord r = new JobRecord().set("ExportArn", tableArn + "/export/" + id).set("ExportId", id)
                .set("ExportStatus", "IN_PROGRESS").set("StartTime", now.toEpochMilli()).set("TableArn", tableArn)
                .set("TableId", table.tableId()).set("ExportTime", incremental ? null : exportTime.toEpochMilli())
                .set("ClientToken", request.clientToken() == null ? java.util.UUID.randomUUID().toString()
                        : request.clientToken())
                .set("S3Bucket", request.s3Bucket())
                .set("S3BucketOwner", request.s3BucketOwner()).set("S3Prefix", request.s3Prefix())
                .set("S3SseAlgorithm", request.s3SseAlgorithm() == null ? "AES256" : request.s3SseAlgorithm())
                .set("S3SseKmsKeyId", request.s3SseKmsKeyId())
                .set("ExportFormat", request.exportFormat() == null ? "DYNAMODB_JSON" : request.exportFormat())
                .set("ExportType", request.exportType())
                .set("ExportFromTime", incremental ? request.fromTime().toEpochMilli() : null)
                .set("ExportToTime", incremental ? to.toEpochMilli() : null)
                .set("ExportViewType", incremental ? (request.viewType() == null ? "NEW_AND_OLD_IMAGES" : request.viewType())
                        : null)
                .set("Parameters", parameters);
        exports.save(id, r);
        LOG.info("export " + r.string("ExportArn") + " of table " + table.name() + " started");
        JobView started = r.copy(); // answered as it started, whatever its job has done meanwhile
        exports.submit(() -> run(r));
        return started;
    }

    /**
     * An export of the table as it is now, without point-in-time recovery, run at once on the
     * calling thread: the command line's {@code stator export}, on a server's data directory.
     */
    public JobView exportNow(String tableName, String bucket, String prefix, String format) throws IOException {
        TableDefinition table = engine.catalog().find(tableName);
        if (table == null) throw new IOException("no table " + tableName + " in this data directory");
        Instant now = engine.config().clock().instant();
        String id = Backup.newId(now);
        String tableArn = engine.catalog().arns().tableArn(table.name());
        JobRecord r = new JobRecord().set("ExportArn", tableArn + "/export/" + id).set("ExportId", id)
                .set("ExportStatus", "IN_PROGRESS").set("StartTime", now.toEpochMilli()).set("TableArn", tableArn)
                .set("TableId", table.tableId()).set("ExportTime", now.toEpochMilli()).set("S3Bucket", bucket)
                .set("S3Prefix", prefix).set("S3SseAlgorithm", "AES256").set("ExportFormat", format)
                .set("Offline", "now").set("ItemCount", 0L);
        current = r;
        run(r);
        return r;
    }

    /** The export {@link #exportNow} is running, for the command line's progress line. */
    private volatile JobView current;

    /** The job running or last run, for the command line's progress line; null before the first. */
    public JobView running() {
        return current;
    }

    /** The table a TableArn names: it must be an ARN (DynamoDB's texts, docs/dynamodb/backups.md). */
    private TableDefinition findTable(String tableArn) {
        if (!tableArn.startsWith("arn:")) {
            throw DynamoDbException.validation("One or more parameter values were invalid: tableArn is not a valid ARN");
        }
        TableDefinition table = engine.catalog().find(engine.catalog().arns().tableName(tableArn));
        if (table == null || table.filling()) {
            throw new DynamoDbException(io.stator.core.error.ErrorType.TABLE_NOT_FOUND, "Table not found: " + tableArn);
        }
        return table;
    }

    private static DynamoDbException invalidExportTime(String message) {
        return new DynamoDbException(io.stator.core.error.ErrorType.INVALID_EXPORT_TIME, message);
    }

    /** DescribeExport: the export of that ARN; ExportNotFoundException (its text doubled, as DynamoDB's is). */
    public JobView describe(String exportArn) {
        JobRecord r = exports.find(exportArn, "ExportArn");
        if (r == null) {
            throw new DynamoDbException(io.stator.core.error.ErrorType.EXPORT_NOT_FOUND,
                    "Export not found: Export not found: " + exportArn);
        }
        return r;
    }

    /** ListExports: the exports (of a table, when given), newest first. */
    public List<JobView> list(String tableArn) {
        return exports.list(tableArn);
    }

    // ---- the export itself ------------------------------------------------------------------------

    private void run(JobRecord r) {
        String id = r.string("ExportId");
        try {
            write(r);
            r.set("ExportStatus", "COMPLETED").set("EndTime", engine.config().clock().millis());
            LOG.info("export " + r.string("ExportArn") + " COMPLETED: " + r.number("ItemCount") + " items, "
                    + r.number("BilledSizeBytes") + " bytes");
            if (r.has("Offline")) return;
        } catch (IOException | RuntimeException e) {
            if (exports.closed()) return; // still IN_PROGRESS: the next start runs it again
            if (r.has("Offline")) throw new IllegalStateException("export failed: " + e.getMessage(), e);
            r.set("ExportStatus", "FAILED").set("EndTime", engine.config().clock().millis())
                    .set("FailureCode", e instanceof NoSuchBucket ? "S3NoSuchBucket"
                            : e instanceof IOException ? "S3WriteFailed" : "InternalError")
                    .set("FailureMessage", String.valueOf(e.getMessage()));
            LOG.warning("export " + r.string("ExportArn") + " FAILED: " + e);
        }
        exports.save(id, r);
    }

    private void write(JobRecord r) throws IOException {
        String id = r.string("ExportId");
        TableDefinition table = engine.catalog().find(engine.catalog().arns().tableName(r.string("TableArn")));
        if (table == null) throw new IOException("the table was deleted during the export");
        String bucket = r.string("S3Bucket");
        store.prepareBucket(bucket);
        if (!store.bucketExists(bucket)) throw new NoSuchBucket();
        String root = (r.string("S3Prefix") == null ? "" : r.string("S3Prefix").replaceAll("/+$", "") + "/") + "AWSDynamoDB/";
        String base = root + id + "/";
        boolean incremental = "INCREMENTAL_EXPORT".equals(r.string("ExportType"));
        ItemFormats.Format format = ItemFormats.Format.valueOf(r.string("ExportFormat"));
        String extension = format == ItemFormats.Format.ION ? ".ion.gz" : ".json.gz";
        store.put(bucket, base + "_started", new byte[0]);

        DataFiles files = new DataFiles(bucket, (incremental ? root : base) + "data/", extension, format, r);
        if (incremental) {
            boolean oldImages = "NEW_AND_OLD_IMAGES".equals(r.string("ExportViewType"));
            engine.backups().changesBetween(table, Instant.ofEpochMilli(r.number("ExportFromTime")),
                    Instant.ofEpochMilli(r.number("ExportToTime")), change -> files.change(change, oldImages));
        } else {
            // The command line's export reads the table as it is; the API's, as it was at its time.
            engine.backups().itemsAt(table, r.has("Offline") ? null : Instant.ofEpochMilli(r.number("ExportTime")),
                    files::item);
        }
        files.finish();

        String manifestFiles = base + "manifest-files.json";
        byte[] filesManifest = files.manifest.toString().getBytes(StandardCharsets.UTF_8);
        store.put(bucket, manifestFiles, filesManifest);
        store.put(bucket, base + "manifest-files.md5", md5Base64(filesManifest));
        r.set("ExportManifest", base + "manifest-summary.json");
        byte[] summary = summary(r, manifestFiles, incremental).getBytes(StandardCharsets.UTF_8);
        store.put(bucket, base + "manifest-summary.json", summary);
        store.put(bucket, base + "manifest-summary.md5", md5Base64(summary));
    }

    /** S3's answer when the bucket is missing, as a failed export reports it. */
    private static final class NoSuchBucket extends IOException {
        NoSuchBucket() {
            super("The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket)");
        }
    }

    /** The data files being written: a new one every {@link #ITEMS_PER_FILE} items. */
    private final class DataFiles {
        final String bucket;
        final String dir;
        final String extension;
        final ItemFormats.Format format;
        final JobRecord record;
        final StringBuilder manifest = new StringBuilder();
        ByteArrayOutputStream bytes;
        ItemFormats.Writer writer;
        long fileItems;
        long items;
        long billed;

        DataFiles(String bucket, String dir, String extension, ItemFormats.Format format, JobRecord record) {
            this.bucket = bucket;
            this.dir = dir;
            this.extension = extension;
            this.format = format;
            this.record = record;
        }

        void item(Map<String, AttributeValue> item) throws IOException {
            open().item(item);
            counted(ItemSize.of(item));
        }

        void change(Backups.ItemChange change, boolean oldImages) throws IOException {
            open().change(change.writeTimeMillis() * 1000, change.keys(), change.newImage(),
                    oldImages ? change.oldImage() : null);
            counted(change.newImage() == null ? 0 : ItemSize.of(change.newImage()));
        }

        private ItemFormats.Writer open() throws IOException {
            if (writer == null) {
                bytes = new ByteArrayOutputStream();
                writer = new ItemFormats.Writer(format, new GZIPOutputStream(bytes));
                fileItems = 0;
            }
            return writer;
        }

        private void counted(long size) throws IOException {
            if (exports.closed()) throw new IOException("the server is stopping");
            items++;
            billed += size;
            if (++fileItems == ITEMS_PER_FILE) closeFile();
            if (items % 10_000 == 0) record.set("ItemCount", items).set("BilledSizeBytes", billed);
            if (items % ITEMS_PER_FILE == 0) {
                if (!record.has("Offline")) exports.save(record.string("ExportId"), record);
                LOG.info("export " + record.string("ExportArn") + ": " + items + " items written");
            }
        }

        private void closeFile() throws IOException {
            writer.close();
            byte[] content = bytes.toByteArray();
            String key = dir + dataFileName() + extension;
            store.put(bucket, key, content);
            manifest.append("{\"itemCount\":").append(fileItems).append(",\"md5Checksum\":\"")
                    .append(Base64.getEncoder().encodeToString(md5(content))).append("\",\"etag\":\"")
                    .append(HexFormat.of().formatHex(md5(content))).append("\",\"dataFileS3Key\":\"").append(key)
                    .append("\"}\n");
            writer = null;
        }

        void finish() throws IOException {
            if (writer == null && items == 0) open(); // an empty table still gets one (empty) data file
            if (writer != null) closeFile();
            record.set("ItemCount", items).set("BilledSizeBytes", billed);
        }
    }

    /** 26 lowercase base32 characters, as DynamoDB names its data files. */
    private static String dataFileName() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        StringBuilder name = new StringBuilder(26);
        for (int i = 0; i < 26; i++) name.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(32)));
        return name.toString();
    }

    /** manifest-summary.json, field for field as a real export's (docs/dynamodb/backups.md). */
    private String summary(JobRecord r, String manifestFilesKey, boolean incremental) {
        StringBuilder s = new StringBuilder("{");
        s.append("\"version\":\"").append(incremental ? "2023-08-01" : "2020-06-30").append('"');
        field(s, "exportArn", r.string("ExportArn"));
        field(s, "startTime", Instant.ofEpochMilli(r.number("StartTime")).toString());
        field(s, "endTime", engine.config().clock().instant().toString());
        field(s, "tableArn", r.string("TableArn"));
        field(s, "tableId", r.string("TableId"));
        if (incremental) {
            field(s, "exportFromTime", Instant.ofEpochMilli(r.number("ExportFromTime")).toString());
            field(s, "exportToTime", Instant.ofEpochMilli(r.number("ExportToTime")).toString());
        } else {
            field(s, "exportTime", Instant.ofEpochMilli(r.number("ExportTime")).toString());
        }
        field(s, "s3Bucket", r.string("S3Bucket"));
        field(s, "s3Prefix", r.string("S3Prefix"));
        field(s, "s3SseAlgorithm", r.string("S3SseAlgorithm"));
        field(s, "s3SseKmsKeyId", r.string("S3SseKmsKeyId"));
        field(s, "manifestFilesS3Key", manifestFilesKey);
        s.append(",\"billedSizeBytes\":").append(r.number("BilledSizeBytes"));
        s.append(",\"itemCount\":").append(r.number("ItemCount"));
        field(s, "outputFormat", r.string("ExportFormat"));
        if (incremental) {
            field(s, "outputView", r.string("ExportViewType"));
            field(s, "exportType", "INCREMENTAL_EXPORT");
        }
        return s.append("}").toString();
    }

    private static void field(StringBuilder s, String name, String value) {
        s.append(",\"").append(name).append("\":");
        if (value == null) s.append("null");
        else s.append('"').append(value.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }

    private static byte[] md5(byte[] content) {
        try {
            return MessageDigest.getInstance("MD5").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] md5Base64(byte[] content) {
        return Base64.getEncoder().encode(md5(content));
    }

    /** Waits for the exports queued so far (tests, the command line). */
    public void awaitIdle() throws Exception {
        exports.awaitIdle();
    }

    @Override
    public void close() {
        exports.close();
    }
}
