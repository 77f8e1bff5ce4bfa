package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.streams.Streams;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeStreamInput;
import java.io.IOException;

/**
 * DescribeStream: the stream and a page of its shards (Limit, at most 100; ExclusiveStartShardId),
 * with their lineage (ParentShardId) and sequence number ranges; ShardFilter CHILD_SHARDS lists the
 * children of one shard.
 */
final class DescribeStream implements Action<DescribeStreamInput> {

    private final Engine engine;

    DescribeStream(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeStreamInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) {
            Permissions.resource(access, engine, "DescribeStream", request.streamArn(),
                    Permissions.tableOfArn(engine, request.streamArn()));
        }
        int limit = request.limit() == null ? 100 : Math.min(request.limit(), 100);
        String childrenOf = null;
        if (request.shardFilter() != null) {
            if (!"CHILD_SHARDS".equals(request.shardFilter().type()) || request.shardFilter().shardId() == null) {
                throw DynamoDbException.validation("Stator serves ShardFilter of Type CHILD_SHARDS with a ShardId only");
            }
            childrenOf = request.shardFilter().shardId();
        }
        Streams.StreamDescription d = engine.streams().describe(request.streamArn(), limit,
                request.exclusiveStartShardId(), childrenOf);
        JsonGenerator g = response.json();
        g.writeObjectFieldStart("StreamDescription");
        g.writeStringField("StreamArn", d.streamArn());
        g.writeStringField("StreamLabel", d.streamLabel());
        g.writeStringField("StreamStatus", d.streamStatus());
        g.writeStringField("StreamViewType", d.streamViewType());
        g.writeNumberField("CreationRequestDateTime", d.creationRequestMillis() / 1000.0);
        g.writeStringField("TableName", d.tableName());
        g.writeArrayFieldStart("KeySchema");
        writeKey(g, d.keySchema().partitionKey(), "HASH");
        if (d.keySchema().hasSortKey()) writeKey(g, d.keySchema().sortKey(), "RANGE");
        g.writeEndArray();
        g.writeArrayFieldStart("Shards");
        for (Streams.ShardDescription s : d.shards()) {
            g.writeStartObject();
            g.writeStringField("ShardId", s.shardId());
            g.writeObjectFieldStart("SequenceNumberRange");
            g.writeStringField("StartingSequenceNumber", s.startingSequenceNumber());
            if (s.endingSequenceNumber() != null) g.writeStringField("EndingSequenceNumber", s.endingSequenceNumber());
            g.writeEndObject();
            if (s.parentShardId() != null) g.writeStringField("ParentShardId", s.parentShardId());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (d.lastEvaluatedShardId() != null) g.writeStringField("LastEvaluatedShardId", d.lastEvaluatedShardId());
        g.writeEndObject();
    }

    private static void writeKey(JsonGenerator g, String name, String type) throws IOException {
        g.writeStartObject();
        g.writeStringField("AttributeName", name);
        g.writeStringField("KeyType", type);
        g.writeEndObject();
    }
}
