package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.streams.Streams;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.GetShardIteratorInput;
import java.io.IOException;

/** GetShardIterator: an opaque iterator into one shard, living 15 minutes. */
final class GetShardIterator implements Action<GetShardIteratorInput> {

    private final Engine engine;

    GetShardIterator(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(GetShardIteratorInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) {
            Permissions.resource(access, engine, "GetShardIterator", request.streamArn(),
                    Permissions.tableOfArn(engine, request.streamArn()));
        }
        String type = request.shardIteratorType();
        boolean positioned = type.equals("AT_SEQUENCE_NUMBER") || type.equals("AFTER_SEQUENCE_NUMBER");
        // Which text DynamoDB gives these two is not recorded anywhere we could find; DynamoDB
        // Local checks both here, before the stream's lookup (LocalAmazonDynamoDBStreams).
        if (positioned && request.sequenceNumber() == null) {
            throw DynamoDbException.validation("Invalid SequenceNumber for the shard");
        }
        if (!positioned && request.sequenceNumber() != null) {
            throw DynamoDbException.validation("Invalid SequenceNumber for the shard");
        }
        String iterator = engine.streams().shardIterator(request.streamArn(), request.shardId(), type,
                request.sequenceNumber());
        response.json().writeStringField("ShardIterator", iterator);
    }
}
