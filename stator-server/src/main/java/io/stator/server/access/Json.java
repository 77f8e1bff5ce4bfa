package io.stator.server.access;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON document as a small tree whose every value knows where it was written (line and
 * column), so that an error in a policy can say where it is. Read with jackson-core's streaming
 * parser (the server has no data-binding library, and needs none for this).
 */
final class Json {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final int MAX_DEPTH = 64;

    private Json() {}

    /** Where a value starts: 1-based line and column. */
    record Where(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }
    }

    sealed interface Value permits Obj, Arr, Str, Other {
        Where where();
    }

    /** An object; its members in the order written. */
    record Obj(Map<String, Value> members, Where where) implements Value {
        Value get(String name) { return members.get(name); }
    }

    record Arr(List<Value> elements, Where where) implements Value {}

    record Str(String value, Where where) implements Value {}

    /** A number, boolean or null: kept as its text ("12", "true", "null"). */
    record Other(String text, JsonToken token, Where where) implements Value {}

    /** Thrown for text that is not JSON, or not the JSON a policy allows (a key given twice). */
    static final class SyntaxException extends Exception {
        private final Where where;

        SyntaxException(String message, Where where) {
            super(message, null, false, false);
            this.where = where;
        }

        Where where() { return where; }
    }

    static Value parse(String text) throws SyntaxException {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) throw new SyntaxException("no JSON value", new Where(1, 1));
            Value v = read(p, 0);
            if (p.nextToken() != null) throw new SyntaxException("text after the JSON value", where(p));
            return v;
        } catch (JsonParseException e) {
            JsonLocation l = e.getLocation();
            String message = e.getOriginalMessage();
            int newline = message.indexOf('\n');
            throw new SyntaxException(newline < 0 ? message : message.substring(0, newline),
                    l == null ? new Where(1, 1) : new Where(l.getLineNr(), l.getColumnNr()));
        } catch (IOException e) {
            throw new SyntaxException(String.valueOf(e.getMessage()), new Where(1, 1));
        }
    }

    private static Value read(JsonParser p, int depth) throws IOException, SyntaxException {
        Where at = where(p);
        if (depth > MAX_DEPTH) throw new SyntaxException("nested too deeply", at);
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                Map<String, Value> members = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    Where nameAt = where(p);
                    p.nextToken();
                    if (members.put(name, read(p, depth + 1)) != null) {
                        throw new SyntaxException("\"" + name + "\" is given twice", nameAt);
                    }
                }
                return new Obj(Collections.unmodifiableMap(members), at);
            }
            case START_ARRAY -> {
                List<Value> elements = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) elements.add(read(p, depth + 1));
                return new Arr(Collections.unmodifiableList(elements), at);
            }
            case VALUE_STRING -> {
                return new Str(p.getText(), at);
            }
            default -> {
                return new Other(p.getText(), t, at);
            }
        }
    }

    private static Where where(JsonParser p) {
        JsonLocation l = p.currentTokenLocation();
        return new Where(l.getLineNr(), l.getColumnNr());
    }

    /** Writes a string as a JSON string literal. */
    static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
