package io.stator.server;

/**
 * The memory a server may use ({@code --memory}), and how it is shared. What Stator holds falls
 * into four parts, each bounded by its own share:
 * <ul>
 *   <li>the Java heap (a quarter): requests and replies being worked on, parsed expressions,
 *       the catalog; its live set is small, the rest is garbage collected young;</li>
 *   <li>direct buffers (an eighth): Netty's pooled network buffers, a request's body up to 16 MB;</li>
 *   <li>RocksDB's blocks and memtables (three eighths), one LRU cache the memtables are charged
 *       to ({@code RocksStorage.Builder#memoryBytes});</li>
 *   <li>the rest (a quarter) for what has no knob of its own: compiled code, class metadata,
 *       thread stacks, the allocator's own overhead, and RocksDB's index and filter blocks
 *       (about 0.5% of the data on disk).</li>
 * </ul>
 * The JVM's two shares are set when it starts: {@code bin/stator} reads {@code --memory} and
 * gives the JVM {@code -Xmx} and {@code -XX:MaxDirectMemorySize} by the same fractions
 * ({@link #jvmOptions}); a server started in another JVM (tests) uses that JVM's own settings,
 * and only RocksDB's share applies. In memory ({@code --in-memory}), the data itself comes on top.
 *
 * @param totalBytes the whole budget
 */
public record MemoryBudget(long totalBytes) {

    /** The default: enough for a table of a few hundred thousand 1 KB items in the block cache. */
    public static final MemoryBudget DEFAULT = new MemoryBudget(1L << 30);

    /** The least that runs: below it the heap (64 MB) and the block cache get too small to serve 16 MB requests. */
    public static final long MINIMUM_BYTES = 256L << 20;

    public MemoryBudget {
        if (totalBytes < MINIMUM_BYTES) {
            throw new IllegalArgumentException("--memory must be at least 256MB, got " + totalBytes / (1 << 20) + "MB");
        }
    }

    /** The Java heap's share ({@code -Xmx}). */
    public long heapBytes() {
        return totalBytes / 4;
    }

    /** Direct buffers' share ({@code -XX:MaxDirectMemorySize}), which Netty's pools respect. */
    public long directBytes() {
        return totalBytes / 8;
    }

    /** RocksDB's share: its block cache, with the memtables charged to it. */
    public long storageBytes() {
        return totalBytes / 8 * 3;
    }

    /** The JVM options of the two Java shares, as bin/stator gives them (in whole MiB). */
    public String jvmOptions() {
        return "-Xmx" + (heapBytes() >> 20) + "m -XX:MaxDirectMemorySize=" + (directBytes() >> 20) + "m";
    }
}
