package io.stator.server.transfer;

import io.stator.core.model.AttributeValue;
import io.stator.engine.backup.PointInTimeRecovery;
import io.stator.engine.transfer.ExportDescription;
import io.stator.engine.transfer.ExportSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * An export's files as the engine's exports write them ({@code engine/transfer/Exports}), in
 * DynamoDB's S3 export layout, to an {@link ObjectStore}:
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
 */
public final class ExportFiles implements ExportSink {

    private static final int ITEMS_PER_FILE = 100_000;

    private final ObjectStore store;

    public ExportFiles(ObjectStore store) {
        this.store = store;
    }

    @Override
    public Files open(ExportDescription export) throws IOException {
        String bucket = export.s3Bucket();
        store.prepareBucket(bucket);
        if (!store.bucketExists(bucket)) throw new NoSuchBucket();
        String root = (export.s3Prefix() == null ? "" : export.s3Prefix().replaceAll("/+$", "") + "/") + "AWSDynamoDB/";
        String base = root + export.exportId() + "/";
        ItemFormats.Format format = ItemFormats.Format.valueOf(export.exportFormat().name());
        String extension = format == ItemFormats.Format.ION ? ".ion.gz" : ".json.gz";
        store.put(bucket, base + "_started", new byte[0]);
        return new DataFiles(bucket, base, (export.incremental() ? root : base) + "data/", extension, format,
                export.exportId());
    }

    /** The data files being written: a new one every {@link #ITEMS_PER_FILE} items. */
    private final class DataFiles implements Files {
        final String bucket;
        final String base;
        final String dir;
        final String extension;
        final ItemFormats.Format format;
        final String exportId;
        final StringBuilder manifest = new StringBuilder();
        ByteArrayOutputStream bytes;
        ItemFormats.Writer writer;
        long fileItems;
        long items;
        int files;

        DataFiles(String bucket, String base, String dir, String extension, ItemFormats.Format format,
                  String exportId) {
            this.bucket = bucket;
            this.base = base;
            this.dir = dir;
            this.extension = extension;
            this.format = format;
            this.exportId = exportId;
        }

        @Override
        public void item(Map<String, AttributeValue> item) throws IOException {
            open().item(item);
            written();
        }

        @Override
        public void change(PointInTimeRecovery.ItemChange change, boolean oldImages) throws IOException {
            open().change(change.writeTimeMillis() * 1000, change.keys(), change.newImage(),
                    oldImages ? change.oldImage() : null);
            written();
        }

        private ItemFormats.Writer open() throws IOException {
            if (writer == null) {
                bytes = new ByteArrayOutputStream();
                writer = new ItemFormats.Writer(format, new GZIPOutputStream(bytes));
                fileItems = 0;
            }
            return writer;
        }

        private void written() throws IOException {
            items++;
            if (++fileItems == ITEMS_PER_FILE) closeFile();
        }

        private void closeFile() throws IOException {
            writer.close();
            byte[] content = bytes.toByteArray();
            String key = dir + dataFileName(exportId, ++files) + extension;
            store.put(bucket, key, content);
            manifest.append("{\"itemCount\":").append(fileItems).append(",\"md5Checksum\":\"")
                    .append(Base64.getEncoder().encodeToString(md5(content))).append("\",\"etag\":\"")
                    .append(HexFormat.of().formatHex(md5(content))).append("\",\"dataFileS3Key\":\"").append(key)
                    .append("\"}\n");
            writer = null;
        }

        @Override
        public String finish(ExportDescription export, Instant end) throws IOException {
            if (writer == null && items == 0) open(); // an empty table still gets one (empty) data file
            if (writer != null) closeFile();
            String manifestFiles = base + "manifest-files.json";
            byte[] filesManifest = manifest.toString().getBytes(StandardCharsets.UTF_8);
            store.put(bucket, manifestFiles, filesManifest);
            store.put(bucket, base + "manifest-files.md5", md5Base64(filesManifest));
            String summaryKey = base + "manifest-summary.json";
            byte[] summary = summary(export, manifestFiles, end).getBytes(StandardCharsets.UTF_8);
            store.put(bucket, summaryKey, summary);
            store.put(bucket, base + "manifest-summary.md5", md5Base64(summary));
            return summaryKey;
        }
    }

    /**
     * 26 lowercase base32 characters, as DynamoDB names its data files; drawn from the export's id
     * and the file's number rather than at random, so that an export run again after its server
     * died (Exports: from the start) writes over the files of its first run instead of beside them.
     * Otherwise a file written before the kill stayed in the export's {@code data/} directory,
     * listed by no manifest, and a reader of that directory (ImportTable of the prefix) read its
     * items twice (ExportCrashTest).
     */
    static String dataFileName(String exportId, int file) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        byte[] hash = sha256(exportId + "/" + file);
        StringBuilder name = new StringBuilder(26);
        for (int i = 0; i < 26; i++) {
            int bit = i * 5;
            int bits = ((hash[bit / 8] & 0xff) << 8 | (hash[bit / 8 + 1] & 0xff)) >> (11 - bit % 8);
            name.append(alphabet.charAt(bits & 31));
        }
        return name.toString();
    }

    /** manifest-summary.json, field for field as a real export's (docs/dynamodb/backups.md). */
    private static String summary(ExportDescription e, String manifestFilesKey, Instant end) {
        boolean incremental = e.incremental();
        StringBuilder s = new StringBuilder("{");
        s.append("\"version\":\"").append(incremental ? "2023-08-01" : "2020-06-30").append('"');
        field(s, "exportArn", e.exportArn());
        field(s, "startTime", e.startTime().toString());
        field(s, "endTime", end.toString());
        field(s, "tableArn", e.tableArn());
        field(s, "tableId", e.tableId());
        if (incremental) {
            field(s, "exportFromTime", e.exportFromTime().toString());
            field(s, "exportToTime", e.exportToTime().toString());
        } else {
            field(s, "exportTime", e.exportTime().toString());
        }
        field(s, "s3Bucket", e.s3Bucket());
        field(s, "s3Prefix", e.s3Prefix());
        field(s, "s3SseAlgorithm", e.s3SseAlgorithm());
        field(s, "s3SseKmsKeyId", e.s3SseKmsKeyId());
        field(s, "manifestFilesS3Key", manifestFilesKey);
        s.append(",\"billedSizeBytes\":").append(e.billedSizeBytes() == null ? 0 : e.billedSizeBytes());
        s.append(",\"itemCount\":").append(e.itemCount() == null ? 0 : e.itemCount());
        field(s, "outputFormat", e.exportFormat().name());
        if (incremental) {
            field(s, "outputView", e.exportViewType().name());
            field(s, "exportType", "INCREMENTAL_EXPORT");
        }
        return s.append("}").toString();
    }

    private static void field(StringBuilder s, String name, String value) {
        s.append(",\"").append(name).append("\":");
        if (value == null) s.append("null");
        else s.append('"').append(value.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
}
