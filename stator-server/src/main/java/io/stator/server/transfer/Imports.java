package io.stator.server.transfer;

import com.github.luben.zstd.ZstdInputStream;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.Engine;
import io.stator.engine.backup.Backup;
import io.stator.engine.backup.TableImports;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.TableDefinition;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import java.util.zip.GZIPInputStream;

/**
 * ImportTable, DescribeImport, ListImports: a new table filled from every object under an S3 key
 * prefix, in DYNAMODB_JSON, ION or CSV, compressed with GZIP, ZSTD or not at all. As DynamoDB does
 * (docs/dynamodb/backups.md, from its developer guide and tests run against it):
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
 * table, or for items that failed validation with its table ACTIVE). The engine commits the
 * import's description with each change of its table ({@code engine/backup/TableImports}): the
 * table's creation, its becoming ACTIVE, its deletion; so an import in progress when the server
 * stops is found with its table, and runs again from the start (its puts are idempotent, the table
 * CREATING until the end), to COMPLETED with exactly the items of its files.
 */
public final class Imports implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Imports.class.getName());
    private static final String KIND = TableImports.JOBS;

    private final Engine engine;
    private final ObjectStore store;
    private final Jobs imports;

    /** An import's request, as the action read it. */
    public record Request(String clientToken, String s3Bucket, String s3BucketOwner, String s3KeyPrefix,
                          String inputFormat, String csvDelimiter, List<String> csvHeaders, String compression,
                          CreateTableSpec table) {}

    public Imports(Engine engine, ObjectStore store) {
        this.engine = engine;
        this.store = store;
        this.imports = new Jobs(engine, KIND);
        java.util.Set<String> running = new java.util.HashSet<>();
        for (JobRecord r : imports.all()) {
            if (!"IN_PROGRESS".equals(r.string("ImportStatus"))) continue;
            TableDefinition table = engine.catalog().find(r.string("TableName"));
            if (table != null && r.string("ImportArn").equals(table.importArn())) {
                LOG.info("import " + r.string("ImportArn") + " was in progress when the server stopped; starting over");
                running.add(r.string("ImportArn"));
                imports.submit(() -> run(r, table));
            } else {
                // Only a server older than the one commit left an import without its table. On the
                // jobs' thread, as every write at start (a server may start on a full disk).
                imports.submit(() -> {
                    ended(r, "FAILED", "InternalError", "The server stopped during the import");
                    imports.save(r.string("ImportId"), r);
                });
            }
        }
        for (TableDefinition t : tables().filling()) {
            if (running.contains(t.importArn())) continue;
            // A table being imported without its import's record: a server older than the one
            // commit stopped between the two. Nothing can finish it: FAILED, and the name free again.
            String id = t.importArn().substring(t.importArn().lastIndexOf('/') + 1);
            JobRecord r = new JobRecord().set("ImportArn", t.importArn()).set("ImportId", id)
                    .set("TableArn", engine.catalog().arns().tableArn(t.name())).set("TableId", t.tableId())
                    .set("TableName", t.name()).set("ClientToken", java.util.UUID.randomUUID().toString())
                    .set("StartTime", t.creationDateTime().toEpochMilli());
            ended(r, "FAILED", "InternalError", "The server stopped during the import");
            LOG.warning("table " + t.name() + " was being imported without its import's record; the import "
                    + t.importArn() + " FAILED and the table is deleted");
            imports.submit(() -> {
                tables().fail(t.id(), id, r.encode());
                imports.track(id, r);
            });
        }
    }

    private TableImports tables() {
        return engine.backups().imports();
    }

    /** The import running, for the command line's progress line. */
    private volatile JobView current;

    /** The job running or last run, for the command line's progress line; null before the first. */
    public JobView running() {
        return current;
    }

    /** ImportTable: creates the table (CREATING) and starts filling it; the import's description. */
    public JobView start(Request request) {
        Instant now = engine.config().clock().instant();
        String tableName = engine.catalog().arns().tableName(request.table().tableName());
        if (request.clientToken() != null) {
            for (JobRecord r : imports.all()) {
                if (!request.clientToken().equals(r.string("ClientToken")) || !"IN_PROGRESS".equals(r.string("ImportStatus"))) {
                    continue;
                }
                // While in progress the same token is the same import; with another table a conflict.
                if (tableName.equals(r.string("TableName"))) return r;
                throw new DynamoDbException(ErrorType.IMPORT_CONFLICT,
                        "Import conflict: Duplicate request detected with conflicting parameters");
            }
        }
        if (engine.catalog().find(tableName) != null) {
            throw DynamoDbException.resourceInUse("Table already exists: " + tableName);
        }
        String id = Backup.newId(now);
        String tableArn = engine.catalog().arns().tableArn(tableName);
        String importArn = tableArn + "/import/" + id;
        JobRecord r = new JobRecord().set("ImportArn", importArn).set("ImportId", id).set("ImportStatus", "IN_PROGRESS")
                .set("TableArn", tableArn).set("TableName", tableName)
                .set("ClientToken", request.clientToken() == null ? java.util.UUID.randomUUID().toString()
                        : request.clientToken())
                .set("S3Bucket", request.s3Bucket()).set("S3BucketOwner", request.s3BucketOwner())
                .set("S3KeyPrefix", request.s3KeyPrefix()).set("InputFormat", request.inputFormat())
                .set("CsvDelimiter", request.csvDelimiter())
                .set("CsvHeaders", request.csvHeaders() == null ? null : String.join("\u0000", request.csvHeaders()))
                .set("InputCompressionType", request.compression() == null ? "NONE" : request.compression())
                .set("StartTime", now.toEpochMilli()).set("ProcessedItemCount", 0L).set("ImportedItemCount", 0L)
                .set("ErrorCount", 0L).set("ProcessedSizeBytes", 0L);
        // The table and the import's record in one commit: neither is ever found without the other.
        TableDefinition table = tables().start(request.table(), importArn, id,
                created -> r.set("TableId", created.tableId()).encode());
        imports.track(id, r);
        LOG.info("import " + importArn + " into table " + tableName + " started");
        // ImportTable answers the import as it started (IN_PROGRESS), whatever its job has
        // done by the time the answer is written.
        JobView started = r.copy();
        imports.submit(() -> run(r, table));
        return started;
    }

    /** The table an import created, as it was created (DescribeImport's TableCreationParameters). */
    public TableDefinition table(JobView r) {
        TableDefinition t = engine.catalog().find(r.string("TableName"));
        return t != null && r.string("TableId").equals(t.tableId()) ? t : null;
    }

    /** DescribeImport: the import of that ARN, or ImportNotFoundException. */
    public JobView describe(String importArn) {
        JobRecord r = imports.find(importArn, "ImportArn");
        if (r == null) {
            // DynamoDB's text for this one is not recorded.
            throw new DynamoDbException(ErrorType.IMPORT_NOT_FOUND, "Import not found: " + importArn);
        }
        return r;
    }

    /** ListImports: the imports (into a table, when given), newest first. */
    public List<JobView> list(String tableArn) {
        return imports.list(tableArn);
    }

    // ---- the import itself ------------------------------------------------------------------------

    private void run(JobRecord r, TableDefinition table) {
        r.set("ProcessedItemCount", 0L).set("ImportedItemCount", 0L).set("ErrorCount", 0L).set("ProcessedSizeBytes", 0L);
        try {
            String bucket = r.string("S3Bucket");
            List<String> keys;
            try {
                if (!store.bucketExists(bucket)) throw new IOException("no bucket");
                keys = store.list(bucket, r.string("S3KeyPrefix") == null ? "" : r.string("S3KeyPrefix"));
            } catch (IOException e) {
                fail(r, table, "S3NoSuchBucket",
                        "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket)");
                return;
            }
            for (String key : keys) {
                if (imports.closed()) return; // still IN_PROGRESS, its table CREATING: the next start runs it again
                readObject(r, table, bucket, key);
            }
            if (imports.closed()) return;
            if (r.number("ErrorCount") == 0) {
                finish(r, table, "COMPLETED", null, null);
            } else {
                finish(r, table, "FAILED", "ItemValidationError", "Some of the items failed validation checks and were "
                        + "not imported. Please check CloudWatch error logs for more details.");
            }
        } catch (RuntimeException e) {
            if (imports.closed()) return;
            LOG.warning("import " + r.string("ImportArn") + " failed: " + e);
            fail(r, table, "InternalError", String.valueOf(e.getMessage()));
        }
    }

    /** The import ends with its table ACTIVE, committed with its description. */
    private void finish(JobRecord r, TableDefinition table, String status, String failureCode, String failureMessage) {
        ended(r, status, failureCode, failureMessage);
        committed(r, () -> tables().finish(table.id(), r.string("ImportId"), r.encode()));
    }

    /** The import FAILED: its table is deleted, committed with its description. */
    private void fail(JobRecord r, TableDefinition table, String failureCode, String failureMessage) {
        ended(r, "FAILED", failureCode, failureMessage);
        committed(r, () -> tables().fail(table.id(), r.string("ImportId"), r.encode()));
    }

    /**
     * Commits an import's end; when the storage refuses it (a full disk), the import is shown
     * IN_PROGRESS again, as it is kept: the next start runs it again.
     */
    private static void committed(JobRecord r, Runnable commit) {
        try {
            commit.run();
        } catch (RuntimeException e) {
            r.set("ImportStatus", "IN_PROGRESS").set("EndTime", null).set("FailureCode", null).set("FailureMessage", null);
            LOG.warning("import " + r.string("ImportArn") + " could not end: " + e + "; it runs again at the next start");
            return;
        }
        LOG.info("import " + r.string("ImportArn") + " " + r.string("ImportStatus") + ": " + r.number("ProcessedItemCount")
                + " processed, " + r.number("ImportedItemCount") + " imported, " + r.number("ErrorCount") + " errors");
    }

    private void ended(JobRecord r, String status, String failureCode, String failureMessage) {
        r.set("ImportStatus", status).set("EndTime", engine.config().clock().millis()).set("FailureCode", failureCode)
                .set("FailureMessage", failureMessage);
    }

    /** Reads one object: every item in, up to its first bad line. */
    private void readObject(JobRecord r, TableDefinition table, String bucket, String key) {
        byte[] content;
        try (InputStream raw = store.get(bucket, key); InputStream in = decompress(raw, r.string("InputCompressionType"))) {
            content = in.readAllBytes();
        } catch (IOException e) {
            add(r, "ProcessedItemCount", 1);
            error(r, key, 0, "The object could not be read or decompressed: " + e.getMessage());
            return;
        }
        add(r, "ProcessedSizeBytes", content.length);
        String format = r.string("InputFormat");
        try {
            if ("ION".equals(format)) {
                int[] index = {0};
                boolean[] stopped = {false};
                ItemFormats.readIonItems(new ByteArrayInputStream(content), (item, error) -> {
                    if (stopped[0]) return;
                    if (!put(r, table, key, index[0]++, item, error)) stopped[0] = true;
                });
                return;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(content),
                    StandardCharsets.UTF_8));
            if ("CSV".equals(format)) {
                readCsv(r, table, key, lines);
                return;
            }
            String line;
            int index = 0;
            while ((line = lines.readLine()) != null) {
                if (line.isBlank()) continue;
                Map<String, AttributeValue> item = null;
                RuntimeException error = null;
                try {
                    item = ItemFormats.readJsonItem(line);
                } catch (RuntimeException e) {
                    error = e;
                }
                if (!put(r, table, key, index++, item, error)) return;
            }
        } catch (IOException | RuntimeException e) {
            // Ion that is not Ion, text that is not UTF-8: the object's remaining lines are skipped.
            add(r, "ProcessedItemCount", 1);
            error(r, key, 0, "The object could not be read: " + e.getMessage());
        }
    }

    /** Puts one item, or counts its error; false when the rest of the object is to be skipped. */
    private boolean put(JobRecord r, TableDefinition table, String key, int index, Map<String, AttributeValue> item,
                        RuntimeException error) {
        if (imports.closed()) return false;
        add(r, "ProcessedItemCount", 1);
        current = r;
        if (error == null) {
            try {
                tables().put(table, item);
                add(r, "ImportedItemCount", 1);
                if (r.number("ImportedItemCount") % 100_000 == 0) {
                    imports.save(r.string("ImportId"), r);
                    LOG.info("import " + r.string("ImportArn") + ": " + r.number("ImportedItemCount") + " items imported");
                }
                return true;
            } catch (RuntimeException e) {
                error = e;
            }
        }
        error(r, key, index, error instanceof DynamoDbException d ? d.getMessage() : String.valueOf(error));
        return false;
    }

    /** Counts an error; an object that cannot be read at all counts as one item processed, in error. */
    private void error(JobRecord r, String key, int index, String message) {
        add(r, "ErrorCount", 1);
        // What DynamoDB writes to CloudWatch Logs (/aws-dynamodb/imports), to the server's log.
        LOG.warning("import " + r.string("ImportArn") + ": {\"itemS3Pointer\":{\"bucket\":\"" + r.string("S3Bucket")
                + "\",\"key\":\"" + key + "\",\"itemIndex\":" + index + "},\"errorMessages\":[\"" + message + "\"]}");
    }

    private static void add(JobRecord r, String counter, long n) {
        r.set(counter, r.number(counter) + n);
    }

    private static InputStream decompress(InputStream raw, String compression) throws IOException {
        return switch (compression) {
            case "GZIP" -> new GZIPInputStream(raw);
            case "ZSTD" -> new ZstdInputStream(raw);
            default -> raw;
        };
    }

    // ---- CSV --------------------------------------------------------------------------------------

    /**
     * CSV: the first line is the header unless a HeaderList is given; the key attributes of the
     * table and its indexes are typed as their attribute definitions say, every other column is a
     * string; an empty column is left out; a double quote inside a quoted value is written twice.
     */
    private void readCsv(JobRecord r, TableDefinition table, String key, BufferedReader lines) throws IOException {
        char delimiter = r.string("CsvDelimiter") == null ? ',' : r.string("CsvDelimiter").charAt(0);
        List<String> headers = r.string("CsvHeaders") == null ? null : List.of(r.string("CsvHeaders").split("\u0000"));
        Map<String, AttributeValue.Type> keyTypes = new HashMap<>();
        for (TableDefinition.AttributeDefinition d : table.attributeDefinitions()) keyTypes.put(d.name(), d.type());
        String line;
        int index = 0;
        while ((line = lines.readLine()) != null) {
            if (line.isEmpty()) continue;
            Map<String, AttributeValue> item = null;
            RuntimeException error = null;
            try {
                List<String> values = csvFields(line, delimiter, lines);
                if (headers == null) {
                    headers = values;
                    continue;
                }
                if (values.size() != headers.size()) {
                    throw DynamoDbException.validation("The line has " + values.size() + " columns, the header "
                            + headers.size());
                }
                item = new LinkedHashMap<>();
                for (int i = 0; i < values.size(); i++) {
                    if (values.get(i).isEmpty()) continue;
                    item.put(headers.get(i), csvValue(values.get(i), keyTypes.get(headers.get(i))));
                }
            } catch (RuntimeException e) {
                error = e;
            }
            if (!put(r, table, key, index++, item, error)) return;
        }
    }

    private static AttributeValue csvValue(String text, AttributeValue.Type keyType) {
        if (keyType == AttributeValue.Type.N) return new AttributeValue.N(DynamoNumber.parse(text));
        if (keyType == AttributeValue.Type.B) return new AttributeValue.B(Base64.getDecoder().decode(text));
        return new AttributeValue.S(text);
    }

    /** One CSV record's fields (RFC 4180 quoting; a quoted field may run over several lines). */
    private static List<String> csvFields(String line, char delimiter, BufferedReader more) throws IOException {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        int i = 0;
        while (true) {
            if (i == line.length()) {
                if (!quoted) break;
                String next = more.readLine();
                if (next == null) throw DynamoDbException.validation("An unterminated quoted value");
                field.append('\n');
                line = next;
                i = 0;
                continue;
            }
            char c = line.charAt(i++);
            if (quoted) {
                if (c == '"') {
                    if (i < line.length() && line.charAt(i) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == delimiter) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }

    /** Waits for the imports queued so far (tests, the command line). */
    public void awaitIdle() throws Exception {
        imports.awaitIdle();
    }

    @Override
    public void close() {
        imports.close();
    }
}
