package io.stator.engine.kinesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.table.KinesisDataStreamDestination;
import io.stator.engine.table.KinesisDataStreamDestination.Precision;
import io.stator.engine.table.KinesisDataStreamDestination.Status;
import io.stator.engine.table.KinesisStreamingDestinations;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kinesis destinations in the engine, without an endpoint (their delivery to a real kinesalite is
 * the server's KinesisStreamingDestinationTest): a table by name or ARN, its destinations kept
 * across a reopen, and an Enable with nowhere to deliver failing.
 */
class KinesisDestinationsTest {

    private static final String STREAM = "arn:aws:kinesis:us-east-1:000000000000:stream/orders";

    @TempDir
    Path directory;

    private TestEngine test;

    @BeforeEach
    void open() {
        test = TestEngine.open(directory);
        test.createTable("music", true, null, null);
    }

    @AfterEach
    void close() {
        test.close();
    }

    private KinesisDataStreamDestination only() {
        List<KinesisDataStreamDestination> all = test.engine().kinesis().describe("music").destinations();
        assertEquals(1, all.size(), all.toString());
        return all.get(0);
    }

    @Test
    void aTableByNameOrArnHasNoDestinationsAtFirst() {
        KinesisStreamingDestinations expected = new KinesisStreamingDestinations("music", List.of());
        assertEquals(expected, test.engine().kinesis().describe("music"));
        String arn = test.engine().catalog().arns().tableArn("music");
        assertEquals(expected, test.engine().kinesis().describe(arn));
    }

    @Test
    void aMissingTableIsNotFoundWithItsName() {
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> test.engine().kinesis().describe("ghost"));
        assertEquals(ErrorType.RESOURCE_NOT_FOUND, e.type());
        assertEquals("Requested resource not found: Table: ghost not found", e.getMessage());
    }

    @Test
    void withoutAnEndpointAnEnableFailsAndSaysWhy() throws InterruptedException {
        KinesisDestinations.Described enabled = test.engine().kinesis().enable("music", STREAM, Precision.MICROSECOND);
        assertEquals(Status.ENABLING, enabled.destination().status());
        assertEquals(Precision.MICROSECOND, enabled.destination().precision());
        // Nothing moves until the front end says where records go (a restart must not fail it first).
        Thread.sleep(500);
        assertEquals(Status.ENABLING, only().status());
        test.engine().kinesis().deliverTo(null); // as a server started without --kinesis-endpoint
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (only().status() == Status.ENABLING && System.nanoTime() < deadline) Thread.sleep(20);
        assertEquals(enabled.destination().with(Status.ENABLE_FAILED, KinesisDelivery.NO_ENDPOINT), only());

        // Kept with the table's definition (TableCodec version 12), across a reopen.
        test.close();
        test = TestEngine.open(directory);
        assertEquals(Status.ENABLE_FAILED, only().status());
        assertEquals(Precision.MICROSECOND, only().precision());
    }
}
