package io.stator.server.auth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A raw query string split into decoded name/value pairs, in arrival order, duplicates kept.
 * '+' is a literal plus, not a space: SigV4 signers encode a space as %20, and a '+' that a
 * signer left unencoded was a plus when it signed. A malformed escape is kept as literal text
 * rather than rejected; it then fails the signature, not the parse.
 */
final class QueryParameters {

    record Parameter(String name, String value) {}

    static final QueryParameters EMPTY = new QueryParameters(List.of());

    private final List<Parameter> parameters;

    private QueryParameters(List<Parameter> parameters) {
        this.parameters = parameters;
    }

    static QueryParameters parse(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return EMPTY;
        }
        List<Parameter> parameters = new ArrayList<>();
        int start = 0;
        int length = rawQuery.length();
        while (start <= length) {
            int end = rawQuery.indexOf('&', start);
            if (end < 0) {
                end = length;
            }
            if (end > start) {
                int eq = rawQuery.indexOf('=', start);
                if (eq < 0 || eq > end) {
                    parameters.add(new Parameter(decode(rawQuery, start, end), ""));
                } else {
                    parameters.add(new Parameter(decode(rawQuery, start, eq), decode(rawQuery, eq + 1, end)));
                }
            }
            start = end + 1;
        }
        return new QueryParameters(List.copyOf(parameters));
    }

    List<Parameter> all() {
        return parameters;
    }

    boolean isEmpty() {
        return parameters.isEmpty();
    }

    boolean contains(String name) {
        for (Parameter p : parameters) {
            if (p.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The value of {@code name} (case-sensitive, as AWS matches these), or null; a parameter
     * given several times reads as its values joined with ',', as a repeated header does
     * ({@link SignedRequest#header}), so that a signature parameter given twice (both covered by
     * the signature) is never read as one of its values.
     */
    String value(String name) {
        String value = null;
        for (Parameter p : parameters) {
            if (p.name().equals(name)) {
                value = value == null ? p.value() : value + ',' + p.value();
            }
        }
        return value;
    }

    static String decode(String s, int from, int to) {
        int percent = s.indexOf('%', from);
        if (percent < 0 || percent >= to) {
            return s.substring(from, to);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; ) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < to && hexValue(s.charAt(i + 1)) >= 0 && hexValue(s.charAt(i + 2)) >= 0) {
                bytes.write(hexValue(s.charAt(i + 1)) << 4 | hexValue(s.charAt(i + 2)));
                i += 3;
            } else {
                int next = i + 1;
                if (Character.isHighSurrogate(c) && next < to) {
                    next++;
                }
                byte[] encoded = s.substring(i, next).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                i = next;
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }
}
