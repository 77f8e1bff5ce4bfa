package io.stator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MemoryBudgetTest {

    @Test
    void theSharesAddUpToThreeQuartersAndLeaveAQuarterForTheRest() {
        MemoryBudget budget = new MemoryBudget(1L << 30);

        assertEquals(256L << 20, budget.heapBytes());
        assertEquals(128L << 20, budget.directBytes());
        assertEquals(384L << 20, budget.storageBytes());
        assertEquals("-Xmx256m -XX:MaxDirectMemorySize=128m", budget.jvmOptions());
    }

    @Test
    void theMinimumIsTheLeastAccepted() {
        assertEquals(64L << 20, new MemoryBudget(MemoryBudget.MINIMUM_BYTES).heapBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MemoryBudget(MemoryBudget.MINIMUM_BYTES - 1));
        assertEquals("--memory must be at least 256MB, got 255MB", e.getMessage());
    }

    @Test
    void binStatorGivesTheJvmTheSameShares() throws Exception {
        // bin/stator cannot ask this class (a JVM start per server start); it repeats the fractions.
        String script = Files.readString(Path.of(System.getProperty("user.dir")).getParent().resolve("bin/stator"));
        assertEquals(true, script.contains(
                "MEMORY_OPTS=\"-Xmx$(( MEMORY_MIB / 4 ))m -XX:MaxDirectMemorySize=$(( MEMORY_MIB / 8 ))m\""), script);
        assertEquals(true, script.contains("MEMORY_MIB=1024\n"), "the default, as MemoryBudget.DEFAULT");
        assertEquals(1L << 30, MemoryBudget.DEFAULT.totalBytes());
    }

    @Test
    void binStatorExitsOnOutOfMemory() throws Exception {
        // Out of memory, the server cannot answer for its state: it must not go on answering 500s.
        String script = Files.readString(Path.of(System.getProperty("user.dir")).getParent().resolve("bin/stator"));
        assertEquals(true, script.contains("JVM_OPTS=\"$JVM_OPTS -XX:+ExitOnOutOfMemoryError\""), script);
    }
}
