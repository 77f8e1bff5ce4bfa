package io.stator.engine.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.core.key.PartitionHash;
import io.stator.engine.testing.TestEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's key layout in its stored definition (TableCodec version 10): a new table is created
 * with DynamoDB's hash, and an entry written before version 10 reads as key layout 1, so a table
 * created by an earlier Stator keeps the rows it has.
 */
class PartitionHashCodecTest {

    @TempDir
    Path directory;

    @Test
    void aNewTableHasDynamoDbsHashAndKeepsItThroughItsStoredForm() {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", true, List.of(TestEngine.globalIndex("g")), null);
            assertEquals(PartitionHash.DYNAMODB, table.partitionHash());
            assertEquals(table, TableCodec.decode(TableCodec.encode(table)));
            TableDefinition.Builder b = table.toBuilder();
            b.partitionHash = PartitionHash.XXH64;
            TableDefinition layoutOne = b.build();
            assertEquals(layoutOne, TableCodec.decode(TableCodec.encode(layoutOne)));
        }
    }

    @Test
    void aVersion9EntryIsATableOfKeyLayoutOne() {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", true, List.of(TestEngine.globalIndex("g")), null);
            byte[] latest = TableCodec.encode(table);
            // Version 10's partition hash and version 11's absent transition.
            int tail = 2 + PartitionHash.DYNAMODB.name().getBytes(StandardCharsets.UTF_8).length + 1;
            byte[] v9 = Arrays.copyOf(latest, latest.length - tail);
            v9[0] = 9;
            TableDefinition read = TableCodec.decode(v9);
            assertEquals(PartitionHash.XXH64, read.partitionHash());
            TableDefinition.Builder b = table.toBuilder();
            b.partitionHash = PartitionHash.XXH64;
            assertEquals(b.build(), read);
        }
    }
}
