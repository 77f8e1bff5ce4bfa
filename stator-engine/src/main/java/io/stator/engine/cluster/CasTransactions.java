package io.stator.engine.cluster;

import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStore.Change;
import io.stator.storage.CollectionStore.Consistency;
import io.stator.storage.CollectionStore.Expected;
import io.stator.storage.Cursor;
import io.stator.storage.RowHeldException;
import io.stator.storage.RowKeyFraming;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Multi-item transactions on a {@link CollectionStore} that commits one item collection at a
 * time (Cassandra), by the protocol of docs/storage-contract.md: a transaction record, intents
 * claimed item by item in canonical order, one compare-and-set of the record that decides, then
 * the intents applied. Serializable and all or nothing, and correct when whoever runs a
 * transaction dies at any step: whoever meets its intents later finishes it (rolls it forward
 * once decided, aborts it once stale). {@link SharedStorage} builds the
 * storage contract on it for backends that several servers share (Cassandra); RocksDB commits a
 * transaction in one atomic batch instead.
 *
 * <p><b>Rows</b> hold an envelope ({@link Envelope}): the committed value, a version (so that a
 * value changed and changed back is not mistaken for unchanged), and an intent when a transaction
 * holds the row. <b>Transaction records</b> are rows of the reserved table {@link #RECORDS}.
 */
public final class CasTransactions {

    /** The table id under which transaction records are kept (no catalog table gets it). */
    public static final long RECORDS = Long.MAX_VALUE - 1;

    /** One write of a transaction: the row, and its new value as a function of the committed one. */
    public interface Action {
        byte[] rowKey();

        /**
         * The new value (null deletes the row) from the committed one (null when absent);
         * throws to refuse the transaction (a failed condition).
         */
        byte[] apply(byte[] committed);
    }

    /** Another transaction holds an item and is alive: the caller cancels (TransactionConflict). */
    public static final class ConflictException extends RuntimeException {
        private final int position;

        ConflictException(int position) {
            super("Transaction is ongoing for the item", null, false, false);
            this.position = position;
        }

        public int position() { return position; }
    }

    /** An action refused its row (its {@link Action#apply} threw): nothing of the transaction applied. */
    public static final class RefusedException extends RuntimeException {
        private final int position;

        RefusedException(int position, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.position = position;
        }

        public int position() { return position; }
    }

    /** Where a transaction can be stopped in tests, to play a server dying there. */
    enum Step { RECORDED, CLAIMED, DECIDED, APPLIED_ONE }

    /** Called at each step; a test's hook may throw to stop the transaction there. */
    interface Steps {
        void reached(Step step);

        Steps NONE = step -> { };
    }

    private enum State { PENDING, COMMITTED, ABORTED }

    private final CollectionStore store;
    private final Clock clock;
    private final long staleAfterMillis;
    private final Steps steps;

    /**
     * @param staleAfterMillis how long a transaction may stay undecided before whoever meets it
     *                         may abort it (longer than any transaction runs)
     */
    public CasTransactions(CollectionStore store, Clock clock, long staleAfterMillis) {
        this(store, clock, staleAfterMillis, Steps.NONE);
    }

    CasTransactions(CollectionStore store, Clock clock, long staleAfterMillis, Steps steps) {
        this.store = store;
        this.clock = clock;
        this.staleAfterMillis = staleAfterMillis;
        this.steps = steps;
        store.createTable(RECORDS);
    }

    // ---- the envelope -------------------------------------------------------------------------

    /**
     * A row's stored value: {@code [version 8][committed length 4, -1 absent][committed]
     * [intent: transaction id 16, all zero for none][intent length 4, -1 deletes][intent value]}.
     */
    record Envelope(long version, byte[] committed, UUID intent, byte[] intentValue) {

        static final UUID NONE = new UUID(0, 0);

        static Envelope decode(byte[] stored) {
            if (stored == null) return new Envelope(0, null, null, null);
            ByteBuffer b = ByteBuffer.wrap(stored);
            long version = b.getLong();
            byte[] committed = bytes(b);
            UUID intent = new UUID(b.getLong(), b.getLong());
            byte[] intentValue = bytes(b);
            return new Envelope(version, committed, intent.equals(NONE) ? null : intent, intentValue);
        }

        /** Null for a row that holds nothing (absent and unclaimed): deleted. */
        byte[] encode() {
            if (committed == null && intent == null) return null;
            int size = 8 + 4 + length(committed) + 16 + 4 + length(intentValue);
            ByteBuffer b = ByteBuffer.allocate(size).putLong(version);
            put(b, committed);
            UUID id = intent == null ? NONE : intent;
            b.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
            put(b, intentValue);
            return b.array();
        }

        private static int length(byte[] v) { return v == null ? 0 : v.length; }

        private static void put(ByteBuffer b, byte[] v) {
            b.putInt(v == null ? -1 : v.length);
            if (v != null) b.put(v);
        }

        private static byte[] bytes(ByteBuffer b) {
            int n = b.getInt();
            if (n < 0) return null;
            byte[] v = new byte[n];
            b.get(v);
            return v;
        }
    }

    // ---- transaction records ------------------------------------------------------------------

    private record TxRecord(State state, long startedMillis, List<byte[]> rowKeys) {
        byte[] encode() {
            int size = 1 + 8 + 4;
            for (byte[] k : rowKeys) size += 4 + k.length;
            ByteBuffer b = ByteBuffer.allocate(size).put((byte) state.ordinal()).putLong(startedMillis).putInt(rowKeys.size());
            for (byte[] k : rowKeys) b.putInt(k.length).put(k);
            return b.array();
        }

        static TxRecord decode(byte[] stored) {
            if (stored == null) return null;
            ByteBuffer b = ByteBuffer.wrap(stored);
            State state = State.values()[b.get()];
            long started = b.getLong();
            int n = b.getInt();
            List<byte[]> keys = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] k = new byte[b.getInt()];
                b.get(k);
                keys.add(k);
            }
            return new TxRecord(state, started, keys);
        }

        TxRecord in(State s) {
            return new TxRecord(s, startedMillis, rowKeys);
        }
    }

    private static byte[] recordKey(UUID tx) {
        byte[] id = ByteBuffer.allocate(16).putLong(tx.getMostSignificantBits()).putLong(tx.getLeastSignificantBits()).array();
        return RowKeyFraming.rowKey(RECORDS, 0, tx.getMostSignificantBits() ^ tx.getLeastSignificantBits(), id, new byte[0]);
    }

    private boolean cas(byte[] key, byte[] expected, byte[] value) {
        return store.commit(List.of(new Expected(key, expected)), List.of(new Change(key, value)));
    }

    // ---- writes -------------------------------------------------------------------------------

    /**
     * Applies every action or none.
     *
     * @throws ConflictException when a live transaction holds one of the items
     * @throws RefusedException  when an action refuses its row
     */
    public void write(List<Action> actions) {
        List<Action> ordered = new ArrayList<>(actions);
        ordered.sort(Comparator.comparing(Action::rowKey, Arrays::compareUnsigned));
        UUID tx = UUID.randomUUID();
        byte[] recordKey = recordKey(tx);
        List<byte[]> keys = new ArrayList<>(ordered.size());
        for (Action a : ordered) keys.add(a.rowKey());
        TxRecord pending = new TxRecord(State.PENDING, clock.millis(), keys);
        if (!cas(recordKey, null, pending.encode())) throw new IllegalStateException("transaction id taken: " + tx);
        steps.reached(Step.RECORDED);

        // Claims, in canonical order: each row's intent is the action's new value.
        List<byte[]> claimed = new ArrayList<>(ordered.size());
        try {
            for (Action a : ordered) {
                int position = actions.indexOf(a);
                while (true) {
                    // COMMITTED: the claim compares and sets on this envelope; a stale one fails
                    // it, and the Paxos round that failed settles what was in flight for the
                    // next read. The transaction's own claim, applied after a timeout, was
                    // decided by commit's SERIAL read of its marker, so a quorum holds it.
                    byte[] stored = store.get(a.rowKey(), Consistency.COMMITTED);
                    Envelope e = Envelope.decode(stored);
                    if (tx.equals(e.intent())) {
                        // This transaction's own claim: a compare-and-set the backend could not
                        // confirm at once (a Cassandra timeout) and that applied after all.
                        claimed.add(stored);
                        break;
                    }
                    if (e.intent() != null) {
                        if (!resolve(a.rowKey(), stored, e)) throw new ConflictException(position);
                        continue; // resolved: read again
                    }
                    byte[] next;
                    try {
                        next = a.apply(e.committed());
                    } catch (RuntimeException refused) {
                        throw new RefusedException(position, refused);
                    }
                    Envelope claim = new Envelope(e.version(), e.committed(), tx, next);
                    if (cas(a.rowKey(), stored, claim.encode())) {
                        claimed.add(claim.encode());
                        break;
                    }
                }
            }
        } catch (RuntimeException e) {
            abort(recordKey, pending, ordered, claimed);
            throw e;
        }
        steps.reached(Step.CLAIMED);

        // The decision: one compare-and-set, which an aborter of a stale record may have won.
        if (!cas(recordKey, pending.encode(), pending.in(State.COMMITTED).encode())) {
            rollBack(ordered, claimed);
            throw new ConflictException(actions.indexOf(ordered.get(0)));
        }
        steps.reached(Step.DECIDED);
        for (int i = 0; i < ordered.size(); i++) {
            applyIntent(ordered.get(i).rowKey(), claimed.get(i));
            steps.reached(Step.APPLIED_ONE);
        }
        store.commit(List.of(new Expected(recordKey, pending.in(State.COMMITTED).encode())),
                List.of(new Change(recordKey, null)));
    }

    /** Before the decision: the record aborted, the claims made so far taken back. */
    private void abort(byte[] recordKey, TxRecord pending, List<Action> ordered, List<byte[]> claimed) {
        if (cas(recordKey, pending.encode(), pending.in(State.ABORTED).encode())) {
            rollBack(ordered, claimed);
            store.commit(List.of(new Expected(recordKey, pending.in(State.ABORTED).encode())),
                    List.of(new Change(recordKey, null)));
        }
    }

    private void rollBack(List<Action> ordered, List<byte[]> claimed) {
        for (int i = 0; i < claimed.size(); i++) settle(ordered.get(i).rowKey(), claimed.get(i), false);
    }

    /** A decided intent made the row's committed value (a no-op if someone did it already). */
    private void applyIntent(byte[] rowKey, byte[] stored) {
        settle(rowKey, stored, true);
    }

    /**
     * Takes the intent the row holds off it, applied or rolled back, and returns once the row no
     * longer holds it: a compare-and-set that fails (a Cassandra timeout decided as not applied,
     * say) is tried again, since the transaction's record may only go once none of its intents
     * is left (a reader takes an intent without a record for an aborted one).
     */
    private void settle(byte[] rowKey, byte[] stored, boolean apply) {
        UUID tx = Envelope.decode(stored).intent();
        byte[] current = stored;
        while (true) {
            Envelope e = Envelope.decode(current);
            if (tx == null || !tx.equals(e.intent())) return; // settled already, by us or a reader
            Envelope settled = apply ? new Envelope(e.version() + 1, e.intentValue(), null, null)
                    : new Envelope(e.version(), e.committed(), null, null);
            if (cas(rowKey, current, settled.encode())) return;
            current = store.get(rowKey, Consistency.COMMITTED); // compared and set on, as in commit
        }
    }

    /**
     * A single-item write outside transactions: the new value from the committed one,
     * compare-and-set until it holds. A row held by a live transaction fails at once, as
     * DynamoDB's writes do.
     *
     * @return the committed value it replaced
     */
    public byte[] writeOne(byte[] rowKey, UnaryOperator<byte[]> change) {
        while (true) {
            byte[] stored = store.get(rowKey, Consistency.STRONG);
            Envelope e = Envelope.decode(stored);
            if (e.intent() != null) {
                if (!resolve(rowKey, stored, e)) throw new ConflictException(0);
                continue;
            }
            byte[] next = change.apply(e.committed());
            if (cas(rowKey, stored, new Envelope(e.version() + 1, next, null, null).encode())) return e.committed();
        }
    }

    /**
     * A commit of rows of one collection outside transactions (an item and its local-index
     * entries): applies every change, each row's version moved on, if every expected row's
     * committed value is the one given (null: absent) and nothing changed any row meanwhile.
     * Rows held by decided or stale transactions are settled first.
     *
     * @return false, applying nothing, when an expected row holds another value or a row changed
     *         while the commit ran
     * @throws RowHeldException when a live transaction holds one of the rows
     */
    public boolean commit(List<Expected> expected, List<Change> changes) {
        return commit(expected, changes, null);
    }

    /** A row's stored envelope as someone read it (null: absent). */
    record Read(byte[] rowKey, byte[] stored) {}

    /**
     * As {@link #commit(List, List)}, with one row's envelope read already (or null): the
     * commit compares and sets on it instead of reading the row again. A stale one fails the
     * compare-and-set, as a stale read would.
     */
    boolean commit(List<Expected> expected, List<Change> changes, Read known) {
        List<byte[]> keys = new ArrayList<>(expected.size() + changes.size());
        for (Expected x : expected) keys.add(x.rowKey());
        for (Change c : changes) if (indexOf(keys, c.rowKey()) < 0) keys.add(c.rowKey());
        List<byte[]> stored = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            // COMMITTED (QUORUM) rather than STRONG (SERIAL): the envelopes read are what the
            // commit compares and sets, so a stale one only fails it (the caller reads again).
            byte[] s = i < expected.size() && known != null && Arrays.equals(known.rowKey(), keys.get(i))
                    && Arrays.equals(committedOf(known.stored()), expected.get(i).value()) ? known.stored()
                    : store.get(keys.get(i), Consistency.COMMITTED);
            Envelope e = Envelope.decode(s);
            if (e.intent() != null) {
                if (!resolve(keys.get(i), s, e)) throw new RowHeldException(keys.get(i));
                return false; // settled: the caller reads again
            }
            stored.add(s);
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!Arrays.equals(Envelope.decode(stored.get(i)).committed(), expected.get(i).value())) return false;
        }
        List<Expected> raw = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) raw.add(new Expected(keys.get(i), stored.get(i)));
        List<Change> next = new ArrayList<>(changes.size());
        for (Change c : changes) {
            Envelope e = Envelope.decode(stored.get(indexOf(keys, c.rowKey())));
            next.add(new Change(c.rowKey(), new Envelope(e.version() + 1, c.value(), null, null).encode()));
        }
        return store.commit(raw, next);
    }

    private static int indexOf(List<byte[]> keys, byte[] key) {
        for (int i = 0; i < keys.size(); i++) if (Arrays.equals(keys.get(i), key)) return i;
        return -1;
    }

    /**
     * The envelope a plain write stores (write isolation only_rmw_uses_lwt): the value committed,
     * no intent, and a random version, since the writer read no version to move on, and the next
     * compare-and-set on the row must not take it for an envelope it read before (the same value
     * written again would otherwise look unchanged). Null deletes the row. A plain write over a
     * row that a transaction holds replaces its intent: the transaction, once decided, finds the
     * row settled and leaves it, as if the plain write came after it.
     */
    static byte[] plainEnvelope(byte[] value) {
        return new Envelope(java.util.concurrent.ThreadLocalRandom.current().nextLong(), value, null, null).encode();
    }

    /** The committed value a stored envelope holds (null when absent), intents aside. */
    public static byte[] committedOf(byte[] stored) {
        return Envelope.decode(stored).committed();
    }

    /** True when a stored envelope carries a transaction's intent (a strong reader settles it by {@link #read}). */
    public static boolean claimed(byte[] stored) {
        return stored != null && Envelope.decode(stored).intent() != null;
    }

    /**
     * Settles the transaction whose intent a row holds, if it can: rolled forward once committed,
     * rolled back once aborted or stale. Returns false when the transaction is alive and
     * undecided (the caller conflicts).
     */
    private boolean resolve(byte[] rowKey, byte[] stored, Envelope e) {
        byte[] recordKey = recordKey(e.intent());
        byte[] storedRecord = store.get(recordKey, Consistency.STRONG);
        TxRecord record = TxRecord.decode(storedRecord);
        if (record == null || record.state() == State.ABORTED) {
            // Aborted (or finished and forgotten, in which case this intent was applied or taken
            // back already and the compare-and-set below fails harmlessly).
            cas(rowKey, stored, new Envelope(e.version(), e.committed(), null, null).encode());
            return true;
        }
        if (record.state() == State.COMMITTED) {
            applyIntent(rowKey, stored);
            return true;
        }
        if (clock.millis() - record.startedMillis() < staleAfterMillis) return false;
        // Stale and undecided: abort it, unless its owner decides first (one of the two wins).
        if (cas(recordKey, storedRecord, record.in(State.ABORTED).encode())) {
            cas(rowKey, stored, new Envelope(e.version(), e.committed(), null, null).encode());
            return true;
        }
        return true; // decided meanwhile: read again and settle by its decision
    }

    // ---- reads --------------------------------------------------------------------------------

    /** The row's committed value as a strong read sees it: a committed transaction's intent counts. */
    public byte[] read(byte[] rowKey) {
        byte[] stored = store.get(rowKey, Consistency.STRONG);
        Envelope e = Envelope.decode(stored);
        if (e.intent() == null) return e.committed();
        TxRecord record = TxRecord.decode(store.get(recordKey(e.intent()), Consistency.STRONG));
        return record != null && record.state() == State.COMMITTED ? e.intentValue() : e.committed();
    }

    /**
     * The rows as of one moment (TransactGetItems): read twice, the second time finding every row
     * as the first did (versions and intents included), so that nothing changed in between: the
     * moment between the two reads. A row held by an undecided transaction makes the caller
     * conflict; one held by a decided one is settled first.
     *
     * @throws ConflictException naming the position of a row an undecided transaction holds, or
     *         when writes keep changing the rows
     */
    public List<byte[]> readAll(List<byte[]> rowKeys) {
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            // Each pass reads every row at once (CollectionStore.getAll), so that the moment
            // between the passes is short even for a hundred rows.
            List<byte[]> first = store.getAll(rowKeys, Consistency.STRONG);
            boolean settled = false;
            for (int i = 0; i < rowKeys.size(); i++) {
                Envelope e = Envelope.decode(first.get(i));
                if (e.intent() != null) {
                    if (!resolve(rowKeys.get(i), first.get(i), e)) throw new ConflictException(i);
                    settled = true;
                    break;
                }
            }
            if (settled) continue;
            List<byte[]> second = store.getAll(rowKeys, Consistency.STRONG);
            boolean same = true;
            for (int i = 0; i < rowKeys.size() && same; i++) same = Arrays.equals(first.get(i), second.get(i));
            if (!same) continue;
            List<byte[]> values = new ArrayList<>(rowKeys.size());
            for (byte[] stored : first) values.add(Envelope.decode(stored).committed());
            return values;
        }
        // Writes kept changing the rows between the two reads: cancelled as a conflict, as
        // DynamoDB cancels a TransactGetItems that meets writes in flight.
        throw new ConflictException(0);
    }

    /** How many times readAll reads the rows twice before it gives up. */
    private static final int READ_ATTEMPTS = 32;

    /**
     * Finishes every transaction record older than the stale time: rolls its intents forward
     * if it committed, back otherwise, and forgets it. Every server runs this now and then, so
     * that intents on rows nobody reads are settled too. Returns how many it finished.
     */
    public int recover() {
        List<byte[][]> stale = new ArrayList<>();
        try (Cursor c = store.scan(RECORDS, 0, 0, 0, null, Consistency.STRONG)) {
            while (c.next()) {
                TxRecord r = TxRecord.decode(c.value());
                if (clock.millis() - r.startedMillis() >= staleAfterMillis) stale.add(new byte[][] {c.key(), c.value()});
            }
        }
        int finished = 0;
        for (byte[][] kv : stale) {
            TxRecord r = TxRecord.decode(kv[1]);
            byte[] storedRecord = kv[1];
            if (r.state() == State.PENDING) {
                TxRecord aborted = r.in(State.ABORTED);
                if (!cas(kv[0], storedRecord, aborted.encode())) continue; // decided meanwhile: next time
                r = aborted;
                storedRecord = aborted.encode();
            }
            UUID tx = txOf(kv[0]);
            for (byte[] rowKey : r.rowKeys()) {
                byte[] stored = store.get(rowKey, Consistency.STRONG);
                Envelope e = Envelope.decode(stored);
                if (!tx.equals(e.intent())) continue;
                if (r.state() == State.COMMITTED) applyIntent(rowKey, stored);
                else cas(rowKey, stored, new Envelope(e.version(), e.committed(), null, null).encode());
            }
            if (store.commit(List.of(new Expected(kv[0], storedRecord)), List.of(new Change(kv[0], null)))) finished++;
        }
        return finished;
    }

    private static UUID txOf(byte[] recordKey) {
        ByteBuffer b = ByteBuffer.wrap(RowKeyFraming.partitionKey(recordKey));
        return new UUID(b.getLong(), b.getLong());
    }
}
