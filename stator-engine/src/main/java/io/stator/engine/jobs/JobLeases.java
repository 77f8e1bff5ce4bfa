package io.stator.engine.jobs;

import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CommitLostException;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which server runs a job, when several share the store: a lease per job, a row of the BACKUPS
 * key space taken and renewed by compare-and-set ({@link WriteBatch#expect}), with an expiry.
 *
 * <p>The server that starts a job takes its lease when its row is absent, expired, or its own; a
 * server that finds the job in a sweep ({@link #adopt}) takes it only when it is expired, or absent
 * for a whole lease by this server's watch: the job's own server takes the lease an instant after
 * it writes the job's record, and a sweep in between must not take the job from it (it did, and
 * the job ran on the server that had not started it). A server renews a lease while
 * it runs the job (every third of the lease, from the job's own checks between items, {@link
 * JobRunner#closed}), and drops it when the job ends. A server that dies stops renewing: once the
 * lease expires, the next server to sweep its jobs ({@code Deployment.Upkeep#resumeJobs}) takes it
 * and runs the job again from its stored record, as a restart does on one server. A server whose
 * renewal fails (lost to another, or the store unreachable past the lease) stops the job at its
 * next check, so that two servers run it at once at most for the time between two checks, and
 * each job is written to be run again from the start (its writes are idempotent).
 *
 * <p>The expiry is wall-clock time, since it is about real servers dying (as the shared
 * storage's stale transactions are): servers' clocks are assumed within a few seconds of each
 * other, much less than the lease.
 *
 * <p>Row: {@code 'L' + job (UTF-8)} -> {@code [owner: 16 bytes][expiry: epoch ms, 8 bytes]}.
 */
public final class JobLeases {

    private static final byte LEASE_ROW = 'L';
    /** Tries to take a free lease, each after a compare-and-set lost with the lease still free. */
    private static final int HOLD_ATTEMPTS = 5;

    private final Storage storage;
    private final long leaseMillis;
    private final byte[] owner;
    /** Jobs a sweep found without a lease, and since when (epoch ms): adopted a lease later. */
    private final Map<String, Long> unleasedSince = new ConcurrentHashMap<>();

    /** @param leaseMillis how long a lease lasts without renewal */
    public JobLeases(Storage storage, long leaseMillis) {
        this.storage = storage;
        this.leaseMillis = leaseMillis;
        UUID id = UUID.randomUUID();
        this.owner = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
                .array();
    }

    /** How long a lease lasts without renewal. */
    public long leaseMillis() {
        return leaseMillis;
    }

    /** Takes or renews the job's lease; false when another server holds it. */
    public boolean hold(String job) {
        return hold(job, false);
    }

    /**
     * Takes the lease of a job a sweep found (another server may have started it a moment ago):
     * false while another server holds it, or while it has had no lease for less than a lease.
     */
    public boolean adopt(String job) {
        return hold(job, true);
    }

    private boolean hold(String job, boolean adopting) {
        byte[] key = key(job);
        // A lost compare-and-set is read again: another server took the lease (false), or the
        // commit lost to something else with the lease still free (on Cassandra, a timeout under
        // contention on the row's partition, decided as not applied), which must not leave the job
        // unrun until the next sweep.
        for (int attempt = 0; attempt < HOLD_ATTEMPTS; attempt++) {
            byte[] current = storage.get(Keyspaces.BACKUPS, key);
            long now = System.currentTimeMillis();
            if (current != null && !mine(current) && ByteBuffer.wrap(current, 16, 8).getLong() > now) {
                unleasedSince.remove(job);
                return false;
            }
            if (adopting && current == null && now - unleasedSince.computeIfAbsent(job, j -> now) < leaseMillis) {
                return false;
            }
            unleasedSince.remove(job);
            if (write(key, current, ByteBuffer.allocate(24).put(owner).putLong(now + leaseMillis).array())) return true;
        }
        return false;
    }

    /** Drops the job's lease if this server holds it (the job ended, or stopped to be resumed). */
    public void release(String job) {
        byte[] key = key(job);
        byte[] current = storage.get(Keyspaces.BACKUPS, key);
        if (current != null && mine(current)) write(key, current, null);
    }

    private boolean write(byte[] key, byte[] expected, byte[] value) {
        try (WriteBatch batch = storage.newBatch()) {
            batch.expect(Keyspaces.BACKUPS, key, expected);
            if (value == null) batch.delete(Keyspaces.BACKUPS, key);
            else batch.put(Keyspaces.BACKUPS, key, value);
            storage.commit(batch);
            return true;
        } catch (CommitLostException e) {
            return false; // another server took or renewed it meanwhile
        }
    }

    private boolean mine(byte[] lease) {
        return Arrays.equals(lease, 0, 16, owner, 0, 16);
    }

    private static byte[] key(String job) {
        byte[] name = job.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[1 + name.length];
        key[0] = LEASE_ROW;
        System.arraycopy(name, 0, key, 1, name.length);
        return key;
    }
}
