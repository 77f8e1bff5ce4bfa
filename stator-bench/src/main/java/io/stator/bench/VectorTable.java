package io.stator.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The vector workload's table and the JSON of its requests: a table keyed by {@code pk} (the
 * vector's {@link VectorData#key}), on demand, with one vector index on the attribute
 * {@code embedding}: EUCLIDEAN, no search schema (one partition holds every vector), KEYS_ONLY
 * (a result is the item's key and its score). Each item is its key and its vector.
 */
record VectorTable(String name, int dimensions) {

    static final String INDEX = "embedding-index";
    static final String ATTRIBUTE = "embedding";
    /** BatchWriteItem's limit of items per request. */
    static final int BATCH = 25;
    static final int TOP_K = VectorData.K;

    private static final JsonFactory JSON = new JsonFactory();

    String createTable() {
        return "{\"TableName\":\"" + name + "\","
                + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
                + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
                + "\"BillingMode\":\"PAY_PER_REQUEST\","
                + "\"VectorIndexes\":[{\"IndexName\":\"" + INDEX + "\",\"VectorAttribute\":{\"AttributeName\":\"" + ATTRIBUTE
                + "\"},\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},\"Dimensions\":" + dimensions
                + ",\"DistanceFunction\":\"EUCLIDEAN\"}]}";
    }

    String describeTable() {
        return "{\"TableName\":\"" + name + "\"}";
    }

    /** BatchWriteItem of vectors {@code from} to {@code to - 1} (at most {@link #BATCH}). */
    String batchWrite(VectorData data, int from, int to) {
        StringBuilder json = new StringBuilder(64 + (to - from) * (48 + dimensions * 20));
        json.append("{\"RequestItems\":{\"").append(name).append("\":[");
        for (int i = from; i < to; i++) {
            if (i > from) json.append(',');
            json.append("{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"").append(VectorData.key(i)).append("\"},\"")
                    .append(ATTRIBUTE).append("\":{\"L\":");
            data.appendVector(json, data.vectors(), i);
            json.append("}}}}");
        }
        return json.append("]}}").toString();
    }

    /** SearchVectors of query {@code q} (or of vector {@code q} of the set, with {@code fromSet}), TopK 10. */
    String search(VectorData data, int q, boolean fromSet, int topK) {
        StringBuilder json = new StringBuilder(128 + dimensions * 20);
        json.append("{\"TableName\":\"").append(name).append("\",\"IndexName\":\"").append(INDEX)
                .append("\",\"TopK\":").append(topK).append(",\"SearchVector\":");
        data.appendVector(json, fromSet ? data.vectors() : data.queries(), q);
        return json.append('}').toString();
    }

    /** Creates the table and waits until it is ACTIVE. */
    void create(DynamoRequests requests) throws IOException {
        try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
            if (connection.exchange(requests.build("CreateTable", createTable())) != 200) {
                throw new IOException("CreateTable answered " + connection.status() + ": " + connection.bodyText());
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!connection.bodyText().replace(" ", "").contains("\"TableStatus\":\"ACTIVE\"")) {
                if (System.nanoTime() > deadline) throw new IOException("table " + name + " not ACTIVE after 60 s");
                LockSupport.parkNanos(20_000_000);
                connection.exchange(requests.build("DescribeTable", describeTable()));
            }
        }
    }

    /** What DescribeTable says of the vector index: its IndexStatus and ItemCount. */
    record IndexState(String status, long itemCount) {}

    static IndexState indexState(String describeTable) throws IOException {
        try (JsonParser p = JSON.createParser(describeTable)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("VectorIndexes")) {
                    String status = null;
                    long count = -1;
                    p.nextToken(); // [
                    p.nextToken(); // { of the first (the only) index
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        p.nextToken();
                        switch (field) {
                            case "IndexStatus" -> status = p.getText();
                            case "ItemCount" -> count = p.getLongValue();
                            default -> p.skipChildren();
                        }
                    }
                    return new IndexState(status, count);
                }
            }
        }
        throw new IOException("DescribeTable shows no vector index: " + describeTable);
    }

    /**
     * The vector numbers of a SearchVectors response's results, in their order: the {@code S}
     * of each result's {@code pk}. A key that is not a vector's counts as -1 (never a neighbour).
     */
    static int[] resultNumbers(byte[] body, int offset, int length) throws IOException {
        int[] out = new int[TOP_K];
        int n = 0;
        try (JsonParser p = JSON.createParser(body, offset, length)) {
            while (p.nextToken() != null) {
                if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals("pk")
                        && p.nextToken() == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME
                        && p.currentName().equals("S") && p.nextToken() == JsonToken.VALUE_STRING) {
                    if (n == out.length) out = Arrays.copyOf(out, n * 2);
                    out[n++] = VectorData.number(p.getText());
                }
            }
        }
        return Arrays.copyOf(out, n);
    }
}
