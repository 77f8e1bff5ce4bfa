package io.stator.engine.table;

/**
 * One of a table's Kinesis data stream destinations (DynamoDB's KinesisDataStreamDestination), as
 * kept with its definition: EnableKinesisStreamingDestination adds it ENABLING, the delivery
 * ({@code io.stator.engine.kinesis}) makes it ACTIVE or ENABLE_FAILED, Disable makes it DISABLING
 * then DISABLED, Update makes it UPDATING then ACTIVE. A table has at most one destination that is
 * not DISABLED or ENABLE_FAILED, and one entry per stream ARN (docs/dynamodb/kinesis.md).
 *
 * @param description DynamoDB's DestinationStatusDescription, or null (an ACTIVE one has none)
 * @param precision   the ApproximateCreationDateTimePrecision the caller set, or null when never set
 *                    (records then carry milliseconds, and DescribeKinesisStreamingDestination shows none)
 * @param enabledMillis when it was last enabled (epoch ms): a change kept from before (a write in
 *                    flight across an earlier Disable) is not sent
 */
public record KinesisDataStreamDestination(String streamArn, Status status, String description, Precision precision,
                                           long enabledMillis) {

    /** DynamoDB's DestinationStatus. */
    public enum Status { ENABLING, ACTIVE, DISABLING, DISABLED, ENABLE_FAILED, UPDATING }

    /** DynamoDB's ApproximateCreationDateTimePrecision of the records. */
    public enum Precision { MILLISECOND, MICROSECOND }

    /**
     * Whether the table's changes are kept for this destination: from Enable until it fails or is
     * disabled (changes made while it is ENABLING are delivered once it is ACTIVE).
     */
    public boolean collecting() {
        return status == Status.ENABLING || status == Status.ACTIVE || status == Status.UPDATING;
    }

    /** Whether EnableKinesisStreamingDestination may start this one again (or another beside it). */
    public boolean ended() {
        return status == Status.DISABLED || status == Status.ENABLE_FAILED;
    }

    /** The precision records carry: MILLISECOND unless MICROSECOND was set. */
    public Precision effectivePrecision() {
        return precision == null ? Precision.MILLISECOND : precision;
    }

    public KinesisDataStreamDestination with(Status newStatus, String newDescription) {
        return new KinesisDataStreamDestination(streamArn, newStatus, newDescription, precision, enabledMillis);
    }
}
