package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageChild.catalogKey;
import static io.stator.storage.rocksdb.StorageChild.itemKey;
import static io.stator.storage.rocksdb.StorageChild.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An acknowledged write survives {@code kill -9}: a separate JVM commits batches and prints an
 * ack after each commit returns; it is SIGKILLed mid-stream, and every acked batch must be there
 * when the directory is reopened, whole (batches span two keyspaces) and with no gaps.
 */
class KillNineDurabilityTest {

    private static final Pattern ACK = Pattern.compile("ack (\\d+);");

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void everyAcknowledgedCommitSurvivesSigkill() throws Exception {
        Path data = tmp.resolve("data");
        Path stderr = tmp.resolve("child-stderr.txt");
        long next = 0;
        for (int round = 0; round < 3; round++) {
            long lastAck = next - 1;
            int acks = 0;
            int target = 300 + ThreadLocalRandom.current().nextInt(700);
            try (ChildProcess child = ChildProcess.start(stderr, "write", data.toString(), Long.toString(next))) {
                child.awaitLine("ready;", 60);
                while (acks < target) {
                    lastAck = parseAck(child.nextLine(60), lastAck);
                    acks++;
                }
                int exit = child.killHard(); // mid-stream: the child never stops writing by itself
                assertNotEquals(0, exit, "the child must have been killed, not have exited");
                for (String line : child.remainingLines(10)) {
                    // Lines already in the pipe were acknowledged before the kill, too.
                    Matcher m = ACK.matcher(line);
                    if (m.matches()) {
                        lastAck = parseAck(line, lastAck);
                    }
                }
            }

            try (RocksStorage storage = RocksStorage.open(data, TestKeyspaces.ALL)) {
                for (long i = 0; i <= lastAck; i++) {
                    assertBatchPresent(storage, i, "acknowledged batch " + i + " lost in round " + round);
                }
                // Batches past the last ack may or may not have made it, but only whole and in order.
                long persisted = lastAck + 1;
                while (storage.get(TestKeyspaces.ITEMS, itemKey(persisted, 'a')) != null) {
                    assertBatchPresent(storage, persisted, "batch " + persisted + " is torn");
                    persisted++;
                }
                assertEquals(2 * persisted, count(storage, TestKeyspaces.ITEMS), "items: gaps or torn batches");
                assertEquals(persisted, count(storage, TestKeyspaces.CATALOG), "catalog: gaps or torn batches");
                assertTrue(persisted >= next + target, "round " + round + " persisted too little");
                next = persisted;
            }
        }
    }

    private static long parseAck(String line, long previous) {
        Matcher m = ACK.matcher(line);
        assertTrue(m.matches(), "unexpected line from the child: " + line);
        long n = Long.parseLong(m.group(1));
        assertEquals(previous + 1, n, "acks must be consecutive");
        return n;
    }

    private static void assertBatchPresent(RocksStorage storage, long i, String message) {
        byte[] expected = value(i);
        byte[] a = storage.get(TestKeyspaces.ITEMS, itemKey(i, 'a'));
        assertNotNull(a, message);
        assertArrayEquals(expected, a, message);
        assertArrayEquals(expected, storage.get(TestKeyspaces.ITEMS, itemKey(i, 'b')), message);
        assertArrayEquals(expected, storage.get(TestKeyspaces.CATALOG, catalogKey(i)), message);
    }

    private static long count(RocksStorage storage, Keyspace keyspace) {
        long n = 0;
        try (Cursor cursor = storage.range(null, keyspace, null, null, false)) {
            while (cursor.next()) {
                n++;
            }
        }
        return n;
    }
}
