package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageException.failure;

import io.stator.storage.Cursor;
import io.stator.storage.Keyspace;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.SstFileManager;
import org.rocksdb.WriteOptions;

/**
 * The embedded {@link Storage}: one RocksDB database per data directory.
 *
 * <h2>Why it is built this way</h2>
 *
 * <p><b>One column family per {@link Keyspace} it is opened with.</b> A column family is RocksDB's own key space:
 * its own memtables, SST files and options, but one shared write-ahead log, so a single
 * {@link org.rocksdb.WriteBatch} can still span several of them atomically (an item and its
 * catalog counter commit together). Separate families mean a range over items can never walk
 * into catalog rows, each can be tuned for its use (the items family gets bloom filters and a
 * large memtable; the catalog is tiny), and dropping or compacting one does not touch the
 * other. Families are created when missing; on reopen every family found on disk is opened,
 * including ones this version does not know (RocksDB refuses to open a database without all of
 * its families, and a newer Stator may have added one; they are kept, not dropped).
 *
 * <p><b>WAL and durability.</b> Every commit goes through the write-ahead log. With
 * {@code fsync} off the WAL record is handed to the operating system ({@code write(2)}) before
 * {@link #commit} returns, so an acknowledged write survives the process being killed
 * ({@code kill -9}): the page cache belongs to the kernel, and recovery replays the log
 * ({@link org.rocksdb.WALRecoveryMode#PointInTimeRecovery}, which stops cleanly at a torn last
 * record). It does not survive the machine losing power; that is what {@code fsync} is for.
 *
 * <p><b>fsync and group commit.</b> With {@code fsync} on, every commit is written with
 * {@code WriteOptions.sync = true}: the WAL is fsynced before the commit returns. That costs a
 * disk flush per commit only when there is one writer. RocksDB's write path queues concurrent
 * writers and lets the first one (the leader) append all their batches to the WAL and issue a
 * single fsync for the whole group, so N request threads committing at once share one fsync.
 * That is group commit, and it is why this class takes no lock of its own around
 * {@link #commit}: serialising commits here would defeat it.
 *
 * <p><b>In-memory mode.</b> {@code inMemory} runs the very same code on RocksDB's in-memory
 * {@link org.rocksdb.Env Env} ({@link org.rocksdb.RocksMemEnv RocksMemEnv}): SST files, the
 * manifest, the info log and the lock live in process memory, and the WAL is disabled (it could
 * only protect data that dies with the process anyway). Nothing is written to, or created in, the data directory, whose path only
 * names the database. Tests and throwaway servers get the real engine's behaviour (ordering,
 * snapshots, atomic batches, flushes and compactions) without touching the disk.
 *
 * <p><b>Threads and native memory.</b> RocksDB is thread-safe; this class adds no locks on the
 * read or write path. Native objects are freed explicitly. Calls in flight are counted by a
 * gate, so {@link #close} first refuses new calls, waits for running ones (each is one short
 * native call) and then frees snapshots and cursors callers forgot to close, the column family
 * handles, the database, and finally the options: a late call gets a {@link StorageException},
 * never a JVM crash. Write batches are plain native buffers independent of the database; one
 * that is never closed leaks its buffer (close them, as the SPI says). What the gate does not
 * cover is a caller racing itself: closing a snapshot while another thread still reads through
 * it, or using one cursor from two threads (the SPI's objects are single-owner).
 *
 * <p><b>Faults that heal.</b> A write that RocksDB fails with an I/O error (a full disk above
 * all) throws a {@link io.stator.storage.StorageFaultException}, and so does every write after it
 * until RocksDB has cleared the fault; reads go on. RocksDB clears it by itself: after a full
 * disk, once 32 MB are free again, its SstFileManager resumes the database, with every
 * acknowledged write kept. The fault and its end are logged once each, to the builder's
 * {@code faultLog}. Nothing of this costs the write path anything while writes succeed: see
 * {@code WriteFaults}.
 *
 * <p><b>A full disk at start.</b> Opening for writes writes (recovery flushes the log's contents
 * and starts a new log), so on a full disk the store opens its database read-only instead: every
 * acknowledged write can be read, every write is refused as during a fault, and once there is
 * room the store reopens the database read-write and swaps it in, without a restart: see
 * {@code ReadOnlyStart}. That is why the database and its handles are a field that changes
 * ({@link #database}), read by every call inside the gate.
 *
 * <p>Other RocksDB errors become {@link StorageException}s that carry RocksDB's status message.
 *
 * <p>This class is the {@link Storage} itself. Around it, in this package: {@code RocksOpening}
 * sets the options and opens the database and its column families; {@code CallGate} is the gate
 * that counts calls and tracks what was handed out; {@code WriteFaults} answers failed writes and
 * reports storage faults; {@code RocksSnapshot}, {@code RocksCursor} and {@code RocksWriteBatch}
 * are the SPI's objects, and {@code Tracked} what the first two share.
 */
public final class RocksStorage implements Storage {

    static {
        NativeLibrary.load(); // RocksDB's JNI library, without leaving a copy of it in /tmp
    }

    /**
     * Loads RocksDB's JNI library now, as the first use of this class would: a start calls it on a
     * thread of its own, so that the load overlaps work that does not need it. Idempotent.
     */
    public static void loadNativeLibrary() {
        NativeLibrary.load();
    }

    /** Default memory for the block cache and the memtables together (see {@link Builder#memoryBytes}). */
    public static final long DEFAULT_MEMORY_BYTES = 128L << 20;

    private static final byte[] EMPTY = new byte[0];

    private final Path directory;
    private final boolean inMemory;
    private final boolean fsync;
    /**
     * The database and its column family handles. It changes once at most, from read-only to
     * read-write (a full disk at start), while the gate is paused: read it only inside the gate,
     * whose atomic state orders the read after that change.
     */
    private volatile OpenDatabase database;
    /** Opens the database again, read-write (a full disk at start). */
    private final OpenDatabase.Opener opener;
    /** While the database is read-only (a full disk at start): what reopens it; else null. */
    private final ReadOnlyStart readOnlyStart;
    /** Held while reopening and while closing, so that the two never overlap. */
    private final Object reopening = new Object();
    /** Options, filters, cache and env: closed after the database, in this order. */
    private final List<AutoCloseable> nativeOptions;
    /** Shared by every commit: read-only once built, so safe across threads. */
    private final WriteOptions writeOptions;
    /** Shared by every read of the latest state (no snapshot, no bounds). */
    private final ReadOptions readOptions;
    /** Calls in flight, and the snapshots and cursors handed out: see {@link CallGate}. */
    private final CallGate gate;
    /** Tracks the files' space and drives RocksDB's recovery from a full disk; null in memory. */
    private final SstFileManager sstFiles;
    /** What a failed write throws, and the report of a fault and of its end. */
    private final WriteFaults faults;

    /** Made by {@link RocksOpening}, which opened the database and owns nothing once this exists. */
    RocksStorage(Path directory, boolean inMemory, boolean fsync, OpenDatabase database,
                 OpenDatabase.Opener opener, ReadOnlyStart readOnlyStart,
                 List<AutoCloseable> nativeOptions, WriteOptions writeOptions, ReadOptions readOptions,
                 SstFileManager sstFiles, WriteFaults faults) {
        this.directory = directory;
        this.inMemory = inMemory;
        this.fsync = fsync;
        this.database = database;
        this.opener = opener;
        this.readOnlyStart = readOnlyStart;
        this.nativeOptions = nativeOptions;
        this.writeOptions = writeOptions;
        this.readOptions = readOptions;
        this.gate = new CallGate(directory);
        this.sstFiles = sstFiles;
        this.faults = faults;
        if (readOnlyStart != null) {
            readOnlyStart.watch(this::reopenReadWrite);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Opening

    /**
     * Opens (creating if needed) the on-disk store in {@code dataDirectory} with the defaults and
     * a column family for each of {@code keyspaces}.
     */
    public static RocksStorage open(Path dataDirectory, Collection<Keyspace> keyspaces) {
        return builder(dataDirectory, keyspaces).open();
    }

    /**
     * A builder for a store in {@code dataDirectory} that keeps {@code keyspaces} (one column
     * family each, under its stored name; only these are readable and writable): on disk, no
     * fsync, 128 MB of blocks and memtables.
     */
    public static Builder builder(Path dataDirectory, Collection<Keyspace> keyspaces) {
        return new Builder(dataDirectory, keyspaces);
    }

    /** Settings for {@link RocksStorage}. */
    public static final class Builder {
        private final Path dataDirectory;
        private final List<Keyspace> keyspaces;
        private boolean inMemory;
        private boolean fsync;
        private long memoryBytes = DEFAULT_MEMORY_BYTES;
        private Consumer<String> faultLog = System.err::println;

        private Builder(Path dataDirectory, Collection<Keyspace> keyspaces) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
            this.keyspaces = List.copyOf(keyspaces);
        }

        /**
         * Keeps everything in memory (RocksDB's in-memory Env, WAL disabled): nothing is written
         * to the data directory, and the data is gone when the store is closed.
         */
        public Builder inMemory(boolean inMemory) {
            this.inMemory = inMemory;
            return this;
        }

        /**
         * Makes every commit fsync the WAL before returning, so it survives power loss.
         * Concurrent commits share one fsync (group commit). Ignored in memory.
         */
        public Builder fsync(boolean fsync) {
            this.fsync = fsync;
            return this;
        }

        /**
         * The memory RocksDB may use for the blocks it reads (an LRU cache shared by every
         * column family) and the memtables it writes, together (default 128 MB). Not counted:
         * the index and filter blocks of the files on disk (about 0.5% of the data), and in
         * memory the data itself.
         */
        public Builder memoryBytes(long memoryBytes) {
            if (memoryBytes <= 0) {
                throw new IllegalArgumentException("memoryBytes must be positive: " + memoryBytes);
            }
            this.memoryBytes = memoryBytes;
            return this;
        }

        /**
         * Where the store reports a storage fault (a full disk, a failed write) and its end: one
         * line each, not one per failed call. Standard error by default.
         */
        public Builder faultLog(Consumer<String> faultLog) {
            this.faultLog = Objects.requireNonNull(faultLog, "faultLog");
            return this;
        }

        /**
         * Opens the store.
         *
         * @throws StorageException if the directory cannot be created or opened, in particular
         *     when another process holds it ("... is in use by another process")
         */
        public RocksStorage open() {
            return RocksOpening.open(dataDirectory, keyspaces, inMemory, fsync, memoryBytes, faultLog);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Storage

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(key, "key");
        gate.enter();
        try {
            OpenDatabase d = database;
            return d.db().get(d.handle(keyspace), readOptions, key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public byte[] get(Snapshot snapshot, Keyspace keyspace, byte[] key) {
        Objects.requireNonNull(keyspace, "keyspace");
        Objects.requireNonNull(key, "key");
        gate.enter();
        try {
            OpenDatabase d = database;
            return d.db().get(d.handle(keyspace), snapshot == null ? readOptions : snapshot(snapshot).readOptions, key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public void commit(WriteBatch batch) {
        RocksWriteBatch rocksBatch = batch(batch);
        if (rocksBatch.size == 0) {
            return;
        }
        gate.enter();
        try {
            // No lock here: RocksDB groups concurrent writers into one WAL write (and, with
            // fsync, one fsync). See the class comment.
            database.db().write(writeOptions, rocksBatch.batch);
        } catch (RocksDBException e) {
            throw writeFailed("commit", e);
        } finally {
            gate.exit();
        }
    }

    @Override
    public Snapshot snapshot() {
        gate.enter();
        try {
            RocksDB db = database.db();
            RocksSnapshot snapshot = new RocksSnapshot(gate, db, db.getSnapshot());
            gate.track(snapshot);
            return snapshot;
        } finally {
            gate.exit();
        }
    }

    @Override
    public Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive,
                        boolean reverse) {
        Objects.requireNonNull(keyspace, "keyspace");
        gate.enter();
        ReadOptions options = null;
        Slice lower = null;
        Slice upper = null;
        try {
            options = new ReadOptions();
            if (snapshot != null) {
                options.setSnapshot(snapshot(snapshot).snapshot);
            }
            // The bounds let RocksDB stop at the end of the range by itself (skipping whole files
            // and tombstones past it) instead of handing back keys for us to compare. The
            // ReadOptions only points at the slices: the cursor keeps them and frees them last.
            if (fromInclusive != null) {
                lower = new Slice(fromInclusive);
                options.setIterateLowerBound(lower);
            }
            if (toExclusive != null) {
                upper = new Slice(toExclusive);
                options.setIterateUpperBound(upper);
            }
            OpenDatabase d = database;
            RocksIterator iterator = d.db().newIterator(d.handle(keyspace), options);
            RocksCursor cursor = new RocksCursor(gate, keyspace, iterator, options, lower, upper,
                    fromInclusive == null ? null : fromInclusive.clone(),
                    toExclusive == null ? null : toExclusive.clone(), reverse);
            gate.track(cursor);
            return cursor;
        } catch (RuntimeException | Error e) {
            if (options != null) {
                options.close();
            }
            if (lower != null) {
                lower.close();
            }
            if (upper != null) {
                upper.close();
            }
            throw e;
        } finally {
            gate.exit();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Written as one RocksDB range tombstone, so it costs the same for ten rows or ten million.
     * A null {@code toExclusive} means "to the end": the range then stops just past the last key
     * present when the call starts, and a key written concurrently above it may survive.
     */
    @Override
    public void deleteRange(Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive) {
        Objects.requireNonNull(keyspace, "keyspace");
        gate.enter();
        try {
            OpenDatabase d = database;
            ColumnFamilyHandle handle = d.handle(keyspace);
            byte[] begin = fromInclusive == null ? EMPTY : fromInclusive;
            byte[] end = toExclusive != null ? toExclusive : justAfterLastKey(d.db(), handle);
            if (end == null || Arrays.compareUnsigned(begin, end) >= 0) {
                return; // empty range (RocksDB would reject end < begin)
            }
            try (org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
                batch.deleteRange(handle, begin, end);
                d.db().write(writeOptions, batch);
            }
        } catch (RocksDBException e) {
            throw writeFailed("deleteRange", e);
        } finally {
            gate.exit();
        }
    }

    /** The smallest key greater than every key in the family, or null when it is empty. */
    private byte[] justAfterLastKey(RocksDB db, ColumnFamilyHandle handle) throws RocksDBException {
        try (RocksIterator iterator = db.newIterator(handle, readOptions)) {
            iterator.seekToLast();
            if (!iterator.isValid()) {
                iterator.status();
                return null;
            }
            byte[] last = iterator.key();
            return Arrays.copyOf(last, last.length + 1); // last + 0x00
        }
    }

    @Override
    public WriteBatch newBatch() {
        if (gate.isClosed()) {
            throw gate.closedException();
        }
        return new RocksWriteBatch(gate, this);
    }

    // ------------------------------------------------------------------------------------------
    // Beyond the SPI

    /**
     * Flushes every memtable to SST files and waits for it. Not needed for durability (the WAL
     * has it); useful before a backup, and in tests to read through SST files, filters and cache.
     *
     * @throws io.stator.storage.StorageFaultException if the storage cannot write (a full disk)
     */
    public void flush() {
        gate.enter();
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            OpenDatabase d = database;
            d.db().flush(options, d.all());
        } catch (RocksDBException e) {
            throw writeFailed("flush", e);
        } finally {
            gate.exit();
        }
    }

    /**
     * Caps the space the store's table files may take, as RocksDB's SstFileManager does: once a
     * flush takes them past it, writes fail as on a full disk, until the cap is lifted (0) and
     * RocksDB has recovered. Tests use it to fill the store without filling a disk.
     */
    void capSpace(long bytes) {
        if (sstFiles == null) {
            throw new IllegalStateException("no space to cap in memory");
        }
        gate.enter();
        try {
            sstFiles.setMaxAllowedSpaceUsage(bytes);
        } finally {
            gate.exit();
        }
    }

    /** The data directory (absolute); in memory, only the database's name. */
    public Path dataDirectory() {
        return directory;
    }

    public boolean isInMemory() {
        return inMemory;
    }

    /** Whether commits fsync the WAL (never in memory). */
    public boolean isFsync() {
        return fsync;
    }

    /**
     * Closes the store: refuses new calls, waits for those in flight, frees snapshots and cursors
     * left open, syncs the WAL (on disk), then closes the column family handles, the database and
     * the options, in that order. Calling it again does nothing.
     *
     * <p>During a storage fault the WAL is not synced: RocksDB refuses it too ("Writer has previous
     * error"), and what the WAL holds was handed to the operating system before each of its commits
     * returned, so it is as durable as without the fault; RocksDB's own error at close, about the
     * write that failed, is not reported either.
     *
     * @throws StorageException if RocksDB reports an error while closing; everything is freed anyway
     */
    @Override
    public void close() {
        if (readOnlyStart != null) {
            readOnlyStart.stop();
        }
        synchronized (reopening) {
            closeDatabase();
        }
    }

    private void closeDatabase() {
        if (!gate.shut()) {
            return; // closed, or being closed by another thread
        }

        OpenDatabase db = database;
        boolean faulty = faults.refusingWrites();
        faults.closing();
        StorageException failure = null;
        if (!inMemory && !fsync && !faulty) {
            // A clean shutdown should not depend on the page cache: make the WAL durable now.
            try {
                db.db().syncWal();
            } catch (RocksDBException e) {
                failure = failure("sync of the WAL at close", e);
            }
        }
        try {
            db.close();
        } catch (RocksDBException e) {
            // During a fault RocksDB cannot flush the WAL writer's buffer either ("Seen error.
            // Skip writing buffer"): it holds only the write that failed, never acknowledged.
            if (failure == null && !faulty) {
                failure = failure("close", e);
            }
        }
        if (readOnlyStart != null) {
            readOnlyStart.unlock();
        }
        for (AutoCloseable resource : nativeOptions) {
            RocksOpening.closeQuietly(resource, null);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "RocksStorage[" + directory + (inMemory ? ", in memory" : "") + (fsync ? ", fsync" : "") + "]";
    }

    // ------------------------------------------------------------------------------------------
    // Internals

    /** The handle of a keyspace, for this store's batches: only inside the gate. */
    ColumnFamilyHandle handle(Keyspace keyspace) {
        return database.handle(keyspace);
    }

    /**
     * What a write RocksDB failed throws: a storage fault, out of space, while the database is
     * read-only (it refuses every write); else as {@link WriteFaults} classifies it. Only inside
     * the gate.
     */
    private RuntimeException writeFailed(String what, RocksDBException e) {
        return database.readOnly() ? faults.refusedReadOnly(what) : faults.writeFailed(what, e);
    }

    /**
     * Reopens the database read-write and swaps it in for the read-only one (a full disk at
     * start; called by {@link ReadOnlyStart}'s thread once there is room). Calls wait at the gate
     * meanwhile, and the snapshots and cursors handed out move to the new database, which holds
     * the same data. If the open fails, the store stays read-only.
     *
     * @throws RocksDBException if the database cannot be opened read-write (yet)
     */
    private void reopenReadWrite() throws RocksDBException {
        synchronized (reopening) {
            if (gate.isClosed() || readOnlyStart.stopped()) {
                return;
            }
            OpenDatabase readOnly = database;
            readOnlyStart.unlock(); // RocksDB takes its own lock
            gate.pause();
            try {
                OpenDatabase readWrite;
                try {
                    readWrite = opener.readWrite();
                } catch (RocksDBException | RuntimeException e) {
                    readOnlyStart.lock();
                    throw e;
                }
                gate.rebind(readWrite);
                database = readWrite;
                try {
                    readOnly.close();
                } catch (RocksDBException e) {
                    // Nothing of it is needed any more: every read now goes to the new database.
                }
                faults.reopened();
            } finally {
                gate.resume();
            }
        }
    }

    private RocksSnapshot snapshot(Snapshot snapshot) {
        if (!(snapshot instanceof RocksSnapshot rocks) || rocks.gate != gate) {
            throw new IllegalArgumentException("snapshot was not taken from this store: " + snapshot);
        }
        if (rocks.closed.get()) {
            throw new IllegalStateException("snapshot is closed");
        }
        return rocks;
    }

    private RocksWriteBatch batch(WriteBatch batch) {
        if (!(batch instanceof RocksWriteBatch rocks) || rocks.gate != gate) {
            throw new IllegalArgumentException("batch was not created by this store: " + batch);
        }
        if (rocks.closed) {
            throw new IllegalStateException("batch is closed");
        }
        return rocks;
    }
}
