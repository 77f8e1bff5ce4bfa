package io.stator.embedded;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Requests whose body is JSON a user wrote (CreateTable's request as {@code aws dynamodb
 * create-table --cli-input-json} takes it, items as {@code batch-write-item --request-items} takes
 * them), sent as the AWS CLI sends them: the JSON as the body, signed with SigV4. The SDK has no
 * public reader of DynamoDB's JSON into its model, and the server reads it exactly as it reads the
 * CLI's requests.
 */
final class JsonRequests {

    private static final JsonFactory JSON = new JsonFactory();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Headers java.net.http sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection");
    private static final int BATCH = 25;

    private JsonRequests() {}

    /** What a request answered: its body and, for CreateTable, the table's name. */
    record Reply(String body) {
        String tableName() {
            return stringAt(body, "TableDescription", "TableName");
        }
    }

    /** Sends one action; DynamoDB's error, if any, as the SDK throws it. */
    static Reply send(EmbeddedStator stator, String action, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.POST).uri(stator.endpoint())
                .putHeader("Content-Type", "application/x-amz-json-1.0")
                .putHeader("X-Amz-Target", "DynamoDB_20120810." + action)
                .build();
        var credentials = stator.credentialsProvider().resolveCredentials();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(AwsCredentialsIdentity.create(credentials.accessKeyId(), credentials.secretAccessKey()))
                .request(unsigned)
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
                .putProperty(AwsV4HttpSigner.REGION_NAME, stator.region()));
        HttpRequest.Builder request = HttpRequest.newBuilder(stator.endpoint())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        signed.request().forEachHeader((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) values.forEach(v -> request.header(name, v));
        });
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (response.statusCode() != 200) {
            String type = stringAt(response.body(), "__type");
            String message = stringAt(response.body(), "message");
            if (message == null) message = stringAt(response.body(), "Message");
            throw DynamoDbException.builder().statusCode(response.statusCode()).message(action + ": " + message)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode(type == null ? null
                            : type.substring(type.indexOf('#') + 1)).errorMessage(message).build())
                    .build();
        }
        return new Reply(response.body());
    }

    /**
     * Writes batch-write-item's request items in batches of 25 (a file may hold any number),
     * sending back what comes back unprocessed until nothing does.
     */
    static void batchWrite(EmbeddedStator stator, String json) {
        List<Map.Entry<String, String>> requests = new ArrayList<>();
        try (JsonParser p = JSON.createParser(json)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, "an object of table names");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String table = p.currentName();
                expect(p.nextToken(), JsonToken.START_ARRAY, "a list of write requests for " + table);
                while (p.nextToken() != JsonToken.END_ARRAY) requests.add(Map.entry(table, copy(p)));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not batch-write-item's request items: " + e.getMessage(), e);
        }
        for (int from = 0; from < requests.size(); from += BATCH) {
            Map<String, List<String>> byTable = new LinkedHashMap<>();
            for (Map.Entry<String, String> r : requests.subList(from, Math.min(requests.size(), from + BATCH))) {
                byTable.computeIfAbsent(r.getKey(), t -> new ArrayList<>()).add(r.getValue());
            }
            String items = requestItems(byTable);
            for (int attempt = 0; items != null; attempt++) {
                if (attempt > 0) Tables.backOff(attempt);
                items = unprocessed(send(stator, "BatchWriteItem", "{\"RequestItems\":" + items + "}").body());
            }
        }
    }

    private static String requestItems(Map<String, List<String>> byTable) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            for (Map.Entry<String, List<String>> t : byTable.entrySet()) {
                g.writeFieldName(t.getKey());
                g.writeStartArray();
                for (String request : t.getValue()) g.writeRawValue(request);
                g.writeEndArray();
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** The reply's UnprocessedItems as request items, or null when every write was done. */
    private static String unprocessed(String reply) {
        try (JsonParser p = JSON.createParser(reply)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals("UnprocessedItems")) {
                    String items = copy(p);
                    return items.equals("{}") ? null : items;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The JSON value the parser is on, as text. */
    private static String copy(JsonParser p) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.copyCurrentStructure(p);
        }
        return out.toString();
    }

    /** The string at a path of object fields, or null. */
    private static String stringAt(String json, String... path) {
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            for (int depth = 0; depth < path.length; ) {
                JsonToken t = p.nextToken();
                if (t != JsonToken.FIELD_NAME) return null;
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (!name.equals(path[depth])) {
                    p.skipChildren();
                } else if (depth == path.length - 1) {
                    return value == JsonToken.VALUE_STRING ? p.getText() : null;
                } else if (value == JsonToken.START_OBJECT) {
                    depth++;
                } else {
                    return null;
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static void expect(JsonToken actual, JsonToken expected, String what) throws IOException {
        if (actual != expected) throw new IOException("expected " + what);
    }
}
