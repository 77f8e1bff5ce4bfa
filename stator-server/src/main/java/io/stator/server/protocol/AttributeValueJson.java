package io.stator.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.item.ItemVisitor;
import io.stator.core.item.StoredItem;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes attribute values in DynamoDB's JSON form: {@code {"S": "x"}}, {@code {"N": "1.5"}}, ...
 * An item read from storage and not decoded (a {@link StoredItem}) is written straight from its
 * stored bytes, its strings as the UTF-8 they are stored as: a 400 KB item costs the response
 * its JSON and nothing else (decoded first, it cost a copy of every value as well).
 */
public final class AttributeValueJson {

    private AttributeValueJson() {}

    public static void writeItem(JsonGenerator g, Map<String, AttributeValue> item) throws IOException {
        g.writeStartObject();
        if (item instanceof StoredItem stored) {
            stored.visit(new StoredValues(g));
            g.writeEndObject();
            return;
        }
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

    /** A stored item's values, as {@link #write} writes decoded ones. */
    private static final class StoredValues implements ItemVisitor<IOException> {
        private final JsonGenerator g;
        /** Within a set, whose elements are bare strings. */
        private boolean inSet;

        StoredValues(JsonGenerator g) {
            this.g = g;
        }

        @Override
        public void name(byte[] utf8, int offset, int length) throws IOException {
            g.writeFieldName(new String(utf8, offset, length, StandardCharsets.UTF_8));
        }

        @Override
        public void string(byte[] utf8, int offset, int length) throws IOException {
            if (!inSet) open("S");
            if (JsonText.needsEscape(utf8, offset, length)) {
                g.writeUTF8String(utf8, offset, length);
            } else {
                g.writeRawUTF8String(utf8, offset, length); // quoted, as stored
            }
            if (!inSet) g.writeEndObject();
        }

        @Override
        public void number(DynamoNumber value) throws IOException {
            if (!inSet) open("N");
            g.writeString(value.toString());
            if (!inSet) g.writeEndObject();
        }

        @Override
        public void binary(byte[] bytes, int offset, int length) throws IOException {
            if (!inSet) open("B");
            g.writeBinary(bytes, offset, length);
            if (!inSet) g.writeEndObject();
        }

        @Override
        public void bool(boolean value) throws IOException {
            g.writeStartObject();
            g.writeBooleanField("BOOL", value);
            g.writeEndObject();
        }

        @Override
        public void nullValue() throws IOException {
            g.writeStartObject();
            g.writeBooleanField("NULL", true);
            g.writeEndObject();
        }

        @Override
        public void beginMap(int count) throws IOException {
            open("M");
            g.writeStartObject();
        }

        @Override
        public void endMap() throws IOException {
            g.writeEndObject();
            g.writeEndObject();
        }

        @Override
        public void beginList(int count) throws IOException {
            open("L");
            g.writeStartArray();
        }

        @Override
        public void endList() throws IOException {
            g.writeEndArray();
            g.writeEndObject();
        }

        @Override
        public void beginSet(String type, int count) throws IOException {
            open(type);
            g.writeStartArray();
            inSet = true;
        }

        @Override
        public void endSet() throws IOException {
            inSet = false;
            g.writeEndArray();
            g.writeEndObject();
        }

        /** Opens a value's object and names its type's member: {@code {"S": }. */
        private void open(String type) throws IOException {
            g.writeStartObject();
            g.writeFieldName(type);
        }
    }
}
