package io.stator.engine.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.core.key.PartitionHash;
import io.stator.engine.table.TimeToLiveDescription.TimeToLiveStatus;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table's Time to Live in its stored definition (TableCodec version 4), and older entries without it. */
class TimeToLiveCodecTest {

    @TempDir
    Path directory;

    @Test
    void theTimeToLiveIsStoredWithTheTable() {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", true, List.of(TestEngine.globalIndex("g")), null);
            for (TimeToLiveDescription ttl : List.of(
                    new TimeToLiveDescription(TimeToLiveStatus.ENABLING, "exp", Instant.parse("2026-06-01T00:00:00.123Z")),
                    new TimeToLiveDescription(TimeToLiveStatus.DISABLED, null, Instant.parse("2026-06-01T01:00:00Z")),
                    TimeToLiveDescription.NEVER_ENABLED)) {
                TableDefinition.Builder b = table.toBuilder();
                b.timeToLive = ttl;
                TableDefinition withTtl = b.build();
                assertEquals(withTtl, TableCodec.decode(TableCodec.encode(withTtl)));
            }
        }
    }

    @Test
    void aVersion3EntryIsReadWithoutTimeToLive() {
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("t", false, null, null);
            byte[] latest = TableCodec.encode(table);
            byte[] v3 = Arrays.copyOf(latest, latest.length - 1);
            v3[0] = 3;
            TableDefinition read = TableCodec.decode(v3);
            assertNull(read.timeToLive());
            TableDefinition.Builder layoutOne = table.toBuilder();
            layoutOne.partitionHash = PartitionHash.XXH64; // an entry older than version 10
            assertEquals(layoutOne.build(), read);
        }
    }
}
