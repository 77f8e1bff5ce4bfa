package io.stator.engine.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DescribeKinesisStreamingDestination in the engine: a table, by name or ARN, has no destinations. */
class KinesisStreamingDestinationsTest {

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

    @Test
    void aTableByNameOrArnHasNoDestinations() {
        KinesisStreamingDestinations expected = new KinesisStreamingDestinations("music", List.of());
        assertEquals(expected, test.engine().tables().kinesisStreamingDestinations("music"));
        String arn = test.engine().catalog().arns().tableArn("music");
        assertEquals(expected, test.engine().tables().kinesisStreamingDestinations(arn));
    }

    @Test
    void aMissingTableIsNotFoundWithItsName() {
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> test.engine().tables().kinesisStreamingDestinations("ghost"));
        assertEquals(ErrorType.RESOURCE_NOT_FOUND, e.type());
        assertEquals("Requested resource not found: Table: ghost not found", e.getMessage());
    }
}
