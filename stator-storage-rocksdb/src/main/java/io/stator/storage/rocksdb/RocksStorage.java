package io.stator.storage.rocksdb;

import io.stator.engine.storage.Cursor;
import io.stator.engine.storage.Keyspace;
import io.stator.engine.storage.Snapshot;
import io.stator.engine.storage.Storage;
import io.stator.engine.storage.WriteBatch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksMemEnv;
import org.rocksdb.Slice;
import org.rocksdb.Status;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteOptions;

/**
 * The embedded {@link Storage}: one RocksDB database per data directory.
 *
 * <h2>Why it is built this way</h2>
 *
 * <p><b>One column family per {@link Keyspace}.</b> A column family is RocksDB's own key space:
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
 * ({@link WALRecoveryMode#PointInTimeRecovery}, which stops cleanly at a torn last record). It
 * does not survive the machine losing power; that is what {@code fsync} is for.
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
 * {@link Env} ({@link RocksMemEnv}): SST files, the manifest, the info log and the lock live in
 * process memory, and the WAL is disabled (it could only protect data that dies with the
 * process anyway). Nothing is written to, or created in, the data directory, whose path only
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
 * <p>RocksDB errors become {@link StorageException}s that carry RocksDB's status message.
 */
public final class RocksStorage implements Storage {

    static {
        NativeLibrary.load(); // RocksDB's JNI library, without leaving a copy of it in /tmp
    }

    /** Default size of the block cache shared by every column family. */
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;

    private static final byte[] EMPTY = new byte[0];

    /** Sign bit of {@link #gate}: set once {@link #close} has begun. */
    private static final long CLOSED = Long.MIN_VALUE;

    private final Path directory;
    private final boolean inMemory;
    private final boolean fsync;
    private final RocksDB db;
    /** Handles of the keyspaces, by {@link Keyspace#ordinal()}. */
    private final ColumnFamilyHandle[] keyspaceHandles;
    /** Every open column family handle, including unknown ones found on disk. */
    private final List<ColumnFamilyHandle> allHandles;
    /** Options, filters, cache and env: closed after the database, in this order. */
    private final List<AutoCloseable> nativeOptions;
    /** Shared by every commit: read-only once built, so safe across threads. */
    private final WriteOptions writeOptions;
    /** Shared by every read of the latest state (no snapshot, no bounds). */
    private final ReadOptions readOptions;
    /** Snapshots and cursors not yet closed, freed by {@link #close} if their owners forgot. */
    private final Set<Tracked> open = ConcurrentHashMap.newKeySet();
    /**
     * Calls in flight (low bits) and the closed flag (sign bit). One atomic add on entry and one
     * on exit: far cheaper than the native call it guards, and it lets {@link #close} wait for
     * running calls instead of freeing memory under them.
     */
    private final AtomicLong gate = new AtomicLong();

    private RocksStorage(Path directory, boolean inMemory, boolean fsync, RocksDB db,
                         ColumnFamilyHandle[] keyspaceHandles, List<ColumnFamilyHandle> allHandles,
                         List<AutoCloseable> nativeOptions, WriteOptions writeOptions, ReadOptions readOptions) {
        this.directory = directory;
        this.inMemory = inMemory;
        this.fsync = fsync;
        this.db = db;
        this.keyspaceHandles = keyspaceHandles;
        this.allHandles = allHandles;
        this.nativeOptions = nativeOptions;
        this.writeOptions = writeOptions;
        this.readOptions = readOptions;
    }

    // ------------------------------------------------------------------------------------------
    // Opening

    /** Opens (creating if needed) the on-disk store in {@code dataDirectory} with the defaults. */
    public static RocksStorage open(Path dataDirectory) {
        return builder(dataDirectory).open();
    }

    /** A builder for a store in {@code dataDirectory}: on disk, no fsync, 64 MB block cache. */
    public static Builder builder(Path dataDirectory) {
        return new Builder(dataDirectory);
    }

    /** Settings for {@link RocksStorage}. */
    public static final class Builder {
        private final Path dataDirectory;
        private boolean inMemory;
        private boolean fsync;
        private long blockCacheBytes = DEFAULT_BLOCK_CACHE_BYTES;

        private Builder(Path dataDirectory) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
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

        /** Size of the LRU block cache shared by all column families (default 64 MB). */
        public Builder blockCacheBytes(long blockCacheBytes) {
            if (blockCacheBytes <= 0) {
                throw new IllegalArgumentException("blockCacheBytes must be positive: " + blockCacheBytes);
            }
            this.blockCacheBytes = blockCacheBytes;
            return this;
        }

        /**
         * Opens the store.
         *
         * @throws StorageException if the directory cannot be created or opened, in particular
         *     when another process holds it ("... is in use by another process")
         */
        public RocksStorage open() {
            return RocksStorage.open(this);
        }
    }

    private static RocksStorage open(Builder b) {
        Path dir = b.dataDirectory.toAbsolutePath().normalize();
        String path = dir.toString();
        if (!b.inMemory) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new StorageException("cannot create data directory " + dir + ": " + e, e);
            }
        }
        // Everything below is native; on failure it is freed in reverse order of creation.
        Deque<AutoCloseable> owned = new ArrayDeque<>();
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        RocksDB db = null;
        try {
            LRUCache cache = own(owned, new LRUCache(b.blockCacheBytes));
            // The default Env is a process-wide singleton and must never be closed.
            Env env = b.inMemory ? own(owned, new RocksMemEnv(Env.getDefault())) : Env.getDefault();
            DBOptions dbOptions = own(owned, dbOptions(env));
            BloomFilter bloom = own(owned, new BloomFilter(10)); // ~1% false positives
            // Index and filter blocks stay out of the block cache, held by each open SST file
            // (a few MB per GB of items). In the cache they competed with data blocks: once the
            // items outgrew it, gets evicted the index block the next get needed and re-read
            // it, and reads ran 10x slower after the first write workload (docs/benchmarks.md).
            BlockBasedTableConfig itemsTable = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setFilterPolicy(bloom)
                    .setWholeKeyFiltering(true)
                    .setCacheIndexAndFilterBlocks(false);
            ColumnFamilyOptions itemsOptions = own(owned, columnFamilyOptions(32L << 20, 3)
                    // A small whole-key bloom on the memtable too: point gets that miss (the
                    // common read-before-write of PutItem on a new key) skip the memtable scan.
                    .setMemtablePrefixBloomSizeRatio(0.02)
                    .setMemtableWholeKeyFiltering(true)
                    .setTableFormatConfig(itemsTable));
            BlockBasedTableConfig smallTable = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setCacheIndexAndFilterBlocks(false);
            // Counters add up in place: RocksDB's uint64add merge operator sums 8-byte
            // little-endian operands (negative deltas wrap, so adding them subtracts), and
            // successive merges in the memtable are collapsed so that reads stay cheap.
            UInt64AddOperator addOperator = own(owned, new UInt64AddOperator());
            // Every write adds an operand here (item count and size), so its memtable fills
            // faster than the items': 16 MB keeps its flushes as rare as theirs.
            ColumnFamilyOptions counterOptions = own(owned, columnFamilyOptions(16L << 20, 2)
                    .setMergeOperator(addOperator)
                    .setMaxSuccessiveMerges(64)
                    .setTableFormatConfig(smallTable));
            ColumnFamilyOptions smallOptions = own(owned, columnFamilyOptions(4L << 20, 2)
                    .setTableFormatConfig(smallTable));
            WriteOptions writeOptions = own(owned, new WriteOptions()
                    // In memory there is no WAL, and RocksDB rejects sync without one.
                    .setDisableWAL(b.inMemory)
                    .setSync(b.fsync && !b.inMemory));
            ReadOptions readOptions = own(owned, new ReadOptions());

            byte[] itemsName = Keyspace.ITEMS.storedName().getBytes(StandardCharsets.UTF_8);
            byte[] countersName = Keyspace.COUNTERS.storedName().getBytes(StandardCharsets.UTF_8);
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            for (byte[] name : columnFamilyNames(dir, b.inMemory)) {
                descriptors.add(new ColumnFamilyDescriptor(name, Arrays.equals(name, itemsName) ? itemsOptions
                        : Arrays.equals(name, countersName) ? counterOptions : smallOptions));
            }
            try {
                db = RocksDB.open(dbOptions, path, descriptors, handles);
            } catch (RocksDBException e) {
                throw openFailure(dir, e);
            }

            ColumnFamilyHandle[] byKeyspace = new ColumnFamilyHandle[Keyspace.values().length];
            for (Keyspace keyspace : Keyspace.values()) {
                byte[] name = keyspace.storedName().getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < descriptors.size(); i++) {
                    if (Arrays.equals(descriptors.get(i).getName(), name)) {
                        byKeyspace[keyspace.ordinal()] = handles.get(i);
                    }
                }
            }
            List<AutoCloseable> closeOrder = new ArrayList<>(owned); // newest first
            return new RocksStorage(dir, b.inMemory, b.fsync && !b.inMemory, db, byKeyspace, List.copyOf(handles),
                    closeOrder, writeOptions, readOptions);
        } catch (RuntimeException | Error e) {
            for (ColumnFamilyHandle handle : handles) {
                handle.close();
            }
            if (db != null) {
                db.close();
            }
            for (AutoCloseable resource : owned) {
                closeQuietly(resource, e);
            }
            throw e;
        }
    }

    private static DBOptions dbOptions(Env env) {
        return new DBOptions()
                .setEnv(env)
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                // Two cores: one flush and one compaction at a time.
                .setMaxBackgroundJobs(2)
                // Write SST files out in 1 MB steps instead of one burst of dirty pages at the end.
                .setBytesPerSync(1L << 20)
                // The WAL is shared by all families: a rarely written one (the catalog) would pin
                // old WAL files forever; past 256 MB of WAL RocksDB flushes it so they can go.
                .setMaxTotalWalSize(256L << 20)
                // The default, said out loud: replay the WAL up to the first torn record, which is
                // what a kill -9 in the middle of a write leaves behind.
                .setWalRecoveryMode(WALRecoveryMode.PointInTimeRecovery)
                // Delete obsolete files on a background thread, not in whichever request thread
                // happens to close the last iterator pinning them.
                .setAvoidUnnecessaryBlockingIO(true)
                // Writers waiting for their group's leader sleep instead of spinning: with more
                // request threads than cores, spinning followers starved the leader (and the
                // compactions), and puts fell from 12,000 to 1,500/s after a few minutes of
                // writes on 2 cores (docs/benchmarks.md).
                .setEnableWriteThreadAdaptiveYield(false)
                .setKeepLogFileNum(5)
                .setMaxLogFileSize(16L << 20);
    }

    private static ColumnFamilyOptions columnFamilyOptions(long writeBufferBytes, int maxWriteBuffers) {
        return new ColumnFamilyOptions()
                .setCompactionStyle(CompactionStyle.LEVEL)
                .setLevelCompactionDynamicLevelBytes(true)
                .setWriteBufferSize(writeBufferBytes)
                .setMaxWriteBufferNumber(maxWriteBuffers)
                // LZ4 is cheap enough for the hot levels; zstd on the last level, which holds ~90%
                // of the data and is rewritten least often.
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION);
    }

    /**
     * The column families to open: "default" (RocksDB requires it), every family already on
     * disk, and every keyspace. A fresh in-memory Env is always empty, so there is nothing to
     * list there (and listing would look at the real disk).
     */
    private static List<byte[]> columnFamilyNames(Path dir, boolean inMemory) {
        Map<String, byte[]> names = new LinkedHashMap<>(); // keyed losslessly by ISO-8859-1
        names.put(new String(RocksDB.DEFAULT_COLUMN_FAMILY, StandardCharsets.ISO_8859_1), RocksDB.DEFAULT_COLUMN_FAMILY);
        if (!inMemory) {
            try (Options options = new Options()) {
                for (byte[] name : RocksDB.listColumnFamilies(options, dir.toString())) {
                    names.putIfAbsent(new String(name, StandardCharsets.ISO_8859_1), name);
                }
            } catch (RocksDBException e) {
                throw new StorageException("cannot list the column families in " + dir + ": " + describe(e), e);
            }
        }
        for (Keyspace keyspace : Keyspace.values()) {
            byte[] name = keyspace.storedName().getBytes(StandardCharsets.UTF_8);
            names.putIfAbsent(new String(name, StandardCharsets.ISO_8859_1), name);
        }
        return new ArrayList<>(names.values());
    }

    private static StorageException openFailure(Path dir, RocksDBException e) {
        String message = String.valueOf(e.getMessage());
        // RocksDB's LOCK file: fcntl(F_SETLK) fails with "While lock file: <dir>/LOCK: Resource
        // temporarily unavailable" when another process has the directory open, and RocksDB
        // reports "lock hold by current process" when this process already has.
        if (message.contains("lock hold by current process")) {
            return new StorageException("data directory " + dir
                    + " is already open in this process (" + describe(e) + ")", e);
        }
        if (message.contains("While lock file")) {
            return new StorageException("data directory " + dir
                    + " is in use by another process (" + describe(e) + ")", e);
        }
        return new StorageException("cannot open data directory " + dir + ": " + describe(e), e);
    }

    // ------------------------------------------------------------------------------------------
    // Storage

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        ColumnFamilyHandle handle = handle(keyspace);
        Objects.requireNonNull(key, "key");
        enter();
        try {
            return db.get(handle, readOptions, key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        } finally {
            exit();
        }
    }

    @Override
    public byte[] get(Snapshot snapshot, Keyspace keyspace, byte[] key) {
        ColumnFamilyHandle handle = handle(keyspace);
        Objects.requireNonNull(key, "key");
        enter();
        try {
            return db.get(handle, snapshot == null ? readOptions : snapshot(snapshot).readOptions, key);
        } catch (RocksDBException e) {
            throw failure("get", e);
        } finally {
            exit();
        }
    }

    @Override
    public void commit(WriteBatch batch) {
        RocksWriteBatch rocksBatch = batch(batch);
        if (rocksBatch.size == 0) {
            return;
        }
        enter();
        try {
            // No lock here: RocksDB groups concurrent writers into one WAL write (and, with
            // fsync, one fsync). See the class comment.
            db.write(writeOptions, rocksBatch.batch);
        } catch (RocksDBException e) {
            throw failure("commit", e);
        } finally {
            exit();
        }
    }

    @Override
    public Snapshot snapshot() {
        enter();
        try {
            RocksSnapshot snapshot = new RocksSnapshot(db.getSnapshot());
            open.add(snapshot);
            return snapshot;
        } finally {
            exit();
        }
    }

    @Override
    public Cursor range(Snapshot snapshot, Keyspace keyspace, byte[] fromInclusive, byte[] toExclusive,
                        boolean reverse) {
        ColumnFamilyHandle handle = handle(keyspace);
        enter();
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
            RocksIterator iterator = db.newIterator(handle, options);
            RocksCursor cursor = new RocksCursor(iterator, options, lower, upper,
                    fromInclusive == null ? null : fromInclusive.clone(),
                    toExclusive == null ? null : toExclusive.clone(), reverse);
            open.add(cursor);
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
            exit();
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
        ColumnFamilyHandle handle = handle(keyspace);
        enter();
        try {
            byte[] begin = fromInclusive == null ? EMPTY : fromInclusive;
            byte[] end = toExclusive != null ? toExclusive : justAfterLastKey(handle);
            if (end == null || Arrays.compareUnsigned(begin, end) >= 0) {
                return; // empty range (RocksDB would reject end < begin)
            }
            try (org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
                batch.deleteRange(handle, begin, end);
                db.write(writeOptions, batch);
            }
        } catch (RocksDBException e) {
            throw failure("deleteRange", e);
        } finally {
            exit();
        }
    }

    /** The smallest key greater than every key in the family, or null when it is empty. */
    private byte[] justAfterLastKey(ColumnFamilyHandle handle) throws RocksDBException {
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
        if (gate.get() < 0) {
            throw closedException();
        }
        return new RocksWriteBatch();
    }

    // ------------------------------------------------------------------------------------------
    // Beyond the SPI

    /**
     * Flushes every memtable to SST files and waits for it. Not needed for durability (the WAL
     * has it); useful before a backup, and in tests to read through SST files, filters and cache.
     */
    public void flush() {
        enter();
        try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
            db.flush(options, allHandles);
        } catch (RocksDBException e) {
            throw failure("flush", e);
        } finally {
            exit();
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
     * @throws StorageException if RocksDB reports an error while closing; everything is freed anyway
     */
    @Override
    public void close() {
        long state;
        do {
            state = gate.get();
            if (state < 0) {
                return; // closed, or being closed by another thread
            }
        } while (!gate.compareAndSet(state, state | CLOSED));
        // Calls in flight are single native calls (a get, a write, one iterator step): short.
        for (int spins = 0; gate.get() != CLOSED; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }

        StorageException failure = null;
        for (Tracked resource : open) {
            resource.freeOnce();
        }
        open.clear();
        if (!inMemory && !fsync) {
            // A clean shutdown should not depend on the page cache: make the WAL durable now.
            try {
                db.syncWal();
            } catch (RocksDBException e) {
                failure = failure("sync of the WAL at close", e);
            }
        }
        for (ColumnFamilyHandle handle : allHandles) {
            handle.close();
        }
        try {
            db.closeE();
        } catch (RocksDBException e) {
            if (failure == null) {
                failure = failure("close", e);
            }
        }
        for (AutoCloseable resource : nativeOptions) {
            closeQuietly(resource, null);
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

    private void enter() {
        if (!tryEnter()) {
            throw closedException();
        }
    }

    private StorageException closedException() {
        return new StorageException("storage " + directory + " is closed");
    }

    private boolean tryEnter() {
        if (gate.getAndIncrement() < 0) {
            gate.getAndDecrement();
            return false;
        }
        return true;
    }

    private void exit() {
        gate.getAndDecrement();
    }

    private ColumnFamilyHandle handle(Keyspace keyspace) {
        return keyspaceHandles[Objects.requireNonNull(keyspace, "keyspace").ordinal()];
    }

    private RocksSnapshot snapshot(Snapshot snapshot) {
        if (!(snapshot instanceof RocksSnapshot rocks) || rocks.owner() != this) {
            throw new IllegalArgumentException("snapshot was not taken from this store: " + snapshot);
        }
        if (rocks.closed.get()) {
            throw new IllegalStateException("snapshot is closed");
        }
        return rocks;
    }

    private RocksWriteBatch batch(WriteBatch batch) {
        if (!(batch instanceof RocksWriteBatch rocks) || rocks.owner() != this) {
            throw new IllegalArgumentException("batch was not created by this store: " + batch);
        }
        if (rocks.closed) {
            throw new IllegalStateException("batch is closed");
        }
        return rocks;
    }

    /** Closes a snapshot or cursor for its owner; after {@link #close} began, close frees it. */
    private void release(Tracked resource) {
        if (!tryEnter()) {
            return;
        }
        try {
            if (resource.freeOnce()) {
                open.remove(resource);
            }
        } finally {
            exit();
        }
    }

    private static <T extends AutoCloseable> T own(Deque<AutoCloseable> owned, T resource) {
        owned.push(resource);
        return resource;
    }

    private static void closeQuietly(AutoCloseable resource, Throwable into) {
        try {
            resource.close();
        } catch (Exception e) {
            if (into != null) {
                into.addSuppressed(e);
            }
        }
    }

    static StorageException failure(String what, RocksDBException e) {
        return new StorageException("RocksDB " + what + " failed: " + describe(e), e);
    }

    /** RocksDB's status, e.g. "IOError: While open a file for appending: ...: No space left on device". */
    static String describe(RocksDBException e) {
        Status status = e.getStatus();
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (status == null || status.getCode() == null) {
            return message;
        }
        return status.getCode() + ": " + message;
    }

    /** A native resource handed to a caller, freed once by its owner or by {@link #close}. */
    private abstract static class Tracked {
        final AtomicBoolean closed = new AtomicBoolean();

        /** Frees the native objects; called at most once, never while a call uses them. */
        abstract void free();

        final boolean freeOnce() {
            if (closed.compareAndSet(false, true)) {
                free();
                return true;
            }
            return false;
        }
    }

    private final class RocksSnapshot extends Tracked implements Snapshot {
        final org.rocksdb.Snapshot snapshot;
        /** Shared by every get on this snapshot, from any thread. */
        final ReadOptions readOptions;

        RocksSnapshot(org.rocksdb.Snapshot snapshot) {
            this.snapshot = snapshot;
            this.readOptions = new ReadOptions().setSnapshot(snapshot);
        }

        RocksStorage owner() {
            return RocksStorage.this;
        }

        @Override
        void free() {
            // Cursors opened on this snapshot stay valid: a RocksDB iterator pins the data it reads.
            readOptions.close();
            db.releaseSnapshot(snapshot);
        }

        @Override
        public void close() {
            release(this);
        }
    }

    private final class RocksCursor extends Tracked implements Cursor {
        private final RocksIterator iterator;
        private final ReadOptions options;
        private final Slice lower;
        private final Slice upper;
        private final byte[] from;
        private final byte[] to;
        private final boolean reverse;
        private boolean started;
        private boolean valid;

        RocksCursor(RocksIterator iterator, ReadOptions options, Slice lower, Slice upper,
                    byte[] from, byte[] to, boolean reverse) {
            this.iterator = iterator;
            this.options = options;
            this.lower = lower;
            this.upper = upper;
            this.from = from;
            this.to = to;
            this.reverse = reverse;
        }

        @Override
        public boolean next() {
            enter();
            try {
                if (closed.get()) {
                    throw new IllegalStateException("cursor is closed");
                }
                if (!started) {
                    started = true;
                    if (reverse) {
                        // With iterate_upper_bound set, seekForPrev(to) lands on the last key < to.
                        if (to != null) {
                            iterator.seekForPrev(to);
                        } else {
                            iterator.seekToLast();
                        }
                    } else if (from != null) {
                        iterator.seek(from);
                    } else {
                        iterator.seekToFirst();
                    }
                } else if (valid) {
                    if (reverse) {
                        iterator.prev();
                    } else {
                        iterator.next();
                    }
                } else {
                    return false;
                }
                valid = iterator.isValid();
                if (!valid) {
                    iterator.status(); // invalid because exhausted, or because of an error?
                }
                return valid;
            } catch (RocksDBException e) {
                valid = false;
                throw failure("iteration", e);
            } finally {
                exit();
            }
        }

        @Override
        public byte[] key() {
            enter();
            try {
                checkPositioned();
                return iterator.key(); // a new array on every call
            } finally {
                exit();
            }
        }

        @Override
        public byte[] value() {
            enter();
            try {
                checkPositioned();
                return iterator.value(); // a new array on every call
            } finally {
                exit();
            }
        }

        private void checkPositioned() {
            if (closed.get()) {
                throw new IllegalStateException("cursor is closed");
            }
            if (!valid) {
                throw new IllegalStateException("cursor is not on a row: call next() and check it returned true");
            }
        }

        @Override
        void free() {
            iterator.close();
            options.close();
            if (lower != null) {
                lower.close();
            }
            if (upper != null) {
                upper.close();
            }
        }

        @Override
        public void close() {
            release(this);
        }
    }

    private final class RocksWriteBatch implements WriteBatch {
        final org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch();
        int size;
        boolean closed;

        RocksStorage owner() {
            return RocksStorage.this;
        }

        @Override
        public void put(Keyspace keyspace, byte[] key, byte[] value) {
            ColumnFamilyHandle handle = handle(keyspace);
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            checkOpen();
            enter(); // the batch reads the column family handle, which close() frees
            try {
                batch.put(handle, key, value);
                size++;
            } catch (RocksDBException e) {
                throw failure("batch put", e);
            } finally {
                exit();
            }
        }

        @Override
        public void delete(Keyspace keyspace, byte[] key) {
            ColumnFamilyHandle handle = handle(keyspace);
            Objects.requireNonNull(key, "key");
            checkOpen();
            enter();
            try {
                batch.delete(handle, key);
                size++;
            } catch (RocksDBException e) {
                throw failure("batch delete", e);
            } finally {
                exit();
            }
        }

        @Override
        public void addToCounter(Keyspace keyspace, byte[] key, long delta) {
            ColumnFamilyHandle handle = handle(keyspace);
            Objects.requireNonNull(key, "key");
            checkOpen();
            enter();
            try {
                batch.merge(handle, key, io.stator.engine.storage.Counters.encode(delta));
                size++;
            } catch (RocksDBException e) {
                throw failure("batch counter add", e);
            } finally {
                exit();
            }
        }

        @Override
        public int size() {
            return size;
        }

        private void checkOpen() {
            if (closed) {
                throw new IllegalStateException("batch is closed");
            }
        }

        @Override
        public void close() {
            closed = true;
            batch.close(); // idempotent
        }
    }
}
