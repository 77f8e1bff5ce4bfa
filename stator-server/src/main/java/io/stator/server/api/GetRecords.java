package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.streams.Streams;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.GetRecordsInput;
import java.io.IOException;
import java.util.Map;

/**
 * GetRecords: up to Limit (at most 1,000) records, at most 1 MB, and the iterator to go on with;
 * none once a closed shard has been read to its end. Records are written as DynamoDB writes them
 * (API reference, "Record" and "StreamRecord"; DynamoDB Local's eventVersion "1.1").
 */
final class GetRecords implements Action<GetRecordsInput> {

    private final Engine engine;

    GetRecords(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(GetRecordsInput request, Authorizer access, ResponseBody response) throws IOException {
        int limit = request.limit() == null ? 1000 : request.limit();
        if (limit > 1000) {
            // DynamoDB Local's text (LocalAmazonDynamoDBStreams.getRecords).
            throw DynamoDbException.invalidParameter("Limit should be less than or equal to 1000");
        }
        // The iterator is verified first: the stream it names is what the caller must be allowed
        // to read (dynamodb:GetRecords on the stream's ARN), whoever the iterator was issued to.
        Streams.ShardIterator iterator = engine.streams().iterator(request.shardIterator());
        if (access.enforced()) {
            Permissions.resource(access, engine, "GetRecords", iterator.streamArn(),
                    Permissions.tableOfArn(engine, iterator.streamArn()));
        }
        Streams.RecordsPage page = engine.streams().records(iterator, limit);
        String region = engine.config().region();
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Records");
        for (Streams.StreamRecord r : page.records()) {
            g.writeStartObject();
            g.writeStringField("eventID", r.eventId());
            g.writeStringField("eventName", r.eventName().name());
            g.writeStringField("eventVersion", "1.1");
            g.writeStringField("eventSource", "aws:dynamodb");
            g.writeStringField("awsRegion", region);
            g.writeObjectFieldStart("dynamodb");
            g.writeNumberField("ApproximateCreationDateTime", r.approximateCreationSeconds());
            writeItem(g, "Keys", r.keys());
            writeItem(g, "NewImage", r.newImage());
            writeItem(g, "OldImage", r.oldImage());
            g.writeStringField("SequenceNumber", r.sequenceNumber());
            g.writeNumberField("SizeBytes", r.sizeBytes());
            g.writeStringField("StreamViewType", r.streamViewType());
            g.writeEndObject();
            if (r.byTimeToLive()) {
                // Time to Live's deletions: type "Service", principalId "dynamodb.amazonaws.com"
                // (API reference, DynamoDB Streams, Record and Identity). On the wire the members
                // are named as the service model names them, "Type" and "PrincipalId" (botocore's
                // and the bundled dynamodbstreams-2012-08-10.json, shape Identity, no locationName):
                // the SDKs read no other. The developer guide's lower-case "type"/"principalId" is
                // the form Lambda's event records take, not GetRecords'.
                g.writeObjectFieldStart("userIdentity");
                g.writeStringField("PrincipalId", "dynamodb.amazonaws.com");
                g.writeStringField("Type", "Service");
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        if (page.nextShardIterator() != null) g.writeStringField("NextShardIterator", page.nextShardIterator());
    }

    private static void writeItem(JsonGenerator g, String name, Map<String, io.stator.core.model.AttributeValue> item)
            throws IOException {
        if (item == null) return;
        g.writeFieldName(name);
        AttributeValueJson.writeItem(g, item);
    }
}
