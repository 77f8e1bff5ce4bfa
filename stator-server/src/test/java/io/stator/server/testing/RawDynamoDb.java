package io.stator.server.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Sends a request body exactly as written, for tests of what the SDK would not send or would
 * hide (the wire {@code __type}). The Authorization header is well formed but not a real
 * signature, which Stator accepts in its default anonymous mode, as DynamoDB Local does.
 */
public final class RawDynamoDb {

    /** An answer: the HTTP status and, for an error, its {@code __type} and message (else null). */
    public record Reply(int status, String type, String message, String body) {}

    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final JsonFactory JSON = new JsonFactory();

    private final URI endpoint;
    // HTTP/1.1 as the SDKs speak it: the JDK client's default (HTTP/2) first tries an h2c upgrade.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public RawDynamoDb(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Sends {@code body}, encoded in UTF-8, as the request of {@code action} (e.g. "PutItem"). */
    public Reply call(String action, String body) {
        return call(action, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Sends these bytes as the body of {@code action}'s request, exactly as given. */
    public Reply call(String action, byte[] body) {
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(AMZ_DATE);
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/x-amz-json-1.0")
                .header("X-Amz-Target", "DynamoDB_20120810." + action)
                .header("X-Amz-Date", date)
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=" + StatorTestServer.ACCESS_KEY + "/"
                        + date.substring(0, 8) + "/us-east-1/dynamodb/aws4_request, "
                        + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0".repeat(64))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return reply(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Reply reply(int status, String body) throws IOException {
        String type = null;
        String message = null;
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return new Reply(status, null, null, body);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "__type" -> type = p.getText();
                    case "message", "Message" -> message = p.getText();
                    default -> p.skipChildren();
                }
            }
        }
        return new Reply(status, type, message, body);
    }
}
