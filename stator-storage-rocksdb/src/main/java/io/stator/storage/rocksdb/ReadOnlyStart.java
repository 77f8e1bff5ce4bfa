package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageException.describe;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.rocksdb.RocksDBException;

/**
 * A store whose disk was full when it was opened: served read-only, and reopened read-write,
 * in the same process, once there is room.
 *
 * <h2>Why</h2>
 *
 * <p>Opening a RocksDB database for writes writes: recovery replays the write-ahead log into
 * memtables, flushes them to new table files, writes a new manifest and starts a new log. On a
 * full disk the first of those fails, and the database does not open at all: a server killed
 * while its disk was full would not start, and could not even serve reads, until an operator
 * freed space. Opened read-only, RocksDB replays the same log into memory and writes nothing, so
 * every acknowledged write is readable at once; writes are refused as during any full-disk fault
 * ({@link WriteFaults}): a {@link io.stator.storage.StorageFaultException}, out of space.
 *
 * <h2>Back to writes</h2>
 *
 * <p>A thread looks at the free space every 5 seconds, as RocksDB's own SstFileManager does
 * during a fault. Once the disk has room for what reopening writes (the log's contents, flushed
 * to table files) and for RocksDB's reserve on top ({@link RocksOpening#RESUME_FREE_BYTES}, the
 * room it waits for before resuming after a full disk), the store reopens the database
 * read-write and swaps it in ({@code RocksStorage.reopenReadWrite}): calls wait at the store's
 * gate meanwhile, and the snapshots and cursors handed out move to the new database, which holds
 * the very same data (nothing was written in between). If reopening fails (the space went again),
 * the store stays read-only and the thread tries again later.
 *
 * <h2>The directory's lock</h2>
 *
 * <p>A read-only RocksDB takes no lock on its directory, so while read-only this class holds
 * RocksDB's {@code LOCK} file itself: another process cannot open the directory for writes
 * behind the store's back. The lock is an fcntl lock, which belongs to the process and which
 * closing any of the process's descriptors of the file drops: it is released, and its file
 * closed, before the read-write open takes RocksDB's own lock, and taken again if that fails.
 */
final class ReadOnlyStart {

    /** How often the free space is looked at: as RocksDB's SstFileManager does during a fault. */
    static final long POLL_SECONDS = 5;

    /** Reopens the store read-write (nothing, if it was closed meanwhile); throws if it cannot yet. */
    interface Reopen {
        void readWrite() throws RocksDBException;
    }

    private final Path directory;
    private final Consumer<String> log;
    private FileChannel lockFile;
    private volatile boolean stopped;
    private Thread watcher;

    private ReadOnlyStart(Path directory, Consumer<String> log) {
        this.directory = directory;
        this.log = log;
    }

    /**
     * Opens the database read-only after its read-write open failed for lack of space
     * ({@code refused}), and takes the directory's lock.
     *
     * @throws StorageException if it cannot be opened read-only either, or another process holds it
     */
    static Opened open(Path directory, OpenDatabase.Opener opener, RocksDBException refused, Consumer<String> log) {
        OpenDatabase database;
        try {
            database = opener.readOnly();
        } catch (RocksDBException e) {
            StorageException failure = new StorageException("cannot open data directory " + directory + ": "
                    + describe(refused) + " (nor for reads only: " + describe(e) + ")", refused);
            failure.addSuppressed(e);
            throw failure;
        }
        ReadOnlyStart start = new ReadOnlyStart(directory, log);
        try {
            start.lock();
        } catch (StorageException e) {
            database.closeQuietly(e);
            throw e;
        }
        return new Opened(database, start);
    }

    /** The database opened read-only, and what watches for room to reopen it. */
    record Opened(OpenDatabase database, ReadOnlyStart start) {}

    /** The space reopening needs: the write-ahead log's size, and RocksDB's reserve. */
    long neededBytes() {
        return RocksOpening.RESUME_FREE_BYTES + logBytes();
    }

    /** Starts the thread that reopens the store once there is room. */
    void watch(Reopen reopen) {
        watcher = new Thread(() -> run(reopen), "stator-storage-reopen");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void run(Reopen reopen) {
        String lastFailure = null;
        while (pause()) {
            if (freeBytes() < neededBytes()) {
                continue;
            }
            try {
                reopen.readWrite();
                return;
            } catch (RocksDBException | RuntimeException e) {
                // Out of space again (the room went meanwhile) is said already; another cause once.
                String failure = e instanceof RocksDBException r ? describe(r) : String.valueOf(e);
                boolean outOfSpace = e instanceof RocksDBException r && WriteFaults.isOutOfSpace(r.getStatus());
                if (!outOfSpace && !failure.equals(lastFailure) && !stopped) {
                    log.accept("stator: storage " + directory + " could not be reopened for writes: " + failure
                            + "; trying again every " + POLL_SECONDS + " s");
                }
                lastFailure = failure;
            }
        }
    }

    /** Waits for the next look at the free space; false once stopped. */
    private synchronized boolean pause() {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(POLL_SECONDS);
        for (long left = until - System.nanoTime(); !stopped && left > 0; left = until - System.nanoTime()) {
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                return false;
            }
        }
        return !stopped;
    }

    /** Stops the thread at its next look (the store is closing). */
    synchronized void stop() {
        stopped = true;
        notifyAll();
    }

    /** Whether the store is being closed. */
    boolean stopped() {
        return stopped;
    }

    /** Takes RocksDB's lock on the directory, as a read-write open would. */
    void lock() {
        Path file = directory.resolve("LOCK");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
            if (channel.tryLock() == null) {
                throw new StorageException("data directory " + directory + " is in use by another process");
            }
            lockFile = channel;
        } catch (IOException | OverlappingFileLockException e) {
            throw new StorageException("cannot lock data directory " + directory + ": " + e, e);
        } finally {
            if (lockFile != channel && channel != null) {
                closeQuietly(channel);
            }
        }
    }

    /** Releases the lock and closes its file: RocksDB's read-write open takes its own. */
    void unlock() {
        FileChannel channel = lockFile;
        lockFile = null;
        if (channel != null) {
            closeQuietly(channel); // closing releases the lock
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing held is lost: the lock goes with the descriptor
        }
    }

    private long freeBytes() {
        try {
            return Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            return 0;
        }
    }

    /** The write-ahead log files' size: what reopening flushes to table files, at most. */
    private long logBytes() {
        long bytes = 0;
        try (DirectoryStream<Path> logs = Files.newDirectoryStream(directory, "*.log")) {
            for (Path file : logs) {
                bytes += Files.size(file);
            }
        } catch (IOException e) {
            // a file gone meanwhile: the estimate is only an estimate
        }
        return bytes;
    }
}
