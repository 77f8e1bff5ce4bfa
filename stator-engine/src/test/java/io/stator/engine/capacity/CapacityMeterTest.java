package io.stator.engine.capacity;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meter prices every operation from its description by DynamoDB's rules, and admits it (or
 * not) before it changes anything.
 */
class CapacityMeterTest {

    private final CapacityMeter meter = new CapacityMeter();

    @Test
    void aWriteCostsAUnitPerKilobyteOfTheLargerOfTheItemBeforeAndAfter() {
        assertEquals(1.0, write(0, 0).total(), "deleting nothing still costs one unit");
        assertEquals(1.0, write(0, 1024).total());
        assertEquals(2.0, write(0, 1025).total());
        assertEquals(3.0, write(2100, 500).total(), "shrinking an item is billed by its old size");
    }

    @Test
    void indexEntriesCostWritesOfTheirOwnAndATransactionDoublesOnlyTheTablesPart() {
        ConsumedCapacity c = meter.charge(new Usage.Write(100, 100, List.of(
                new Usage.IndexWrite("moved", 1, true, false, 100, 2000, 0),
                new Usage.IndexWrite("removed", 2, false, false, 100, -1, 0)), true, 0));
        assertEquals(2.0, c.tableUnits());
        assertEquals(Map.of("moved", 3.0), c.globalIndexUnits(), "a moved entry: one unit out, two in");
        assertEquals(Map.of("removed", 1.0), c.localIndexUnits());
        assertEquals(6.0, c.total());
    }

    @Test
    void aReadCostsAUnitPerFourKilobytesHalfWhenEventuallyConsistent() {
        assertEquals(0.5, read(0, false).total(), "reading nothing costs the minimum");
        assertEquals(1.0, read(4096, true).total());
        assertEquals(1.0, read(4097, false).total());
        assertEquals(2.0, read(4097, true).total());
        assertEquals(4.0, meter.charge(new Usage.Read(null, 4097, 0, true, true)).total(), "transactional: twice");
    }

    @Test
    void anIndexReadIsBilledToTheIndexAndTheItemsItFetchedToTheTable(@TempDir Path directory) {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", true, null, List.of(TestEngine.localIndex("local")));
            ConsumedCapacity c = meter.charge(new Usage.Read(table.index("local"), 5000, 9000, true, false));
            assertEquals(Map.of("local", 2.0), c.localIndexUnits());
            assertEquals(3.0, c.tableUnits());
        }
    }

    @Test
    void anOperationTheMeterDoesNotAdmitDoesNothing(@TempDir Path directory) {
        ThroughputExceededException refused = new ThroughputExceededException(
                ErrorType.PROVISIONED_THROUGHPUT_EXCEEDED, "refused", List.of());
        CapacityMeter refusingWrites = new CapacityMeter(new CapacityMeter.Admission() {
            @Override
            public ThroughputExceededException refusal(TableDefinition table, Usage.Write usage,
                                                       ConsumedCapacity consumed) {
                return refused;
            }
        });
        try (TestEngine test = TestEngine.open(directory, refusingWrites)) {
            TableDefinition table = test.createTable("t", false, null, null);
            DynamoDbException thrown = assertThrows(DynamoDbException.class, () -> test.engine().items().write(
                    ItemWrite.put(table, item("pk", "a"), null, ReturnValues.NONE, false, false)));
            assertSame(refused, thrown);
            assertThrows(DynamoDbException.class, () -> test.engine().items().transactWrite(List.of(
                    ItemWrite.put(table, item("pk", "b"), null, ReturnValues.NONE, false, true)), null));
            // Reads are admitted, and find that nothing was written.
            assertNull(test.engine().items().get(table, item("pk", "a"), true, null).item());
            assertNull(test.engine().items().get(table, item("pk", "b"), true, null).item());
        }
    }

    private ConsumedCapacity write(long oldBytes, long newBytes) {
        return meter.charge(new Usage.Write(oldBytes, newBytes, List.of(), false, 0));
    }

    private ConsumedCapacity read(long bytes, boolean consistent) {
        return meter.charge(new Usage.Read(null, bytes, 0, consistent, false));
    }
}
