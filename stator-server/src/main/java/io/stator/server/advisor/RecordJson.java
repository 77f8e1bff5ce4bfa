package io.stator.server.advisor;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.model.AttributeValue;
import io.stator.engine.advisor.Finding;
import io.stator.server.protocol.AttributeValueJson;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;

/**
 * The console's pages ({@link View}) as JSON, field by field as their records name them: the read
 * API's twin of each page. An item or key (a map of attribute values) is written as DynamoDB JSON;
 * numbers are rounded to thousandths; nulls are left out, as DynamoDB leaves out absent members.
 */
public final class RecordJson {

    private RecordJson() {}

    /** {@code value} as JSON text: a chart's data in a page, as the read API answers it. */
    public static String of(Object value) {
        java.io.StringWriter out = new java.io.StringWriter();
        try (JsonGenerator g = io.stator.server.protocol.ResponseBody.JSON.createGenerator(out)) {
            value(g, value);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Writes {@code record}'s fields into the object open in {@code g}. */
    static void fields(JsonGenerator g, Record record) throws IOException {
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (v == null) continue;
            g.writeFieldName(c.getName());
            value(g, v);
        }
    }

    @SuppressWarnings("unchecked")
    static void value(JsonGenerator g, Object v) throws IOException {
        switch (v) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case Double d -> number(g, d);
            case Float f -> number(g, f);
            case Number n -> g.writeNumber(n.longValue());
            case Enum<?> e -> g.writeString(e.name());
            case Finding.Key k -> AttributeValueJson.writeItem(g, k.attributes());
            case Record r -> {
                g.writeStartObject();
                fields(g, r);
                g.writeEndObject();
            }
            case long[] a -> {
                g.writeStartArray();
                for (long x : a) g.writeNumber(x);
                g.writeEndArray();
            }
            case Collection<?> list -> {
                g.writeStartArray();
                for (Object x : list) value(g, x);
                g.writeEndArray();
            }
            case Map<?, ?> m when !m.isEmpty() && m.values().iterator().next() instanceof AttributeValue ->
                    AttributeValueJson.writeItem(g, (Map<String, AttributeValue>) m);
            case Map<?, ?> m -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (e.getValue() == null) continue;
                    g.writeFieldName(String.valueOf(e.getKey()));
                    value(g, e.getValue());
                }
                g.writeEndObject();
            }
            default -> g.writeString(v.toString());
        }
    }

    private static void number(JsonGenerator g, double d) throws IOException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            g.writeNull();
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            g.writeNumber((long) d);
        } else {
            g.writeNumber(Math.round(d * 1000) / 1000.0);
        }
    }
}
