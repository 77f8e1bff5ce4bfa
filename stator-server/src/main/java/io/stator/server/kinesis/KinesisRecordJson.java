package io.stator.server.kinesis;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.kinesis.KinesisSink;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A change as DynamoDB writes it to a Kinesis data stream: UTF-8 JSON, its members in the order of
 * real captures (docs/dynamodb/kinesis.md, "Record written to the Kinesis data stream"):
 * {@code awsRegion, eventID, eventName, userIdentity, recordFormat, tableName, dynamodb
 * {ApproximateCreationDateTime, Keys, NewImage, OldImage, SizeBytes[,
 * ApproximateCreationDateTimePrecision]}, eventSource}. Unlike a DynamoDB Streams record it has no
 * eventVersion, SequenceNumber or StreamViewType, its images are always both that exist, and its
 * ApproximateCreationDateTime is epoch milliseconds (or microseconds), not seconds.
 */
final class KinesisRecordJson {

    private KinesisRecordJson() {}

    static byte[] of(KinesisSink.Record r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (JsonGenerator g = ResponseBody.JSON.createGenerator(bytes)) {
            g.writeStartObject();
            g.writeStringField("awsRegion", r.region());
            g.writeStringField("eventID", r.eventId());
            g.writeStringField("eventName", r.eventName().name());
            if (r.byTimeToLive()) {
                // Time to Live's deletions carry the service's identity in DynamoDB Streams' records
                // (developer guide, "Working with expired items"); assumed the same here.
                g.writeObjectFieldStart("userIdentity");
                g.writeStringField("type", "Service");
                g.writeStringField("principalId", "dynamodb.amazonaws.com");
                g.writeEndObject();
            } else {
                g.writeNullField("userIdentity");
            }
            g.writeStringField("recordFormat", "application/json");
            g.writeStringField("tableName", r.tableName());
            g.writeObjectFieldStart("dynamodb");
            g.writeNumberField("ApproximateCreationDateTime",
                    r.precision() == Precision.MICROSECOND ? r.creationMicros() : r.creationMicros() / 1000);
            item(g, "Keys", r.keys());
            item(g, "NewImage", r.newImage());
            item(g, "OldImage", r.oldImage());
            g.writeNumberField("SizeBytes", r.sizeBytes());
            // Every captured MICROSECOND record names its precision; a record of a destination whose
            // precision was never set is as the captures from before the setting existed.
            if (r.explicitPrecision()) g.writeStringField("ApproximateCreationDateTimePrecision", r.precision().name());
            g.writeEndObject();
            g.writeStringField("eventSource", "aws:dynamodb");
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void item(JsonGenerator g, String name, Map<String, io.stator.core.model.AttributeValue> item)
            throws IOException {
        if (item == null) return;
        g.writeFieldName(name);
        AttributeValueJson.writeItem(g, item);
    }
}
