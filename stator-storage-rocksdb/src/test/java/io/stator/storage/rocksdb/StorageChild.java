package io.stator.storage.rocksdb;

import io.stator.storage.Keyspace;
import io.stator.storage.StorageFaultException;
import io.stator.storage.WriteBatch;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * A separate JVM for the tests that need another process: {@code write <dir> <first>} commits
 * batches forever and prints {@code ack <n>;} after each commit returns (the kill -9 test);
 * {@code hold <dir>} opens the store, prints {@code ready;} and keeps it open until its stdin
 * closes (the lock test); {@code fill <dir>} writes until the disk is full, prints {@code full;}
 * and waits to be killed (the start on a full disk). Every line is flushed at once: a printed ack is an acknowledged write.
 */
public final class StorageChild {

    /** Gives up on its own after this long, in case the test that started it is gone. */
    private static final long MAX_RUN_NANOS = 120_000_000_000L;

    private StorageChild() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dir = Path.of(args[1]);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        switch (mode) {
            case "write" -> write(dir, Long.parseLong(args[2]), out);
            case "hold" -> hold(dir, out);
            case "fill" -> fill(dir, out);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    private static void write(Path dir, long first, PrintStream out) {
        long deadline = System.nanoTime() + MAX_RUN_NANOS;
        try (RocksStorage storage = RocksStorage.open(dir, TestKeyspaces.ALL)) {
            out.println("ready;");
            out.flush();
            for (long i = first; System.nanoTime() < deadline; i++) {
                try (WriteBatch batch = storage.newBatch()) {
                    batch.put(TestKeyspaces.ITEMS, itemKey(i, 'a'), value(i));
                    batch.put(TestKeyspaces.ITEMS, itemKey(i, 'b'), value(i));
                    batch.put(TestKeyspaces.CATALOG, catalogKey(i), value(i));
                    storage.commit(batch);
                }
                out.println("ack " + i + ";");
                out.flush();
            }
        }
    }

    /**
     * Commits incompressible values until the disk is full: prints {@code ack <n>;} after each
     * commit, {@code full;} once one is refused, then keeps the store open until killed.
     */
    private static void fill(Path dir, PrintStream out) throws Exception {
        try (RocksStorage storage = RocksStorage.open(dir, TestKeyspaces.ALL)) {
            out.println("ready;");
            out.flush();
            for (long i = 0; ; i++) {
                try (WriteBatch batch = storage.newBatch()) {
                    batch.put(TestKeyspaces.ITEMS, itemKey(i, 'a'), largeValue(i));
                    batch.put(TestKeyspaces.CATALOG, catalogKey(i), value(i));
                    storage.commit(batch);
                } catch (StorageFaultException e) {
                    out.println("full;");
                    out.flush();
                    break;
                }
                out.println("ack " + i + ";");
                out.flush();
            }
            while (System.in.read() >= 0) {
                // wait to be killed
            }
        }
    }

    /** 64 KB that compression cannot shrink, the same for the same {@code i}. */
    static byte[] largeValue(long i) {
        byte[] value = new byte[64 << 10];
        new Random(i).nextBytes(value);
        return value;
    }

    private static void hold(Path dir, PrintStream out) throws Exception {
        try (RocksStorage storage = RocksStorage.open(dir, TestKeyspaces.ALL)) {
            try (WriteBatch batch = storage.newBatch()) {
                batch.put(TestKeyspaces.ITEMS, bytes("held"), bytes("by child"));
                storage.commit(batch);
            }
            out.println("ready;");
            out.flush();
            while (System.in.read() >= 0) {
                // wait for the parent to close our stdin (or kill us)
            }
        }
    }

    static byte[] itemKey(long i, char suffix) {
        return bytes(String.format("k%012d-%c", i, suffix));
    }

    static byte[] catalogKey(long i) {
        return bytes(String.format("c%012d", i));
    }

    static byte[] value(long i) {
        return bytes("value of batch " + i + " " + "x".repeat(100));
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
