package io.stator.server.transfer;

import com.github.luben.zstd.ZstdInputStream;
import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.transfer.ImportDescription;
import io.stator.engine.transfer.ImportSource;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * An import's objects as the engine's imports read them ({@code engine/transfer/Imports}): from an
 * {@link ObjectStore}, decompressed (GZIP, ZSTD or not at all), in DYNAMODB_JSON (a JSON line an
 * item), ION or CSV; empty lines skipped. The format given decides, not the key's extension.
 */
public final class ImportObjects implements ImportSource {

    private final ObjectStore store;

    public ImportObjects(ObjectStore store) {
        this.store = store;
    }

    @Override
    public List<String> objects(String bucket, String prefix) throws IOException {
        if (!store.bucketExists(bucket)) throw new IOException("no bucket");
        return store.list(bucket, prefix);
    }

    @Override
    public void read(ImportDescription importing, TableDefinition table, String key, Items items) throws Unreadable {
        byte[] content;
        try (InputStream raw = store.get(importing.s3Bucket(), key);
             InputStream in = decompress(raw, importing.compression())) {
            content = in.readAllBytes();
        } catch (IOException e) {
            throw new Unreadable("The object could not be read or decompressed: " + e.getMessage());
        }
        items.size(content.length);
        try {
            if (importing.inputFormat() == ImportDescription.InputFormat.ION) {
                ItemFormats.readIonItems(new ByteArrayInputStream(content), items::item);
                return;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(new ByteArrayInputStream(content),
                    StandardCharsets.UTF_8));
            if (importing.inputFormat() == ImportDescription.InputFormat.CSV) {
                readCsv(importing, table, lines, items);
                return;
            }
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isBlank()) continue;
                Map<String, AttributeValue> item = null;
                RuntimeException error = null;
                try {
                    item = ItemFormats.readJsonItem(line);
                } catch (RuntimeException e) {
                    error = e;
                }
                if (!items.item(item, error)) return;
            }
        } catch (IOException | RuntimeException e) {
            // Ion that is not Ion, text that is not UTF-8: the object's remaining lines are skipped.
            throw new Unreadable("The object could not be read: " + e.getMessage());
        }
    }

    private static InputStream decompress(InputStream raw, ImportDescription.Compression compression)
            throws IOException {
        if (compression == null) return raw;
        return switch (compression) {
            case GZIP -> new GZIPInputStream(raw);
            case ZSTD -> new ZstdInputStream(raw);
            case NONE -> raw;
        };
    }

    // ---- CSV --------------------------------------------------------------------------------------

    /**
     * CSV: the first line is the header unless a HeaderList is given; the key attributes of the
     * table and its indexes are typed as their attribute definitions say, every other column is a
     * string; an empty column is left out; a double quote inside a quoted value is written twice.
     */
    private static void readCsv(ImportDescription importing, TableDefinition table, BufferedReader lines, Items items)
            throws IOException {
        char delimiter = importing.csvDelimiter() == null ? ',' : importing.csvDelimiter().charAt(0);
        List<String> headers = importing.csvHeaders();
        Map<String, AttributeValue.Type> keyTypes = new HashMap<>();
        for (TableDefinition.AttributeDefinition d : table.attributeDefinitions()) keyTypes.put(d.name(), d.type());
        String line;
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
            if (!items.item(item, error)) return;
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
}
