package io.stator.server.testing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Loads many items fast, for tests that need a large table (BatchWriteItem is not there yet):
 * PutItem from several threads at once, sent as plain JSON ({@link RawDynamoDb}). Loading is
 * not what these tests test, and the SDK's own work per request (signing, endpoint rules,
 * marshalling) halves the rate at which two cores can load.
 */
public final class ParallelWrites {

    private static final int THREADS = 8;
    private static final JsonFactory JSON = new JsonFactory();

    private ParallelWrites() {}

    /** Puts every item into the table; returns when all are stored, or throws the first failure. */
    public static void putAll(URI endpoint, String table, List<Map<String, AttributeValue>> items) {
        RawDynamoDb raw = new RawDynamoDb(endpoint);
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    for (int i = next.getAndIncrement(); i < items.size(); i = next.getAndIncrement()) {
                        RawDynamoDb.Reply reply = putWithRetry(raw, putItem(table, items.get(i)));
                        if (reply.status() != 200) throw new IllegalStateException("PutItem failed: " + reply.body());
                    }
                }));
            }
            for (Future<?> w : workers) w.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("loading failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * One PutItem, sent again if the JDK's client loses it. Under load that client sometimes
     * takes a reply arriving on a connection it has just reused from its pool for stray data and
     * closes the connection ("Unexpected cleanup triggered for non pooled connection ... Data
     * received while in pool", then "header parser received no bytes"): a race in the client
     * (OpenJDK JDK-8338569, JDK-8357639), not something the server sent. PutItem is idempotent,
     * so sending it again is safe.
     */
    private static RawDynamoDb.Reply putWithRetry(RawDynamoDb raw, String body) {
        for (int attempt = 1; ; attempt++) {
            try {
                return raw.call("PutItem", body);
            } catch (UncheckedIOException e) {
                if (attempt == 3) throw e;
            }
        }
    }

    private static String putItem(String table, Map<String, AttributeValue> item) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("TableName", table);
            g.writeFieldName("Item");
            writeItem(g, item);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeItem(JsonGenerator g, Map<String, AttributeValue> item) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            g.writeFieldName(e.getKey());
            writeValue(g, e.getValue());
        }
        g.writeEndObject();
    }

    /** An attribute value in DynamoDB's JSON: one type name and its value. */
    private static void writeValue(JsonGenerator g, AttributeValue v) throws IOException {
        g.writeStartObject();
        if (v.s() != null) {
            g.writeStringField("S", v.s());
        } else if (v.n() != null) {
            g.writeStringField("N", v.n());
        } else if (v.b() != null) {
            g.writeStringField("B", base64(v.b()));
        } else if (v.bool() != null) {
            g.writeBooleanField("BOOL", v.bool());
        } else if (v.nul() != null) {
            g.writeBooleanField("NULL", v.nul());
        } else if (v.hasSs() || v.hasNs()) {
            g.writeArrayFieldStart(v.hasSs() ? "SS" : "NS");
            for (String member : v.hasSs() ? v.ss() : v.ns()) g.writeString(member);
            g.writeEndArray();
        } else if (v.hasBs()) {
            g.writeArrayFieldStart("BS");
            for (SdkBytes member : v.bs()) g.writeString(base64(member));
            g.writeEndArray();
        } else if (v.hasM()) {
            g.writeFieldName("M");
            writeItem(g, v.m());
        } else if (v.hasL()) {
            g.writeArrayFieldStart("L");
            for (AttributeValue element : v.l()) writeValue(g, element);
            g.writeEndArray();
        } else {
            throw new IllegalArgumentException("attribute value without a type: " + v);
        }
        g.writeEndObject();
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArray());
    }
}
