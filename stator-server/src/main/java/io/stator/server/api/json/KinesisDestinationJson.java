package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.kinesis.KinesisDestinations;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import java.io.IOException;

/**
 * EnableKinesisStreamingDestination's, DisableKinesisStreamingDestination's and
 * UpdateKinesisStreamingDestination's answer: {"DestinationStatus", "<configuration member>":
 * {...}, "StreamArn", "TableName"}, the request's configuration echoed ({} when it sent none, as
 * DynamoDB answers an Enable: ack-api-quirks DDB-TABLE-299).
 */
public final class KinesisDestinationJson {

    private KinesisDestinationJson() {}

    public static void write(JsonGenerator g, KinesisDestinations.Described described, String configurationMember,
                             Precision echoed) throws IOException {
        g.writeStringField("DestinationStatus", described.destination().status().name());
        g.writeObjectFieldStart(configurationMember);
        if (echoed != null) g.writeStringField("ApproximateCreationDateTimePrecision", echoed.name());
        g.writeEndObject();
        g.writeStringField("StreamArn", described.destination().streamArn());
        g.writeStringField("TableName", described.tableName());
    }
}
