package io.stator.server.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An export's or an import's description as it is kept (the engine's {@code Backups.saveJob}):
 * a flat JSON object of strings, numbers and nulls, by DynamoDB's member names.
 */
final class JobRecord implements JobView {

    private static final JsonFactory JSON = new JsonFactory();

    private final Map<String, Object> fields;

    JobRecord() {
        this(new LinkedHashMap<>());
    }

    private JobRecord(Map<String, Object> fields) {
        this.fields = fields;
    }

    @Override
    public synchronized String string(String name) {
        Object v = fields.get(name);
        return v == null ? null : v.toString();
    }

    @Override
    public synchronized long number(String name) {
        Object v = fields.get(name);
        return v == null ? 0 : ((Number) v).longValue();
    }

    @Override
    public synchronized boolean has(String name) {
        return fields.get(name) != null;
    }

    synchronized JobRecord set(String name, Object value) {
        fields.put(name, value);
        return this;
    }

    /** The record as it is now, apart from the one its job goes on changing. */
    synchronized JobRecord copy() {
        return new JobRecord(new LinkedHashMap<>(fields));
    }

    synchronized byte[] encode() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (Map.Entry<String, Object> e : fields.entrySet()) {
                if (e.getValue() == null) continue;
                if (e.getValue() instanceof Number n) g.writeNumberField(e.getKey(), n.longValue());
                else g.writeStringField(e.getKey(), e.getValue().toString());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static JobRecord decode(byte[] stored) {
        Map<String, Object> fields = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(stored)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken t = p.nextToken();
                fields.put(name, t == JsonToken.VALUE_NUMBER_INT ? (Object) p.getLongValue() : p.getText());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new JobRecord(fields);
    }
}
