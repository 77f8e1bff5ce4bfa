package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.Utf8;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TransactWriteItems' ClientRequestToken: for ten minutes after a transaction with a token
 * commits, the same token with the same request succeeds again without applying anything, and
 * with another request fails (IdempotentParameterMismatchException); while the first is still
 * running, a retry fails with TransactionInProgressException. A committed token is stored in
 * the transaction's own batch, so a retry after a crash is still recognised.
 *
 * <p>Stored value, under the token's UTF-8 bytes: the commit time (epoch milliseconds, 8 bytes),
 * the fingerprint's length (4 bytes) and bytes, the number of actions (4 bytes), then per action
 * the item size its replay is billed on (8 bytes each; see {@link #record}).
 */
public final class TransactionTokens {

    /** DynamoDB's idempotency window (API reference, ClientRequestToken). */
    static final Duration WINDOW = Duration.ofMinutes(10);

    /** How often, in committed tokens, expired ones are swept from storage. */
    private static final int SWEEP_EVERY = 4096;

    private final Storage storage;
    private final Clock clock;
    private final ConcurrentHashMap<String, byte[]> running = new ConcurrentHashMap<>();
    private final AtomicInteger sinceSweep = new AtomicInteger();

    public TransactionTokens(Storage storage, Clock clock) {
        this.storage = storage;
        this.clock = clock;
    }

    /**
     * Marks the token as running and says whether its request is new or a replay of a
     * committed one. Once it has returned, call {@link #finish} afterwards in every case; when it
     * throws (the token is running, or was used by another request), the token is not this
     * caller's to finish.
     *
     * @param fingerprint a digest of the whole request
     * @return null for a new request; for a replay, per action, the item size it is billed on
     */
    long[] begin(String token, byte[] fingerprint) {
        byte[] other = running.putIfAbsent(token, fingerprint);
        if (other != null) {
            if (Arrays.equals(other, fingerprint)) {
                // The text DynamoDB sends (a live SDK log, aws/aws-sdk-java-v2#2518).
                throw new DynamoDbException(ErrorType.TRANSACTION_IN_PROGRESS,
                        "Transaction from previous request is still in progress");
            }
            throw mismatch();
        }
        try {
            byte[] stored = storage.get(Keyspaces.TRANSACTION_TOKENS, key(token));
            if (stored == null || expired(stored)) return null;
            ByteBuffer record = ByteBuffer.wrap(stored, Long.BYTES, stored.length - Long.BYTES);
            byte[] committedFingerprint = new byte[record.getInt()];
            record.get(committedFingerprint);
            if (!Arrays.equals(committedFingerprint, fingerprint)) throw mismatch();
            long[] sizes = new long[record.getInt()];
            for (int i = 0; i < sizes.length; i++) sizes[i] = record.getLong();
            return sizes;
        } catch (RuntimeException e) {
            running.remove(token);
            throw e;
        }
    }

    /**
     * Adds the token's record to the transaction's batch. A replay is billed as reading each
     * action's item as the transaction found or left it, the larger (DynamoDB measured by
     * dynoxide, 2026: a replayed delete of a 9 KB item costs 6 read units though the item is
     * gone), so that size is kept with the token.
     */
    void record(WriteBatch batch, String token, byte[] fingerprint, long[] billedSizes) {
        ByteBuffer value = ByteBuffer.allocate(Long.BYTES + Integer.BYTES + fingerprint.length + Integer.BYTES
                + Long.BYTES * billedSizes.length);
        value.putLong(clock.millis()).putInt(fingerprint.length).put(fingerprint).putInt(billedSizes.length);
        for (long size : billedSizes) value.putLong(size);
        batch.put(Keyspaces.TRANSACTION_TOKENS, key(token), value.array());
    }

    void finish(String token, boolean committed) {
        running.remove(token);
        if (committed && sinceSweep.incrementAndGet() % SWEEP_EVERY == 0) sweep();
    }

    /** Deletes the records of tokens whose window has passed. */
    void sweep() {
        try (Snapshot snapshot = storage.snapshot();
             Cursor cursor = storage.range(snapshot, Keyspaces.TRANSACTION_TOKENS, new byte[0], new byte[] {(byte) 0xFF},
                     false);
             WriteBatch batch = storage.newBatch()) {
            boolean any = false;
            while (cursor.next()) {
                if (expired(cursor.value())) {
                    batch.delete(Keyspaces.TRANSACTION_TOKENS, cursor.key());
                    any = true;
                }
            }
            if (any) storage.commit(batch);
        }
    }

    private boolean expired(byte[] stored) {
        long committedAt = ByteBuffer.wrap(stored).getLong();
        return clock.millis() - committedAt > WINDOW.toMillis();
    }

    private static byte[] key(String token) {
        return Utf8.encode(token);
    }

    /**
     * DynamoDB's message for this error is not recorded anywhere we could find (DynamoDB Local
     * sends none); this is the API reference's description of the exception.
     */
    private static DynamoDbException mismatch() {
        return new DynamoDbException(ErrorType.IDEMPOTENT_PARAMETER_MISMATCH, "DynamoDB rejected the request because "
                + "you retried a request with a different payload but with an idempotent token that was already used.");
    }
}
