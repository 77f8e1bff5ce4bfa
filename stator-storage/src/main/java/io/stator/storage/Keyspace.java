package io.stator.storage;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A separate key space of a store (RocksDB: one column family each): rows of one key space never
 * meet another's in a range. The storage names none of its own: whoever uses it declares its key
 * spaces, with the names under which they are stored, and opens the store with them.
 *
 * <p>One instance per name in a process ({@link #of}), so that a backend may tell them apart by
 * identity and find a key space's handle by its {@link #index} without hashing its name.
 */
public final class Keyspace {

    /** What a key space holds, for a backend to tune its storage. */
    public enum Kind {
        /** Few rows, rarely read in bulk. */
        ROWS,
        /** Many rows, read mostly by point gets and ranges: worth filters and larger buffers. */
        BULK,
        /** 64-bit counters, changed by {@link WriteBatch#addToCounter}. */
        COUNTERS
    }

    private static final ConcurrentHashMap<String, Keyspace> NAMED = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_INDEX = new AtomicInteger();

    private final String storedName;
    private final Kind kind;
    private final int index;

    private Keyspace(String storedName, Kind kind, int index) {
        this.storedName = storedName;
        this.kind = kind;
        this.index = index;
    }

    /**
     * The key space stored under {@code storedName}: the same instance for the same name.
     *
     * @throws IllegalArgumentException if the name was declared with another kind
     */
    public static Keyspace of(String storedName, Kind kind) {
        Objects.requireNonNull(kind, "kind");
        if (storedName == null || storedName.isEmpty()) throw new IllegalArgumentException("a key space needs a name");
        Keyspace keyspace = NAMED.computeIfAbsent(storedName, name -> new Keyspace(name, kind, NEXT_INDEX.getAndIncrement()));
        if (keyspace.kind != kind) {
            throw new IllegalArgumentException("key space " + storedName + " is declared " + keyspace.kind + ", not " + kind);
        }
        return keyspace;
    }

    /** The name under which a backend stores this key space. Persisted: never renamed. */
    public String storedName() { return storedName; }

    public Kind kind() { return kind; }

    /** A small number, unique in this process (not persisted): where a backend keeps its handle. */
    public int index() { return index; }

    @Override
    public String toString() { return storedName; }
}
