package io.stator.server.auth;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The access keys a verifying server accepts, each with its secret access key.
 *
 * <p>File format, one key a line: {@code ACCESS_KEY_ID SECRET_ACCESS_KEY}, the two separated by
 * spaces or tabs. Blank lines and lines whose first non-blank character is '#' are ignored. A
 * line with any other number of fields, or an access key id given twice, is an error naming the
 * line. Error messages never echo a line's text, since it may hold a secret.
 */
public final class Credentials {

    private final Map<String, String> secretsByAccessKeyId;

    private Credentials(Map<String, String> secretsByAccessKeyId) {
        this.secretsByAccessKeyId = Map.copyOf(secretsByAccessKeyId);
    }

    /** The given pairs, access key id to secret access key. */
    public static Credentials of(Map<String, String> secretsByAccessKeyId) {
        secretsByAccessKeyId.forEach((id, secret) -> {
            Objects.requireNonNull(id, "access key id");
            Objects.requireNonNull(secret, "secret access key");
        });
        return new Credentials(secretsByAccessKeyId);
    }

    /**
     * Reads a credentials file (UTF-8).
     *
     * @throws IllegalArgumentException naming the file and line when a line is malformed
     * @throws IOException when the file cannot be read
     */
    public static Credentials load(Path file) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(reader, file.toString());
        }
    }

    /** Parses the file format from text; {@code source} names it in error messages. */
    public static Credentials parse(String text, String source) {
        try {
            return parse(new StringReader(text), source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses the file format from a reader; {@code source} names it in error messages. */
    public static Credentials parse(Reader text, String source) throws IOException {
        BufferedReader reader = text instanceof BufferedReader b ? b : new BufferedReader(text);
        Map<String, String> secrets = new LinkedHashMap<>();
        Map<String, Integer> definedOnLine = new HashMap<>();
        int lineNumber = 0;
        for (String line; (line = reader.readLine()) != null; ) {
            lineNumber++;
            if (lineNumber == 1 && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.charAt(0) == '#') {
                continue;
            }
            String[] fields = trimmed.split("[ \t]+");
            if (fields.length != 2) {
                throw new IllegalArgumentException(source + ", line " + lineNumber
                        + ": expected 'ACCESS_KEY_ID SECRET_ACCESS_KEY' (2 fields separated by spaces), found "
                        + fields.length + (fields.length == 1 ? " field" : " fields"));
            }
            Integer previous = definedOnLine.putIfAbsent(fields[0], lineNumber);
            if (previous != null) {
                throw new IllegalArgumentException(source + ", line " + lineNumber + ": access key id '"
                        + fields[0] + "' is already defined on line " + previous);
            }
            secrets.put(fields[0], fields[1]);
        }
        return new Credentials(secrets);
    }

    /** The secret access key of {@code accessKeyId}, or null when the key is unknown. */
    public String secretAccessKey(String accessKeyId) {
        return secretsByAccessKeyId.get(accessKeyId);
    }

    public boolean contains(String accessKeyId) {
        return secretsByAccessKeyId.containsKey(accessKeyId);
    }

    public int size() {
        return secretsByAccessKeyId.size();
    }

    /** Lists the access key ids only; secrets never reach a log through here. */
    @Override
    public String toString() {
        return "Credentials" + secretsByAccessKeyId.keySet();
    }
}
