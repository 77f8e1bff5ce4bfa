package io.stator.engine.kinesis;

import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import java.util.List;
import java.util.Map;

/**
 * Where change records go: a Kinesis-compatible endpoint, the front end's ({@code
 * --kinesis-endpoint}), which writes each record in DynamoDB's format (docs/dynamodb/kinesis.md).
 */
public interface KinesisSink extends AutoCloseable {

    /** Whether the data stream exists and is ACTIVE, so that records can be put to it. */
    boolean writable(String streamName);

    /**
     * Puts the records to the stream, in their order, in as many calls as the stream's limits need;
     * a record the stream could never take (over 1 MiB) is left out.
     *
     * @return the positions of the records the stream refused this time (to be put again)
     * @throws RuntimeException when none could be put (the endpoint unreachable, the stream gone)
     */
    List<Integer> put(String streamName, List<Record> records);

    @Override
    void close();

    /**
     * One change as DynamoDB writes it to a Kinesis data stream.
     *
     * @param partitionKey   the Kinesis partition key: the same for every change of one item
     * @param eventId        a UUID, the same each time the change is put
     * @param creationMicros when the change was made, epoch microseconds
     * @param precision      how ApproximateCreationDateTime is written: epoch milliseconds or microseconds
     * @param explicitPrecision whether the destination's precision was set (the record then names it)
     * @param sizeBytes      the sizes of its keys and images, as DynamoDB Streams' SizeBytes
     * @param byTimeToLive   a deletion by Time to Live
     */
    record Record(String partitionKey, String eventId, ChangeRecord.EventName eventName, String tableName,
                  String region, long creationMicros, Precision precision, boolean explicitPrecision,
                  Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                  Map<String, AttributeValue> oldImage, long sizeBytes, boolean byTimeToLive) {}
}
