package io.stator.engine.kinesis;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.jobs.JobLeases;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.KinesisDataStreamDestination;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import io.stator.engine.table.KinesisDataStreamDestination.Status;
import io.stator.engine.table.KinesisStreamingDestinations;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Storage;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Kinesis Data Streams for DynamoDB: EnableKinesisStreamingDestination,
 * DisableKinesisStreamingDestination, UpdateKinesisStreamingDestination and
 * DescribeKinesisStreamingDestination, their states and texts as DynamoDB's
 * (docs/dynamodb/kinesis.md, from AWS's API reference and live probes of DynamoDB). A destination
 * is kept with its table's definition; while it collects, every change of the table is kept in
 * the {@link KinesisOutbox} in the change's own batch, and the {@link KinesisDelivery} puts the
 * kept changes to the stream through the front end's {@link KinesisSink} and moves the
 * destination through its states.
 */
public final class KinesisDestinations implements AutoCloseable {

    /** DynamoDB's prefix of every refusal of these actions, Disable's and Update's too. */
    private static final String INVALID_STATE = "Table is not in a valid state to enable Kinesis Streaming Destination: ";

    private final Catalog catalog;
    private final ChangeLog changeLog;
    private final KinesisOutbox outbox;
    private final KinesisDelivery delivery;
    private final AtomicBoolean registered = new AtomicBoolean();
    private final Clock clock;

    /**
     * @param leases       where several servers share the store, the leases that make one of them
     *                     deliver a table's changes; null on one server
     * @param settleMillis how long a catalog change takes to reach every server (a destination
     *                     becomes ACTIVE only once every server keeps its table's changes)
     */
    public KinesisDestinations(Storage storage, Catalog catalog, ChangeLog changeLog, Clock clock, String region,
                               String accountId, JobLeases leases, long settleMillis) {
        this.catalog = catalog;
        this.changeLog = changeLog;
        this.clock = clock;
        this.delivery = new KinesisDelivery(catalog, region, accountId, leases, settleMillis);
        this.outbox = new KinesisOutbox(storage, clock, delivery::wake);
        delivery.keepFrom(outbox);
        catalog.onDrop(outbox::drop);
        // Another server's Enable, or one this server made before it stopped.
        catalog.onChange(t -> {
            if (t.collectingKinesis() != null) collect();
        });
        for (TableDefinition t : catalog.all()) if (!t.kinesisDestinations().isEmpty()) collect();
    }

    /**
     * Delivers to the front end's Kinesis endpoint (--kinesis-endpoint), or to none ({@code null}:
     * an Enable then fails). Nothing moves before the front end has said which, so that a restart
     * does not fail a destination for want of an endpoint not yet made.
     */
    public void deliverTo(KinesisSink sink) {
        delivery.deliverTo(sink);
    }

    /**
     * EnableKinesisStreamingDestination: the destination, ENABLING; the delivery makes it ACTIVE
     * once it finds the stream, or ENABLE_FAILED with DynamoDB's description of why.
     *
     * @param precision the EnableKinesisStreamingConfiguration's precision, or null when not given
     */
    public Described enable(String nameOrArn, String streamArn, Precision precision) {
        TableDefinition table = require(nameOrArn);
        collect();
        AtomicReference<KinesisDataStreamDestination> enabled = new AtomicReference<>();
        catalog.update(table.name(), t -> {
            for (KinesisDataStreamDestination d : t.kinesisDestinations()) {
                if (!d.ended()) {
                    throw DynamoDbException.validation(INVALID_STATE + "EnableKinesisStreamingDestination must be "
                            + "DISABLED or ENABLE_FAILED to perform ENABLE operation.");
                }
            }
            enabled.set(new KinesisDataStreamDestination(streamArn, Status.ENABLING, null, precision, clock.millis()));
            return t.withKinesisDestination(enabled.get());
        });
        delivery.wake();
        return new Described(table.name(), enabled.get());
    }

    /**
     * DisableKinesisStreamingDestination: the ACTIVE destination, DISABLING (DISABLED once the
     * delivery has stopped); a second Disable while DISABLING answers it again, as DynamoDB does.
     *
     * @param configured whether the request carried an EnableKinesisStreamingConfiguration
     */
    public Described disable(String nameOrArn, String streamArn, boolean configured) {
        TableDefinition table = require(nameOrArn);
        if (configured) {
            throw DynamoDbException.validation("Stream cannot be disabled using EnableKinesisStreamingConfiguration parameters");
        }
        AtomicReference<KinesisDataStreamDestination> disabled = new AtomicReference<>();
        catalog.update(table.name(), t -> {
            KinesisDataStreamDestination d = t.kinesisDestination(streamArn);
            if (d != null && d.status() == Status.DISABLING) {
                disabled.set(d);
                return t;
            }
            if (d == null || d.status() != Status.ACTIVE) {
                throw DynamoDbException.validation(INVALID_STATE
                        + "KinesisStreamingDestination must be ACTIVE to perform DISABLE operation.");
            }
            disabled.set(d.with(Status.DISABLING, null));
            return t.withKinesisDestination(disabled.get());
        });
        delivery.wake();
        return new Described(table.name(), disabled.get());
    }

    /**
     * UpdateKinesisStreamingDestination: the ACTIVE destination with its new precision, UPDATING
     * (ACTIVE again once the delivery has taken it).
     *
     * @param precision the UpdateKinesisStreamingConfiguration's precision, or null when not given
     */
    public Described update(String nameOrArn, String streamArn, Precision precision) {
        TableDefinition table = require(nameOrArn);
        if (precision == null) {
            throw DynamoDbException.validation("Streaming destination cannot be updated with given parameters: "
                    + "UpdateKinesisStreamingConfiguration cannot be null or contain only null values");
        }
        AtomicReference<KinesisDataStreamDestination> updated = new AtomicReference<>();
        catalog.update(table.name(), t -> {
            KinesisDataStreamDestination d = t.kinesisDestination(streamArn);
            if (d == null) {
                throw DynamoDbException.validation(INVALID_STATE + "No streaming destination with streamArn: "
                        + streamArn + " found for table with tableName: " + t.name());
            }
            if (d.status() != Status.ACTIVE) {
                throw DynamoDbException.validation(INVALID_STATE + "Kinesis streaming is not in ACTIVE state. Updates "
                        + "are only allowed in ACTIVE state. TableName: " + t.name() + ", kdsArn: " + streamArn);
            }
            if (d.effectivePrecision() == precision) {
                throw DynamoDbException.validation("Invalid Request: Precision is already set to the desired value of "
                        + precision + " for tableId: " + t.tableId() + ", kdsArn: " + streamArn);
            }
            updated.set(new KinesisDataStreamDestination(streamArn, Status.UPDATING, null, precision, d.enabledMillis()));
            return t.withKinesisDestination(updated.get());
        });
        delivery.wake();
        return new Described(table.name(), updated.get());
    }

    /** DescribeKinesisStreamingDestination: every destination of the table, in the order first enabled. */
    public KinesisStreamingDestinations describe(String nameOrArn) {
        TableDefinition table = require(nameOrArn);
        return new KinesisStreamingDestinations(table.name(), table.kinesisDestinations());
    }

    /** What Enable, Disable and Update answer: the table's name and the destination as it now is. */
    public record Described(String tableName, KinesisDataStreamDestination destination) {}

    /**
     * The table named: DynamoDB answers "Requested resource not found: Table: X not found" for a
     * table still CREATING too (docs/dynamodb/kinesis.md, "Table not ACTIVE").
     */
    private TableDefinition require(String nameOrArn) {
        TableDefinition t = catalog.require(nameOrArn, NotFoundMessage.WITH_TABLE_NAME);
        if (t.filling()) throw DynamoDbException.resourceNotFound(NotFoundMessage.WITH_TABLE_NAME.text(nameOrArn));
        return t;
    }

    /** Keeps changes from now on (before the definition that asks for them is committed) and delivers them. */
    private void collect() {
        if (registered.compareAndSet(false, true)) {
            changeLog.register(outbox);
            delivery.start();
        }
    }

    @Override
    public void close() {
        delivery.close();
    }
}
