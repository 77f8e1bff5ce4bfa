package io.stator.storage.rocksdb;

import static io.stator.storage.rocksdb.StorageException.describe;

import io.stator.storage.StorageFaultException;
import io.stator.storage.StorageFaultException.Kind;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.rocksdb.AbstractEventListener;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * The faults of a {@link RocksStorage}'s writes: how a failed write is answered, and how the
 * fault and its end are reported, once each.
 *
 * <h2>What RocksDB does with a failed write</h2>
 *
 * <p>A write, flush or compaction that fails with an I/O error becomes RocksDB's <i>background
 * error</i>, with a severity decided by where it happened and what it was
 * ({@code db/error_handler.cc}): with {@code paranoid_checks} (on, see {@link RocksOpening}) a
 * failed write-ahead-log write or flush is a <i>hard</i> error when the disk is full and a
 * <i>fatal</i> one for other I/O errors; a compaction that finds the disk full is a <i>soft</i>
 * error, which lets writes go on. From a hard or fatal error on, RocksDB refuses every write
 * with that error, before touching the log, so the log never gets a record after a torn one;
 * reads go on.
 *
 * <p>A full disk heals by itself: RocksDB's SstFileManager polls the free space every 5 seconds
 * and, once at least the largest memtable's size is free ({@link RocksOpening#RESUME_FREE_BYTES},
 * 32 MB here), resumes the database: it flushes every memtable to new table files, starts a new
 * log (the old one may end in a torn record, and is no longer needed), and clears the error.
 * Every write acknowledged before the fault was in the log and in a memtable, and is now in a
 * table file. The 32 MB is RocksDB's rule (the disk buffer it reserves at open, so that a
 * resumed database has room for a memtable's flush and does not refill the disk at once in a
 * storm of tiny flushes), kept as it is. Errors RocksDB knows to be passing (marked retryable by
 * the file system) are resumed the same way, every {@code bgerror_resume_retry_interval}; a
 * fatal error is never resumed in place: only reopening the database, a restart, clears it, and
 * its log then replays every acknowledged write.
 *
 * <p>RocksJava has no {@code DB::Resume()}, and needs none: recovery is RocksDB's own. What it
 * exposes are the events, through an EventListener: {@code onBackgroundError} when an error is
 * set, {@link #onErrorRecoveryCompleted} when it is cleared. Only the second is enabled here:
 * RocksJava maps the first's reason to an enum that stops at MEMTABLE, and throws (printing a
 * stack trace on standard error) for a failed MANIFEST write or a flush with an empty log.
 *
 * <h2>What Stator does</h2>
 *
 * <p>A write that fails with an I/O error or corruption throws {@link StorageFaultException} (out
 * of space, or a failed write): a fault of the storage, for the front end to answer with an
 * error clients retry. Other RocksDB errors stay {@link StorageException}s (bugs, not faults).
 * The first write that fails logs the fault, with its cause and what it takes to heal; the
 * recovery logs its end: two lines, however many writes fail meanwhile. The write path does no
 * work for any of this when nothing fails: only a commit's {@code catch} classifies, and RocksDB
 * calls the listener only when it recovers.
 */
final class WriteFaults extends AbstractEventListener {

    /**
     * RocksDB's own text for its SstFileManager's space cap ({@code Status::SpaceLimit}), which
     * RocksJava reports with an undefined sub-code: it is a full disk by another name.
     */
    private static final String SPACE_LIMIT = "Max allowed space was reached";

    private static final long SFM_POLL_SECONDS = 5; // SstFileManagerImpl::ClearError

    /**
     * How long after a recovery a write may still fail with the error recovered from: it was
     * refused before the recovery, and its caller only now sees it. Not a new fault.
     */
    private static final long STALE_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** A fault in progress, since {@code sinceNanos}. */
    private record Fault(long sinceNanos) {}

    /** The error RocksDB last recovered from, as {@link #line}, and when. */
    private record Recovery(String error, long atNanos) {}

    private final Path directory;
    private final long resumeFreeBytes;
    private final Consumer<String> log;
    private final AtomicReference<Fault> current = new AtomicReference<>();
    /** Set when the store closes: a recovery RocksDB ends by closing is no recovery. */
    private volatile boolean closing;
    /** The last recovery; null before any. */
    private volatile Recovery lastRecovery;

    /**
     * @param resumeFreeBytes the free space RocksDB waits for before resuming after a full disk
     *                        (its largest write buffer)
     * @param log             where the fault and its end are reported, one line each
     */
    WriteFaults(Path directory, long resumeFreeBytes, Consumer<String> log) {
        super(EnabledEventCallback.ON_ERROR_RECOVERY_COMPLETED);
        this.directory = directory;
        this.resumeFreeBytes = resumeFreeBytes;
        this.log = log;
    }

    /**
     * The exception for a write ({@code what}: "commit", "deleteRange", ...) that RocksDB failed:
     * a {@link StorageFaultException} for an I/O error or corruption, else a
     * {@link StorageException}. The first write a fault fails logs it.
     */
    RuntimeException writeFailed(String what, RocksDBException e) {
        Status status = e.getStatus();
        Status.Code code = status == null ? null : status.getCode();
        if (code != Status.Code.IOError && code != Status.Code.Corruption) {
            return StorageException.failure(what, e);
        }
        boolean outOfSpace = isOutOfSpace(status);
        if (current.get() == null && !isStale(status)) {
            Fault fault = new Fault(System.nanoTime());
            if (current.compareAndSet(null, fault)) {
                log.accept("stator: storage fault in " + directory + ": " + line(status) + ". " + consequence(outOfSpace));
            }
        }
        return new StorageFaultException(outOfSpace ? Kind.OUT_OF_SPACE : Kind.WRITE_FAILED,
                "RocksDB " + what + " failed: " + describe(e), e);
    }

    /**
     * The store opened its database read-only, its disk full at start ({@link ReadOnlyStart}): a
     * fault like any other, reported now, ended by {@link #reopened}.
     *
     * @param cause       why the read-write open failed
     * @param neededBytes the free space the store waits for before reopening read-write
     */
    void startedReadOnly(RocksDBException cause, long neededBytes) {
        current.set(new Fault(System.nanoTime()));
        log.accept("stator: storage fault in " + directory + ": cannot open it for writes: " + line(cause.getStatus())
                + ". Opened for reads only: writes are refused, reads go on. They resume by themselves, with every "
                + "acknowledged write kept, once at least " + megabytes(neededBytes) + " are free on its disk (" + free()
                + "; checked every " + ReadOnlyStart.POLL_SECONDS + " s).");
    }

    /** What a write to the database opened read-only throws: a fault, out of space. */
    StorageFaultException refusedReadOnly(String what) {
        return new StorageFaultException(Kind.OUT_OF_SPACE, "RocksDB " + what + " refused: " + directory
                + " was opened for reads only, its disk full at start", null);
    }

    /** The database opened read-only has been reopened read-write: writes are taken again. */
    void reopened() {
        Fault fault = current.getAndSet(null);
        long seconds = fault == null ? 0 : TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - fault.sinceNanos());
        log.accept("stator: storage reopened for writes after " + seconds + " s: writes resumed");
    }

    /** Whether the write failed with the error RocksDB has just recovered from. */
    private boolean isStale(Status status) {
        Recovery recovery = lastRecovery;
        return recovery != null && System.nanoTime() - recovery.atNanos() < STALE_FAILURE_NANOS
                && recovery.error().equals(line(status));
    }

    /** Whether a fault is in progress: writes are refused, and the log cannot be synced. */
    boolean refusingWrites() {
        return current.get() != null;
    }

    /** The store is closing: what RocksDB reports from now on is not logged. */
    void closing() {
        closing = true;
    }

    /**
     * RocksDB has cleared its background error: writes are taken again. (RocksDB also calls this
     * when it gives up resuming after an error it took to be passing, once
     * {@code max_bgerror_resume_count} attempts failed: INT_MAX by default, so never in practice.)
     */
    @Override
    public void onErrorRecoveryCompleted(Status oldBackgroundError) {
        if (closing) {
            return; // RocksDB ends a recovery in progress when it closes; that is no recovery
        }
        lastRecovery = new Recovery(line(oldBackgroundError), System.nanoTime());
        Fault fault = current.getAndSet(null);
        if (fault != null) {
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - fault.sinceNanos());
            log.accept("stator: storage recovered after " + seconds + " s: writes resumed");
        }
    }

    private String consequence(boolean outOfSpace) {
        if (outOfSpace) {
            return "Writes are refused, reads go on. They resume by themselves, with every acknowledged write kept, "
                    + "once at least " + megabytes(resumeFreeBytes) + " are free on its disk (" + free()
                    + "; RocksDB checks every " + SFM_POLL_SECONDS + " s).";
        }
        return "Writes are refused, reads go on. RocksDB resumes them by itself only after errors it knows to pass; "
                + "if no line saying writes resumed follows, fix the cause and restart the server (acknowledged "
                + "writes are in the write-ahead log).";
    }

    private String free() {
        try {
            return megabytes(Files.getFileStore(directory).getUsableSpace()) + " free now";
        } catch (IOException | RuntimeException e) {
            return "free space unknown";
        }
    }

    private static String megabytes(long bytes) {
        return (bytes >> 20) + " MB";
    }

    static boolean isOutOfSpace(Status status) {
        if (status == null) {
            return false;
        }
        if (status.getSubCode() == Status.SubCode.NoSpace) {
            return true;
        }
        String state = status.getState();
        return status.getCode() == Status.Code.IOError && state != null && state.contains(SPACE_LIMIT);
    }

    /** RocksDB's status as one line, e.g. "IOError(NoSpace): While appending to file: ...". */
    private static String line(Status status) {
        if (status == null) {
            return "unknown error";
        }
        String state = status.getState() == null ? "" : status.getState();
        return status.getCodeString() + ": " + state;
    }
}
