package io.stator.server.protocol;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.stator.server.http.BodyChunks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The JSON body of one response. An action writes its members through {@link #json()}, which
 * opens the top-level object on first use; an action that never calls it answers with an empty
 * body (DynamoDB does so for TagResource and UntagResource). The body is written into
 * {@link BodyChunks}, which the network takes as they are.
 */
public final class ResponseBody {

    /**
     * How responses are written. A character beyond the BMP is written as its four UTF-8 bytes,
     * not as two escapes of its surrogates: as a stored string is written from its UTF-8
     * (AttributeValueJson), so the two ways of writing an item give the same bytes.
     */
    public static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

    private final BodyChunks buffer = new BodyChunks();
    private JsonGenerator generator;
    // Items returned, per table, for the ReturnedItemCount metric: one table in fields (a Query,
    // a Scan), more in the map (a BatchGetItem).
    private String returnedTable;
    private int returnedCount;
    private Map<String, Integer> moreReturned;

    /** The generator, positioned inside the response's top-level object. */
    public JsonGenerator json() {
        if (generator == null) {
            try {
                generator = JSON.createGenerator(buffer, JsonEncoding.UTF8);
                generator.writeStartObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return generator;
    }

    /** Records that the response returns {@code count} items of {@code table} (as the request named it). */
    public void returnedItems(String table, int count) {
        if (returnedTable == null || returnedTable.equals(table)) {
            returnedTable = table;
            returnedCount += count;
        } else {
            if (moreReturned == null) moreReturned = new HashMap<>();
            moreReturned.merge(table, count, Integer::sum);
        }
    }

    /** Whether the response returns items (a Query, a Scan, a BatchGetItem), as counted by {@link #returnedItems(String, int)}. */
    public boolean returnsItems() {
        return returnedTable != null;
    }

    /** The items the response returns of {@code table}. */
    public int returnedItems(String table) {
        if (table == null) return 0;
        if (table.equals(returnedTable)) return returnedCount;
        return moreReturned == null ? 0 : moreReturned.getOrDefault(table, 0);
    }

    /** Closes the object and returns the bytes (empty when nothing was written). */
    public BodyChunks finish() {
        if (generator == null) return buffer;
        try {
            generator.writeEndObject();
            generator.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer;
    }
}
