package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageException.describe;

import io.stator.storage.Keyspace;

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
import java.util.Properties;
import java.util.function.Consumer;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.DataBlockIndexType;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksMemEnv;
import org.rocksdb.SstFileManager;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBufferManager;
import org.rocksdb.WriteOptions;

/**
 * Opens the database behind a {@link RocksStorage}: the options of the database and of each
 * column family (and why they are set so), the column families to open (every keyspace, and
 * every family already on disk), and what a failure to open means (in particular a data
 * directory locked by another process). On failure, every native object made so far is freed.
 *
 * <p>RocksDB's native library is loaded by {@link RocksStorage}'s static initializer, which has
 * run before anything here: the only way here is through {@link RocksStorage#builder}.
 */
final class RocksOpening {

    /** The items' memtable size: the largest of the column families'. */
    private static final long ITEMS_WRITE_BUFFER_BYTES = 32L << 20;

    /**
     * The free space RocksDB waits for before it resumes writes after a full disk: the disk
     * buffer it reserves at open, the largest memtable size of the column families opened
     * ({@code DBImpl::Open}, {@code SstFileManagerImpl::ClearError}).
     */
    static final long RESUME_FREE_BYTES = ITEMS_WRITE_BUFFER_BYTES;

    private RocksOpening() {}

    /** Opens (creating if needed) the store with these settings; see {@link RocksStorage.Builder}. */
    static RocksStorage open(Path dataDirectory, List<Keyspace> keyspaces, boolean inMemory, boolean fsync,
                             long memoryBytes, Consumer<String> faultLog) {
        Path dir = dataDirectory.toAbsolutePath().normalize();
        String path = dir.toString();
        if (!inMemory) {
            try {
                Files.createDirectories(dir);
            } catch (IOException e) {
                throw new StorageException("cannot create data directory " + dir + ": " + e, e);
            }
        }
        // Everything below is native; on failure it is freed in reverse order of creation.
        Deque<AutoCloseable> owned = new ArrayDeque<>();
        OpenDatabase database = null;
        ReadOnlyStart readOnlyStart = null;
        try {
            // One budget for the blocks read and the memtables written: the memtables are charged
            // to the block cache (dummy entries of their size), so together they stay within it,
            // and past half of it the largest memtable is flushed early. Index and filter blocks
            // stay outside (see below): they grow with the data on disk, not with time.
            LRUCache cache = own(owned, new LRUCache(memoryBytes));
            WriteBufferManager memtables = own(owned, new WriteBufferManager(memoryBytes / 2, cache));
            // The default Env is a process-wide singleton and must never be closed.
            Env env = inMemory ? own(owned, new RocksMemEnv(Env.getDefault())) : Env.getDefault();
            // Told when RocksDB has recovered from a storage fault, to report its end (WriteFaults).
            WriteFaults faults = own(owned, new WriteFaults(dir, RESUME_FREE_BYTES, faultLog));
            DBOptions dbOptions = own(owned, dbOptions(env).setListeners(List.of(faults))
                    .setWriteBufferManager(memtables));
            // RocksDB's SstFileManager watches the disk space and, after a full disk, resumes the
            // database once there is room again (WriteFaults). RocksDB makes one by itself when
            // none is given; made here, the store keeps a handle on it (tests cap its space).
            SstFileManager sstFiles = inMemory ? null : own(owned, sstFileManager(env));
            if (sstFiles != null) {
                dbOptions.setSstFileManager(sstFiles);
            }
            BloomFilter bloom = own(owned, new BloomFilter(10)); // ~1% false positives
            // Index and filter blocks stay out of the block cache, held by each open SST file
            // (a few MB per GB of items). In the cache they competed with data blocks: once the
            // items outgrew it, gets evicted the index block the next get needed and re-read
            // it, and reads ran 10x slower after the first write workload (docs/benchmarks.md).
            BlockBasedTableConfig itemsTable = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setFilterPolicy(bloom)
                    .setWholeKeyFiltering(true)
                    .setCacheIndexAndFilterBlocks(false)
                    // A hash index in each data block: a point get finds its key there in one
                    // probe instead of a binary search over the block's restart points.
                    .setDataBlockIndexType(DataBlockIndexType.kDataBlockBinaryAndHash)
                    .setDataBlockHashTableUtilRatio(0.75);
            ColumnFamilyOptions itemsOptions = own(owned, columnFamilyOptions(ITEMS_WRITE_BUFFER_BYTES, 3)
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
                    .setDisableWAL(inMemory)
                    .setSync(fsync && !inMemory));
            ReadOptions readOptions = own(owned, new ReadOptions());

            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            for (byte[] name : columnFamilyNames(dir, inMemory, keyspaces)) {
                Keyspace.Kind kind = kindOf(name, keyspaces);
                descriptors.add(new ColumnFamilyDescriptor(name, kind == Keyspace.Kind.BULK ? itemsOptions
                        : kind == Keyspace.Kind.COUNTERS ? counterOptions : smallOptions));
            }
            OpenDatabase.Opener opener = new OpenDatabase.Opener(path, dbOptions, descriptors, keyspaces);
            try {
                database = opener.readWrite();
            } catch (RocksDBException e) {
                // A full disk: opening for writes writes (ReadOnlyStart). Open for reads only.
                if (inMemory || !WriteFaults.isOutOfSpace(e.getStatus())) {
                    throw openFailure(dir, e);
                }
                ReadOnlyStart.Opened readOnly = ReadOnlyStart.open(dir, opener, e, faultLog);
                database = readOnly.database();
                readOnlyStart = readOnly.start();
                faults.startedReadOnly(e, readOnlyStart.neededBytes());
            }
            List<AutoCloseable> closeOrder = new ArrayList<>(owned); // newest first
            return new RocksStorage(dir, inMemory, fsync && !inMemory, database, opener, readOnlyStart,
                    closeOrder, writeOptions, readOptions, sstFiles, faults);
        } catch (RuntimeException | Error e) {
            if (database != null) {
                database.closeQuietly(e);
            }
            if (readOnlyStart != null) {
                readOnlyStart.unlock();
            }
            for (AutoCloseable resource : owned) {
                closeQuietly(resource, e);
            }
            throw e;
        }
    }

    private static SstFileManager sstFileManager(Env env) {
        try {
            return new SstFileManager(env);
        } catch (RocksDBException e) {
            throw new StorageException("cannot make RocksDB's SstFileManager: " + describe(e), e);
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
                // The default, said out loud: a failed write to the WAL (a full disk) stops every
                // later write until RocksDB has recovered, so the WAL never holds a record after
                // a torn one, which the recovery above would stop at (WriteFaults).
                .setParanoidChecks(true)
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
        return uncachingColumnFamilyOptions()
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
     * Column family options whose files, once a compaction has made them obsolete, take their
     * blocks out of the block cache with them ({@code uncache_aggressiveness}, which RocksJava has
     * no setter for, so it is set by name). Left to age out instead, the blocks of files that no
     * longer exist filled the cache to its capacity under overwrites, whatever the size of the
     * data: resident memory kept climbing for as long as the writes went on (BinStatorMemoryIT).
     * 1,000 is RocksDB's "aggressive" end of the scale; erasing costs a lookup per cached block of
     * a deleted file, on the compaction's thread.
     */
    private static ColumnFamilyOptions uncachingColumnFamilyOptions() {
        Properties uncache = new Properties();
        uncache.setProperty("uncache_aggressiveness", "1000");
        try (ConfigOptions config = new ConfigOptions()) {
            ColumnFamilyOptions options = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(config, uncache);
            if (options == null) {
                throw new StorageException("this RocksDB does not know uncache_aggressiveness (RocksDB 9.4 or later needed)");
            }
            return options;
        }
    }

    /**
     * The column families to open: "default" (RocksDB requires it), every family already on
     * disk, and every keyspace the store is opened with. A fresh in-memory Env is always empty, so there is nothing to
     * list there (and listing would look at the real disk).
     */
    private static List<byte[]> columnFamilyNames(Path dir, boolean inMemory, List<Keyspace> keyspaces) {
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
        for (Keyspace keyspace : keyspaces) {
            byte[] name = keyspace.storedName().getBytes(StandardCharsets.UTF_8);
            names.putIfAbsent(new String(name, StandardCharsets.ISO_8859_1), name);
        }
        return new ArrayList<>(names.values());
    }

    /**
     * What a family holds, for its options: its key space's kind, or few rows for a family the
     * store is not opened with (kept as found, unread).
     */
    private static Keyspace.Kind kindOf(byte[] name, List<Keyspace> keyspaces) {
        for (Keyspace keyspace : keyspaces) {
            if (Arrays.equals(name, keyspace.storedName().getBytes(StandardCharsets.UTF_8))) return keyspace.kind();
        }
        return Keyspace.Kind.ROWS;
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

    private static <T extends AutoCloseable> T own(Deque<AutoCloseable> owned, T resource) {
        owned.push(resource);
        return resource;
    }

    static void closeQuietly(AutoCloseable resource, Throwable into) {
        try {
            resource.close();
        } catch (Exception e) {
            if (into != null) {
                into.addSuppressed(e);
            }
        }
    }
}
