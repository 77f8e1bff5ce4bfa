package io.stator.server.protocol;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The JSON body of one response. An action writes its members through {@link #json()}, which
 * opens the top-level object on first use; an action that never calls it answers with an empty
 * body (DynamoDB does so for TagResource and UntagResource).
 */
public final class ResponseBody {

    private static final JsonFactory JSON = new JsonFactory();

    private final ByteArrayBuilder buffer = new ByteArrayBuilder(256);
    private JsonGenerator generator;

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

    /** Closes the object and returns the bytes (empty when nothing was written). */
    public byte[] finish() {
        if (generator == null) return new byte[0];
        try {
            generator.writeEndObject();
            generator.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }
}
