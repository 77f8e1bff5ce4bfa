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
 * The access keys a verifying server accepts, each with its secret access key and, for a
 * temporary key, the session token that must come with it.
 *
 * <p>File format, one key a line: {@code ACCESS_KEY_ID SECRET_ACCESS_KEY [SESSION_TOKEN]}, the
 * fields separated by spaces or tabs. A line with a third field describes temporary credentials,
 * as AWS STS issues them: requests signed with that key must carry that token in
 * X-Amz-Security-Token. Blank lines and lines whose first non-blank character is '#' are
 * ignored. A line with any other number of fields, or an access key id given twice, is an error
 * naming the line. Error messages never echo a line's text, since it may hold a secret.
 */
public final class Credentials {

    /**
     * One access key's secrets.
     *
     * @param secretAccessKey the key that signs
     * @param sessionToken the token requests with this key must carry, or null for a long-term key
     */
    public record AccessKey(String secretAccessKey, String sessionToken) {
        public AccessKey {
            Objects.requireNonNull(secretAccessKey, "secret access key");
        }

        /** Only the presence of a token, never its value: these records reach no log through here. */
        @Override
        public String toString() {
            return sessionToken == null ? "AccessKey[long-term]" : "AccessKey[temporary]";
        }
    }

    private final Map<String, AccessKey> keysById;

    private Credentials(Map<String, AccessKey> keysById) {
        this.keysById = Map.copyOf(keysById);
    }

    /** The given long-term keys, access key id to secret access key. */
    public static Credentials of(Map<String, String> secretsByAccessKeyId) {
        Map<String, AccessKey> keys = new LinkedHashMap<>();
        secretsByAccessKeyId.forEach((id, secret) ->
                keys.put(Objects.requireNonNull(id, "access key id"), new AccessKey(secret, null)));
        return new Credentials(keys);
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
        Map<String, AccessKey> keys = new LinkedHashMap<>();
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
            if (fields.length != 2 && fields.length != 3) {
                throw new IllegalArgumentException(source + ", line " + lineNumber
                        + ": expected 'ACCESS_KEY_ID SECRET_ACCESS_KEY [SESSION_TOKEN]' (2 or 3 fields separated"
                        + " by spaces), found " + fields.length + (fields.length == 1 ? " field" : " fields"));
            }
            Integer previous = definedOnLine.putIfAbsent(fields[0], lineNumber);
            if (previous != null) {
                throw new IllegalArgumentException(source + ", line " + lineNumber + ": access key id '"
                        + fields[0] + "' is already defined on line " + previous);
            }
            keys.put(fields[0], new AccessKey(fields[1], fields.length == 3 ? fields[2] : null));
        }
        return new Credentials(keys);
    }

    /** The secrets of {@code accessKeyId}, or null when the key is unknown. */
    public AccessKey accessKey(String accessKeyId) {
        return keysById.get(accessKeyId);
    }

    /** The secret access key of {@code accessKeyId}, or null when the key is unknown. */
    public String secretAccessKey(String accessKeyId) {
        AccessKey key = keysById.get(accessKeyId);
        return key == null ? null : key.secretAccessKey();
    }

    /** The session token {@code accessKeyId} must be used with, or null (long-term or unknown key). */
    public String sessionToken(String accessKeyId) {
        AccessKey key = keysById.get(accessKeyId);
        return key == null ? null : key.sessionToken();
    }

    public boolean contains(String accessKeyId) {
        return keysById.containsKey(accessKeyId);
    }

    public int size() {
        return keysById.size();
    }

    /** Lists the access key ids only; secrets and tokens never reach a log through here. */
    @Override
    public String toString() {
        return "Credentials" + keysById.keySet();
    }
}
