package io.stator.server.transfer;

import com.amazon.ion.IonReader;
import com.amazon.ion.IonType;
import com.amazon.ion.IonWriter;
import com.amazon.ion.system.IonReaderBuilder;
import com.amazon.ion.system.IonTextWriterBuilder;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.RequestReader;
import io.stator.server.protocol.ServiceModel;
import io.stator.server.protocol.Shape.StructureShape;
import io.stator.server.protocol.request.PutItemInput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB's export formats, written and read (developer guide, "DynamoDB table export output
 * format", and "DynamoDB data import from Amazon S3: format quotas and validation"):
 * <ul>
 *   <li>DYNAMODB_JSON: one object per line, {@code {"Item":{"pk":{"S":"a"},...}}}, values in the
 *       JSON form of DynamoDB's API; an incremental export's lines are
 *       {@code {"Metadata":{"WriteTimestampMicros":{"N":"..."}},"Keys":{...},"NewImage":{...},"OldImage":{...}}};</li>
 *   <li>ION: Amazon Ion text, {@code $ion_1_0 {Item:{pk:"a",n:1.5,...}}}: strings, decimals, blobs,
 *       booleans, nulls, lists and structs as Ion's own types, and the sets as lists annotated
 *       {@code $dynamodb_SS}, {@code $dynamodb_NS}, {@code $dynamodb_BS}.</li>
 * </ul>
 * Reading a DynamoDB JSON item goes through the request reader with PutItem's Item member, so an
 * imported value is checked exactly as an API request's would be.
 */
public final class ItemFormats {

    private static final JsonFactory JSON = new JsonFactory();
    private static final StructureShape ITEM_LINE = ServiceModel.get().operation("PutItem").input();

    private ItemFormats() {}

    public enum Format { DYNAMODB_JSON, ION }

    // ---- writing ----------------------------------------------------------------------------------

    /** Writes lines of one format to a stream (an export's data file). */
    public static final class Writer implements AutoCloseable {
        private final Format format;
        private final OutputStream out;
        private final IonWriter ion;

        public Writer(Format format, OutputStream out) {
            this.format = format;
            this.out = out;
            this.ion = format == Format.ION ? IonTextWriterBuilder.standard().build(out) : null;
        }

        /** A full export's line: the item. */
        public void item(Map<String, AttributeValue> item) throws IOException {
            line(Map.of("Item", item));
        }

        /** An incremental export's line: when, the keys, and the new and old images when given. */
        public void change(long writeTimestampMicros, Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                           Map<String, AttributeValue> oldImage) throws IOException {
            Map<String, Map<String, AttributeValue>> fields = new LinkedHashMap<>();
            // {"WriteTimestampMicros":{"N":"..."}} in JSON, a decimal in Ion: an item's form either way.
            fields.put("Metadata", Map.of("WriteTimestampMicros", new AttributeValue.N(DynamoNumber.of(writeTimestampMicros))));
            fields.put("Keys", keys);
            if (newImage != null) fields.put("NewImage", newImage);
            if (oldImage != null) fields.put("OldImage", oldImage);
            line(fields);
        }

        /** One line: an object whose members are items, in the format's form, then a newline. */
        private void line(Map<String, Map<String, AttributeValue>> fields) throws IOException {
            if (format == Format.ION) {
                ion.stepIn(IonType.STRUCT);
                for (Map.Entry<String, Map<String, AttributeValue>> f : fields.entrySet()) {
                    ion.setFieldName(f.getKey());
                    writeIonItem(ion, f.getValue());
                }
                ion.stepOut();
                ion.flush();
            } else {
                try (JsonGenerator g = JSON.createGenerator(new NoClose(out))) {
                    g.writeStartObject();
                    for (Map.Entry<String, Map<String, AttributeValue>> f : fields.entrySet()) {
                        g.writeFieldName(f.getKey());
                        AttributeValueJson.writeItem(g, f.getValue());
                    }
                    g.writeEndObject();
                }
            }
            out.write('\n');
        }

        @Override
        public void close() throws IOException {
            if (ion != null) ion.close();
            out.close();
        }
    }

    private static void writeIonItem(IonWriter w, Map<String, AttributeValue> item) throws IOException {
        w.stepIn(IonType.STRUCT);
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            w.setFieldName(e.getKey());
            writeIon(w, e.getValue());
        }
        w.stepOut();
    }

    private static void writeIon(IonWriter w, AttributeValue value) throws IOException {
        switch (value) {
            case AttributeValue.S s -> w.writeString(s.value());
            case AttributeValue.N n -> w.writeDecimal(n.value().bigDecimal());
            case AttributeValue.B b -> w.writeBlob(b.value());
            case AttributeValue.BOOL b -> w.writeBool(b.value());
            case AttributeValue.NULL n -> w.writeNull();
            case AttributeValue.SS ss -> {
                w.setTypeAnnotations("$dynamodb_SS");
                w.stepIn(IonType.LIST);
                for (String s : ss.values()) w.writeString(s);
                w.stepOut();
            }
            case AttributeValue.NS ns -> {
                w.setTypeAnnotations("$dynamodb_NS");
                w.stepIn(IonType.LIST);
                for (DynamoNumber n : ns.values()) w.writeDecimal(n.bigDecimal());
                w.stepOut();
            }
            case AttributeValue.BS bs -> {
                w.setTypeAnnotations("$dynamodb_BS");
                w.stepIn(IonType.LIST);
                for (byte[] b : bs.values()) w.writeBlob(b);
                w.stepOut();
            }
            case AttributeValue.L l -> {
                w.stepIn(IonType.LIST);
                for (AttributeValue v : l.values()) writeIon(w, v);
                w.stepOut();
            }
            case AttributeValue.M m -> writeIonItem(w, m.values());
        }
    }

    /** The JSON generator closes what it writes to; the data file stays open for the next line. */
    private static final class NoClose extends java.io.FilterOutputStream {
        NoClose(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    // ---- reading ----------------------------------------------------------------------------------

    /** Reads one DYNAMODB_JSON line, {@code {"Item":{...}}}: the item, or DynamoDB's error for the line. */
    public static Map<String, AttributeValue> readJsonItem(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        PutItemInput parsed = (PutItemInput) RequestReader.parse(bytes, ITEM_LINE).request();
        if (parsed.item() == null) throw DynamoDbException.validation("The line has no Item");
        if (parsed.tableName() != null || parsed.expected() != null) {
            throw DynamoDbException.validation("The line has members other than Item");
        }
        return parsed.item().validated();
    }

    /** Reads every ION value of a stream, each {@code {Item:{...}}}, handing each item (or its error) on. */
    public static void readIonItems(InputStream in, IonLines lines) throws IOException {
        try (IonReader r = IonReaderBuilder.standard().build(in)) {
            while (r.next() != null) {
                Map<String, AttributeValue> item = null;
                RuntimeException error = null;
                try {
                    if (r.getType() != IonType.STRUCT) throw DynamoDbException.validation("not a struct");
                    r.stepIn();
                    while (r.next() != null) {
                        if ("Item".equals(r.getFieldName()) && r.getType() == IonType.STRUCT) item = readIonStruct(r);
                        else throw DynamoDbException.validation("unexpected field " + r.getFieldName());
                    }
                    r.stepOut();
                    if (item == null) throw DynamoDbException.validation("The value has no Item");
                } catch (RuntimeException e) {
                    error = e;
                }
                lines.accept(item, error);
            }
        }
    }

    /** Takes each ION value read: its item, or why it is not one. */
    @FunctionalInterface
    public interface IonLines {
        void accept(Map<String, AttributeValue> item, RuntimeException error) throws IOException;
    }

    private static Map<String, AttributeValue> readIonStruct(IonReader r) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        r.stepIn();
        while (r.next() != null) m.put(r.getFieldName(), readIon(r));
        r.stepOut();
        return m;
    }

    private static AttributeValue readIon(IonReader r) {
        String[] annotations = r.getTypeAnnotations();
        String set = annotations.length > 0 ? annotations[0] : null;
        IonType type = r.getType();
        if (r.isNullValue()) return AttributeValue.NULL.INSTANCE;
        switch (type) {
            case STRING, SYMBOL: return new AttributeValue.S(r.stringValue());
            case DECIMAL, INT, FLOAT: return new AttributeValue.N(DynamoNumber.of(r.bigDecimalValue()));
            case BLOB, CLOB: return new AttributeValue.B(r.newBytes());
            case BOOL: return AttributeValue.BOOL.of(r.booleanValue());
            case STRUCT: return new AttributeValue.M(readIonStruct(r));
            case LIST, SEXP: {
                List<AttributeValue> values = new ArrayList<>();
                r.stepIn();
                while (r.next() != null) values.add(readIon(r));
                r.stepOut();
                if ("$dynamodb_SS".equals(set)) {
                    List<String> strings = new ArrayList<>();
                    for (AttributeValue v : values) strings.add(((AttributeValue.S) v).value());
                    return new AttributeValue.SS(strings);
                }
                if ("$dynamodb_NS".equals(set)) {
                    List<DynamoNumber> numbers = new ArrayList<>();
                    for (AttributeValue v : values) numbers.add(((AttributeValue.N) v).value());
                    return new AttributeValue.NS(numbers);
                }
                if ("$dynamodb_BS".equals(set)) {
                    List<byte[]> blobs = new ArrayList<>();
                    for (AttributeValue v : values) blobs.add(((AttributeValue.B) v).value());
                    return new AttributeValue.BS(blobs);
                }
                return new AttributeValue.L(values);
            }
            default: throw DynamoDbException.validation("unsupported Ion type " + type);
        }
    }

    /** An item in DYNAMODB_JSON, for tests and the command line. */
    public static String json(Map<String, AttributeValue> item) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Writer w = new Writer(Format.DYNAMODB_JSON, bytes)) {
            w.item(item);
        }
        return bytes.toString(StandardCharsets.UTF_8).trim();
    }
}
