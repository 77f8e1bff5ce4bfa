package io.stator.engine.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stored form of a job's description ({@link JobStore}): one flat JSON object, UTF-8, of
 * string and integer members by DynamoDB's member names (times in epoch milliseconds), a member
 * without a value left out. It is the form the first release that kept jobs wrote (with Jackson),
 * so its rows are read as they are: a description's record type maps its fields to and from this
 * form in one place (transfer/ImportDescription, transfer/ExportDescription), and nothing else
 * reads a job by a member's name.
 */
public final class StoredFields {

    private final Map<String, Object> fields = new LinkedHashMap<>();

    /** A member's text, or null when absent. */
    public String text(String name) {
        Object v = fields.get(name);
        return v == null ? null : v.toString();
    }

    /** An integer member, or null when absent. */
    public Long number(String name) {
        Object v = fields.get(name);
        return v instanceof Long n ? n : v == null ? null : Long.valueOf(v.toString());
    }

    /** An integer member, or 0 when absent. */
    public long count(String name) {
        Long n = number(name);
        return n == null ? 0 : n;
    }

    /** A time member (epoch milliseconds), or null when absent. */
    public Instant time(String name) {
        Long n = number(name);
        return n == null ? null : Instant.ofEpochMilli(n);
    }

    /** An enum member by its constant's name, or null when absent. */
    public <E extends Enum<E>> E constant(Class<E> type, String name) {
        String v = text(name);
        return v == null ? null : Enum.valueOf(type, v);
    }

    /** Sets a member; a null value leaves it out. */
    public StoredFields put(String name, Object value) {
        if (value == null) fields.remove(name);
        else fields.put(name, value instanceof Instant t ? (Object) t.toEpochMilli()
                : value instanceof Integer i ? (Object) i.longValue()
                : value instanceof Long ? value : value instanceof Enum<?> e ? e.name() : value.toString());
        return this;
    }

    public byte[] encode() {
        StringBuilder s = new StringBuilder("{");
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            if (s.length() > 1) s.append(',');
            quote(s, e.getKey());
            s.append(':');
            if (e.getValue() instanceof Long n) s.append(n);
            else quote(s, e.getValue().toString());
        }
        return s.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void quote(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) s.append(String.format("\\u%04X", (int) c));
                    else s.append(c);
                }
            }
        }
        s.append('"');
    }

    /** Reads a stored description: strings, integers; a null, a boolean or a fraction read as their text. */
    public static StoredFields decode(byte[] stored) {
        StoredFields f = new StoredFields();
        Reader r = new Reader(new String(stored, StandardCharsets.UTF_8));
        r.expect('{');
        if (r.peek() == '}') return f;
        do {
            String name = r.string();
            r.expect(':');
            Object value = r.value();
            if (value != null) f.fields.put(name, value);
        } while (r.comma());
        r.expect('}');
        return f;
    }

    private static final class Reader {
        private final String text;
        private int at;

        Reader(String text) {
            this.text = text;
        }

        char peek() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
            if (at == text.length()) throw new IllegalArgumentException("a job's stored description ends early");
            return text.charAt(at);
        }

        void expect(char c) {
            if (peek() != c) throw new IllegalArgumentException("a job's stored description: '" + c + "' expected at " + at);
            at++;
        }

        boolean comma() {
            if (peek() != ',') return false;
            at++;
            return true;
        }

        Object value() {
            char c = peek();
            if (c == '"') return string();
            int start = at;
            while (at < text.length() && ",}] \t\r\n".indexOf(text.charAt(at)) < 0) at++;
            String token = text.substring(start, at);
            if (token.equals("null")) return null;
            if (token.matches("-?[0-9]+")) return Long.parseLong(token);
            return token;
        }

        String string() {
            expect('"');
            StringBuilder s = new StringBuilder();
            while (true) {
                char c = text.charAt(at++);
                if (c == '"') return s.toString();
                if (c != '\\') {
                    s.append(c);
                    continue;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> s.append('\n');
                    case 'r' -> s.append('\r');
                    case 't' -> s.append('\t');
                    case 'b' -> s.append('\b');
                    case 'f' -> s.append('\f');
                    case 'u' -> {
                        s.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> s.append(e); // \" \\ \/
                }
            }
        }
    }
}
