package io.stator.engine.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.WriteBatch;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs kept by the releases before the engine owned imports and exports (the server's JobRecord:
 * a flat JSON object written by Jackson, under 'J' + kind + 0 + id in the BACKUPS key space) are
 * read after the change, typed, and listed and described as they were; and written again in a
 * form that reads back the same.
 */
class StoredJobsTest {

    private static final String TABLE_ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/imported";
    private static final String IMPORT_ID = "01700000000000-0a1b2c3d";
    private static final String EXPORT_ID = "01700000000500-11223344";

    /** An import as the old code kept it: CSV with a HeaderList (joined by NUL, which Jackson escapes). */
    private static final String OLD_IMPORT = "{\"ImportArn\":\"" + TABLE_ARN + "/import/" + IMPORT_ID + "\","
            + "\"ImportId\":\"" + IMPORT_ID + "\",\"ImportStatus\":\"COMPLETED\",\"TableArn\":\"" + TABLE_ARN + "\","
            + "\"TableName\":\"imported\",\"ClientToken\":\"token-1\",\"S3Bucket\":\"in\",\"S3BucketOwner\":\"000000000000\","
            + "\"S3KeyPrefix\":\"data/\",\"InputFormat\":\"CSV\",\"CsvDelimiter\":\";\",\"CsvHeaders\":\"pk\\u0000v\","
            + "\"InputCompressionType\":\"NONE\",\"StartTime\":1700000000000,\"ProcessedItemCount\":7,"
            + "\"ImportedItemCount\":6,\"ErrorCount\":1,\"ProcessedSizeBytes\":123,\"TableId\":\"t-1\","
            + "\"EndTime\":1700000001000}";

    /** An incremental export as the old code kept it, FAILED with a message that needs escapes. */
    private static final String OLD_EXPORT = "{\"ExportArn\":\"" + TABLE_ARN + "/export/" + EXPORT_ID + "\","
            + "\"ExportId\":\"" + EXPORT_ID + "\",\"ExportStatus\":\"FAILED\",\"StartTime\":1700000000500,"
            + "\"TableArn\":\"" + TABLE_ARN + "\",\"TableId\":\"t-1\",\"ClientToken\":\"token-2\",\"S3Bucket\":\"out\","
            + "\"S3SseAlgorithm\":\"AES256\",\"ExportFormat\":\"ION\",\"ExportType\":\"INCREMENTAL_EXPORT\","
            + "\"ExportFromTime\":1699990000000,\"ExportToTime\":1699999000000,\"ExportViewType\":\"NEW_IMAGE\","
            + "\"Parameters\":\"a|b\",\"ItemCount\":10000,\"BilledSizeBytes\":512,\"EndTime\":1700000002000,"
            + "\"FailureCode\":\"S3WriteFailed\",\"FailureMessage\":\"the \\\"disk\\\" said:\\nno\"}";

    @TempDir
    Path directory;

    @Test
    void jobsKeptByTheOldServerAreReadTypedListedAndDescribed() throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            try (WriteBatch batch = test.storage().newBatch()) {
                batch.put(Keyspaces.BACKUPS, oldKey("import", IMPORT_ID), OLD_IMPORT.getBytes(StandardCharsets.UTF_8));
                batch.put(Keyspaces.BACKUPS, oldKey("export", EXPORT_ID), OLD_EXPORT.getBytes(StandardCharsets.UTF_8));
                test.storage().commit(batch);
            }
        }
        try (TestEngine test = TestEngine.open(directory);
             Imports imports = test.engine().imports(new NoObjects());
             Exports exports = test.engine().exports(new NoFiles())) {
            ImportDescription i = imports.describe(TABLE_ARN + "/import/" + IMPORT_ID);
            assertEquals(ImportDescription.Status.COMPLETED, i.status());
            assertEquals(ImportDescription.InputFormat.CSV, i.inputFormat());
            assertEquals(ImportDescription.Compression.NONE, i.compression());
            assertEquals(List.of("pk", "v"), i.csvHeaders());
            assertEquals(";", i.csvDelimiter());
            assertEquals(Instant.ofEpochMilli(1700000000000L), i.startTime());
            assertEquals(Instant.ofEpochMilli(1700000001000L), i.endTime());
            assertEquals(7, i.processedItemCount());
            assertEquals(6, i.importedItemCount());
            assertEquals(1, i.errorCount());
            assertEquals(123, i.processedSizeBytes());
            assertEquals("t-1", i.tableId());
            assertNull(i.failureCode());
            assertEquals(List.of(i), imports.list(TABLE_ARN));

            ExportDescription e = exports.describe(TABLE_ARN + "/export/" + EXPORT_ID);
            assertEquals(ExportDescription.Status.FAILED, e.status());
            assertEquals(ExportDescription.Format.ION, e.exportFormat());
            assertEquals(ExportDescription.Type.INCREMENTAL_EXPORT, e.exportType());
            assertEquals(ExportDescription.ViewType.NEW_IMAGE, e.exportViewType());
            assertEquals(Instant.ofEpochMilli(1699990000000L), e.exportFromTime());
            assertNull(e.exportTime());
            assertEquals(10_000L, e.itemCount());
            assertEquals(512L, e.billedSizeBytes());
            assertEquals("the \"disk\" said:\nno", e.failureMessage());
            assertEquals("S3WriteFailed", e.failureCode());
            assertEquals(List.of(e), exports.list(null));

            // Written again by this release, each reads back the same.
            assertEquals(i, ImportDescription.decode(i.encode()));
            assertEquals(e, ExportDescription.decode(e.encode()));
        }
    }

    /** The old layout of a job's row: 'J' + kind + 0 + id. */
    private static byte[] oldKey(String kind, String id) {
        ByteArrayOutputStream key = new ByteArrayOutputStream();
        key.write('J');
        key.writeBytes(kind.getBytes(StandardCharsets.UTF_8));
        key.write(0);
        key.writeBytes(id.getBytes(StandardCharsets.UTF_8));
        return key.toByteArray();
    }

    /** Jobs that ended are never run: a source that has nothing. */
    private static final class NoObjects implements ImportSource {
        @Override
        public List<String> objects(String bucket, String prefix) {
            throw new AssertionError("an import that ended is not run again");
        }

        @Override
        public void read(ImportDescription importing, TableDefinition table, String key, Items items) {
            throw new AssertionError("an import that ended is not run again");
        }
    }

    private static final class NoFiles implements ExportSink {
        @Override
        public Files open(ExportDescription export) {
            throw new AssertionError("an export that ended is not run again");
        }
    }

    static {
        assertTrue(OLD_IMPORT.contains("\\u0000"), "the headers are joined by an escaped NUL, as Jackson wrote it");
    }
}
