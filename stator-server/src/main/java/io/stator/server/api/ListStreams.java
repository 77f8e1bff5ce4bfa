package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.streams.Streams;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListStreamsInput;
import java.io.IOException;

/**
 * ListStreams: the streams of every table, or of one, 100 at most a page (Limit; "The upper limit
 * is 100", botocore's dynamodbstreams model; 101 is a ValidationException, ServiceModel), paged
 * with ExclusiveStartStreamArn.
 */
final class ListStreams implements Action<ListStreamsInput> {

    private final Engine engine;

    ListStreams(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ListStreamsInput request, Authorizer access, ResponseBody response) throws IOException {
        // ListStreams names no resource in the Service Authorization Reference: "*".
        if (access.enforced()) Permissions.account(access, "ListStreams");
        int limit = request.limit() == null ? 100 : request.limit();
        Streams.StreamList list = engine.streams().list(request.tableName(), request.exclusiveStartStreamArn(), limit);
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Streams");
        for (Streams.StreamSummary s : list.streams()) {
            g.writeStartObject();
            g.writeStringField("StreamArn", s.streamArn());
            g.writeStringField("TableName", s.tableName());
            g.writeStringField("StreamLabel", s.streamLabel());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (list.lastEvaluatedStreamArn() != null) g.writeStringField("LastEvaluatedStreamArn", list.lastEvaluatedStreamArn());
    }
}
