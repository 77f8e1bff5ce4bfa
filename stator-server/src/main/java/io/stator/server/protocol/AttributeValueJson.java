package io.stator.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.io.IOException;
import java.util.Map;

/** Writes attribute values in DynamoDB's JSON form: {@code {"S": "x"}}, {@code {"N": "1.5"}}, ... */
public final class AttributeValueJson {

    private AttributeValueJson() {}

    public static void writeItem(JsonGenerator g, Map<String, AttributeValue> item) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            g.writeFieldName(e.getKey());
            write(g, e.getValue());
        }
        g.writeEndObject();
    }

    public static void write(JsonGenerator g, AttributeValue value) throws IOException {
        g.writeStartObject();
        switch (value) {
            case AttributeValue.S s -> g.writeStringField("S", s.value());
            case AttributeValue.N n -> g.writeStringField("N", n.value().toString());
            case AttributeValue.B b -> {
                g.writeFieldName("B");
                g.writeBinary(b.value());
            }
            case AttributeValue.BOOL b -> g.writeBooleanField("BOOL", b.value());
            case AttributeValue.NULL n -> g.writeBooleanField("NULL", true);
            case AttributeValue.SS ss -> {
                g.writeArrayFieldStart("SS");
                for (String s : ss.values()) g.writeString(s);
                g.writeEndArray();
            }
            case AttributeValue.NS ns -> {
                g.writeArrayFieldStart("NS");
                for (DynamoNumber n : ns.values()) g.writeString(n.toString());
                g.writeEndArray();
            }
            case AttributeValue.BS bs -> {
                g.writeArrayFieldStart("BS");
                for (byte[] b : bs.values()) g.writeBinary(b);
                g.writeEndArray();
            }
            case AttributeValue.L l -> {
                g.writeArrayFieldStart("L");
                for (AttributeValue v : l.values()) write(g, v);
                g.writeEndArray();
            }
            case AttributeValue.M m -> {
                g.writeFieldName("M");
                writeItem(g, m.values());
            }
        }
        g.writeEndObject();
    }
}
