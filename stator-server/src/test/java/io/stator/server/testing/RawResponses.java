package io.stator.server.testing;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Keeps the body of the last response a client received, as sent (the SDK's model drops members
 * it does not know, and tests check that Stator sends only DynamoDB's). Give it to
 * {@link StatorTestServer#newClient(ExecutionInterceptor...)}.
 */
public final class RawResponses implements ExecutionInterceptor {

    private volatile byte[] last = new byte[0];

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes executionAttributes) {
        Optional<InputStream> body = context.responseBody();
        try (InputStream in = body.orElseGet(InputStream::nullInputStream)) {
            last = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.of(new ByteArrayInputStream(last));
    }

    /** The last response's body, as bytes (empty for an empty body). */
    public byte[] lastBytes() { return last.clone(); }

    /** The last response's body as JSON. */
    public JsonNode lastJson() {
        return JsonNode.parser().parse(new ByteArrayInputStream(last));
    }
}
