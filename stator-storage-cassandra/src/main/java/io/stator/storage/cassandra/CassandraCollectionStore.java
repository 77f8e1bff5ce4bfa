package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import io.stator.storage.CollectionStore;
import io.stator.storage.Cursor;
import io.stator.storage.RowKeyFraming;
import io.stator.storage.StorageFaultException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CollectionStore} contract on an Apache Cassandra (or ScyllaDB) cluster, shared by
 * any number of Stator servers (docs/storage-contract.md).
 *
 * <p><b>Schema.</b> One CQL table per Stator table, {@code t_<table id>}:
 * {@code (pk blob, kind int, ck blob, hash bigint, value blob, PRIMARY KEY ((pk), kind, ck))}.
 * The Cassandra partition is the row key's partition key, so an item collection (its items,
 * kind 0, and its local-index entries, kind = index id) is one partition, which a lightweight
 * transaction changes atomically and in isolation; global-index entries (their own partition
 * keys) land in other partitions of the same table. {@code hash} is kept to give rows back with
 * their whole keys. A table per table makes a Scan a token-range scan of that table alone and
 * DeleteTable a DROP TABLE.
 *
 * <p><b>Commits</b> are one conditional batch on the partition ({@code IF value = ?} on each
 * expected row; {@code IF value = null} holds for an absent row), written with serial
 * consistency SERIAL and commit consistency QUORUM. The batch also inserts a marker row (kind -1,
 * clustering the commit's id, kept for an hour) so that a commit whose outcome a timeout hid is
 * decided by reading the marker back at SERIAL, which also completes any Paxos round in flight.
 *
 * <p><b>Reads.</b> Strong: SERIAL for one partition, QUORUM for a scan (Cassandra serves no
 * SERIAL range scan; a scan sees every commit that returned before it started, since commits are
 * written at QUORUM). Committed: QUORUM. Eventual: ONE. <b>Scan order</b> is token order; a hash-space position h
 * (unsigned) is token {@code h ^ Long.MIN_VALUE}, so segments of the hash space are token ranges.
 */
public final class CassandraCollectionStore implements CollectionStore {

    /** The marker rows' kind: the contract's kind for a backend's own rows, below every index id. */
    static final int MARKER_KIND = RowKeyFraming.BACKEND_KIND;
    private static final int MARKER_SECONDS = 3600;

    private final CqlSession session;
    private final String keyspace;
    private final Map<Long, Statements> tables = new ConcurrentHashMap<>();

    /** A store in {@code keyspace}, which must exist ({@link #createKeyspace}). */
    public CassandraCollectionStore(CqlSession session, String keyspace) {
        this.session = session;
        this.keyspace = keyspace;
    }

    /** Creates the keyspace when it does not exist: SimpleStrategy (one data centre), {@code replication} copies. */
    public static void createKeyspace(CqlSession session, String keyspace, int replication) {
        session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + keyspace
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + replication + "}")
                .setTimeout(Duration.ofSeconds(60)));
        // Another server creating it a moment before: this statement changed nothing, so the driver
        // did not wait for the nodes to agree on the schema, and a node yet to hear of the keyspace
        // refused the next statement ("Keyspace ... doesn't exist"; two servers started at once).
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!session.checkSchemaAgreement() && System.nanoTime() < end) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The prepared statements of one table. */
    private record Statements(PreparedStatement get, PreparedStatement rangeAsc, PreparedStatement rangeDesc,
                              PreparedStatement rangeOpenAsc, PreparedStatement rangeOpenDesc,
                              PreparedStatement scanFirst, PreparedStatement scanFrom, PreparedStatement scanRest,
                              PreparedStatement put, PreparedStatement putIf, PreparedStatement delete,
                              PreparedStatement deleteIf, PreparedStatement expectAbsent,
                              PreparedStatement expectPresent, PreparedStatement marker,
                              PreparedStatement readMarker) {}

    private String table(long tableId) {
        return keyspace + ".t_" + tableId;
    }

    @Override
    public void createTable(long tableId) {
        // Cassandra 5.0 does not order schema changes: two servers creating one table at once
        // could each make it under an id of its own, and rows written under the losing id
        // vanish. Every server names the table's id the same way, so that they agree.
        UUID id = UUID.nameUUIDFromBytes(table(tableId).getBytes(StandardCharsets.UTF_8));
        session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + table(tableId)
                + " (pk blob, kind int, ck blob, hash bigint, value blob, PRIMARY KEY ((pk), kind, ck)) WITH id = " + id)
                .setTimeout(Duration.ofSeconds(60)));
    }

    @Override
    public void dropTable(long tableId) {
        tables.remove(tableId);
        session.execute(SimpleStatement.newInstance("DROP TABLE IF EXISTS " + table(tableId))
                .setTimeout(Duration.ofSeconds(60)));
    }

    /** The table's prepared statements, or null when it does not exist. */
    private Statements statements(long tableId) {
        Statements s = tables.get(tableId);
        if (s != null) return s;
        try {
            s = prepare(tableId);
        } catch (InvalidQueryException e) {
            if (missingTable(e)) return null;
            throw e;
        }
        Statements raced = tables.putIfAbsent(tableId, s);
        return raced != null ? raced : s;
    }

    private Statements prepare(long tableId) {
        Statements s;
        String t = table(tableId);
        String columns = "SELECT pk, kind, ck, hash, value FROM " + t;
        s = new Statements(
                session.prepare("SELECT value FROM " + t + " WHERE pk = ? AND kind = ? AND ck = ?"),
                session.prepare(columns + " WHERE pk = ? AND kind = ? AND ck >= ? AND ck < ?"),
                session.prepare(columns + " WHERE pk = ? AND kind = ? AND ck >= ? AND ck < ? ORDER BY kind DESC, ck DESC"),
                session.prepare(columns + " WHERE pk = ? AND kind = ? AND ck >= ?"),
                session.prepare(columns + " WHERE pk = ? AND kind = ? AND ck >= ? ORDER BY kind DESC, ck DESC"),
                session.prepare(columns + " WHERE token(pk) >= ? AND token(pk) <= ? AND kind = ? ALLOW FILTERING"),
                session.prepare(columns + " WHERE pk = ? AND kind = ? AND ck > ?"),
                session.prepare(columns + " WHERE token(pk) > ? AND token(pk) <= ? AND kind = ? ALLOW FILTERING"),
                session.prepare("UPDATE " + t + " SET hash = ?, value = ? WHERE pk = ? AND kind = ? AND ck = ?"),
                session.prepare("UPDATE " + t + " SET hash = ?, value = ? WHERE pk = ? AND kind = ? AND ck = ? IF value = ?"),
                session.prepare("DELETE FROM " + t + " WHERE pk = ? AND kind = ? AND ck = ?"),
                session.prepare("DELETE FROM " + t + " WHERE pk = ? AND kind = ? AND ck = ? IF value = ?"),
                // A condition on a row the commit does not change, which the statement must leave
                // as it is. Expected absent: deleting a column of an absent row changes nothing
                // (an UPDATE would make a row of it). Expected present: its hash set again to the
                // value it has (a DELETE of the hash would lose the key's hash that scans give).
                session.prepare("DELETE hash FROM " + t + " WHERE pk = ? AND kind = ? AND ck = ? IF value = ?"),
                session.prepare("UPDATE " + t + " SET hash = ? WHERE pk = ? AND kind = ? AND ck = ? IF value = ?"),
                session.prepare("INSERT INTO " + t + " (pk, kind, ck, value) VALUES (?, " + MARKER_KIND
                        + ", ?, 0x) USING TTL " + MARKER_SECONDS),
                session.prepare("SELECT value FROM " + t + " WHERE pk = ? AND kind = " + MARKER_KIND + " AND ck = ?"));
        return s;
    }

    private static ByteBuffer pk(byte[] rowKey) {
        return ByteBuffer.wrap(rowKey, RowKeyFraming.PARTITION_KEY_OFFSET, RowKeyFraming.partitionKeyLength(rowKey)).slice();
    }

    private static ByteBuffer ck(byte[] rowKey) {
        int from = RowKeyFraming.clusteringOffset(rowKey);
        return ByteBuffer.wrap(rowKey, from, rowKey.length - from).slice();
    }

    private static ByteBuffer blob(byte[] value) {
        return value == null ? null : ByteBuffer.wrap(value);
    }

    private static ConsistencyLevel level(Consistency consistency, boolean onePartition) {
        if (consistency == Consistency.EVENTUAL) return ConsistencyLevel.ONE;
        // COMMITTED: QUORUM sees every commit that returned (commits are written at QUORUM),
        // in one round trip, without the Paxos round a SERIAL read makes.
        return onePartition && consistency == Consistency.STRONG ? ConsistencyLevel.SERIAL : ConsistencyLevel.QUORUM;
    }

    @Override
    public byte[] get(byte[] rowKey, Consistency consistency) {
        Iterator<Row> rows = read(RowKeyFraming.tableId(rowKey), s -> s.get().bind(pk(rowKey),
                RowKeyFraming.kind(rowKey), ck(rowKey)).setConsistencyLevel(level(consistency, true)));
        Row row = rows.hasNext() ? rows.next() : null;
        if (row == null || row.isNull(0)) return null;
        return bytes(row.getByteBuffer(0));
    }

    /** Every read sent at once; one that fails is read again alone, with {@link #get}'s retries. */
    @Override
    public List<byte[]> getAll(List<byte[]> rowKeys, Consistency consistency) {
        ConsistencyLevel level = level(consistency, true);
        List<java.util.concurrent.CompletableFuture<byte[]>> reads = new ArrayList<>(rowKeys.size());
        for (byte[] rowKey : rowKeys) {
            Statements s = statements(RowKeyFraming.tableId(rowKey));
            if (s == null) {
                reads.add(java.util.concurrent.CompletableFuture.completedFuture(null));
                continue;
            }
            reads.add(session.executeAsync(s.get().bind(pk(rowKey), RowKeyFraming.kind(rowKey), ck(rowKey))
                    .setConsistencyLevel(level)).toCompletableFuture().thenApply(rs -> {
                        Row row = rs.one();
                        return row == null || row.isNull(0) ? null : bytes(row.getByteBuffer(0));
                    }));
        }
        List<byte[]> values = new ArrayList<>(rowKeys.size());
        for (int i = 0; i < rowKeys.size(); i++) {
            try {
                values.add(reads.get(i).join());
            } catch (java.util.concurrent.CompletionException e) {
                values.add(get(rowKeys.get(i), consistency));
            }
        }
        return values;
    }

    @Override
    public Cursor range(byte[] within, byte[] fromInclusive, byte[] toExclusive, boolean reverse, Consistency consistency) {
        return range(within, fromInclusive, toExclusive, reverse, consistency, Integer.MAX_VALUE);
    }

    /**
     * The rows in pages: the first of {@code rowsWanted} rows (at most the driver's default page),
     * the next ones of the default page. A Query of Limit 10 in a collection of 100 items thus
     * reads 10 rows in one round trip, not 100 (a QUORUM read's replicas read and digest every
     * row of the page), and one that reads on, past rows it skips, is not held to pages of 10.
     */
    @Override
    public Cursor range(byte[] within, byte[] fromInclusive, byte[] toExclusive, boolean reverse, Consistency consistency,
                        int rowsWanted) {
        ByteBuffer from = fromInclusive != null ? ck(fromInclusive) : ByteBuffer.allocate(0);
        ConsistencyLevel level = level(consistency, true);
        long tableId = RowKeyFraming.tableId(within);
        java.util.function.Function<Statements, BoundStatement> statement = s -> (toExclusive != null
                ? (reverse ? s.rangeDesc() : s.rangeAsc()).bind(pk(within), RowKeyFraming.kind(within), from, ck(toExclusive))
                : (reverse ? s.rangeOpenDesc() : s.rangeOpenAsc()).bind(pk(within), RowKeyFraming.kind(within), from))
                .setConsistencyLevel(level);
        if (rowsWanted >= DEFAULT_PAGE_ROWS) return cursor(tableId, read(tableId, statement));
        return cursor(tableId, new Pages(tableId, statement, Math.max(1, rowsWanted)));
    }

    /** The driver's default page (its {@code basic.request.page-size}). */
    private static final int DEFAULT_PAGE_ROWS = 5000;

    /**
     * A read's rows page by page, each page fetched (with {@link #withRetries}) only when the
     * reader moves past the last: the first of {@code firstPageRows}, the rest of the default page.
     */
    private final class Pages implements Iterator<Row> {
        private final long tableId;
        private final java.util.function.Function<Statements, BoundStatement> statement;
        private ResultSet page;
        private Iterator<Row> rows = java.util.Collections.emptyIterator();
        private int left;
        private boolean last;

        Pages(long tableId, java.util.function.Function<Statements, BoundStatement> statement, int firstPageRows) {
            this.tableId = tableId;
            this.statement = statement;
            fetch(s -> statement.apply(s).setPageSize(firstPageRows));
        }

        private void fetch(java.util.function.Function<Statements, BoundStatement> request) {
            page = execute(tableId, request);
            if (page == null) {
                last = true;
                left = 0;
                return;
            }
            // Only the rows fetched: the iterator would fetch the next page itself, at this page's size.
            left = page.getAvailableWithoutFetching();
            rows = page.iterator();
            last = page.getExecutionInfo().getPagingState() == null;
        }

        @Override
        public boolean hasNext() {
            while (left == 0 && !last) {
                ByteBuffer state = page.getExecutionInfo().getPagingState();
                fetch(s -> statement.apply(s).setPagingState(state).setPageSize(DEFAULT_PAGE_ROWS));
            }
            return left > 0;
        }

        @Override
        public Row next() {
            if (!hasNext()) throw new java.util.NoSuchElementException();
            left--;
            return rows.next();
        }
    }

    @Override
    public Cursor scan(long tableId, int kind, long fromHash, long toHash, byte[] startAfter, Consistency consistency) {
        long firstToken = fromHash ^ Long.MIN_VALUE;
        // Inclusive upper bound: the token just below toHash's, or the largest token.
        long lastToken = toHash == 0 ? Long.MAX_VALUE : (toHash ^ Long.MIN_VALUE) - 1;
        ConsistencyLevel level = level(consistency, false);
        if (startAfter == null) {
            return cursor(tableId, read(tableId, s -> s.scanFirst().bind(firstToken, lastToken, kind)
                    .setConsistencyLevel(level)));
        }
        // The rest of startAfter's partition, then the partitions after its token.
        long token = token(pk(startAfter));
        Iterator<Row> rest = read(tableId, s -> s.scanFrom().bind(pk(startAfter), kind, ck(startAfter))
                .setConsistencyLevel(level));
        Iterator<Row> after = token >= lastToken ? java.util.Collections.emptyIterator()
                : read(tableId, s -> s.scanRest().bind(token, lastToken, kind).setConsistencyLevel(level));
        return cursor(tableId, concat(rest, after));
    }

    @Override
    public long position(byte[] rowKey) {
        return token(pk(rowKey)) ^ Long.MIN_VALUE;
    }

    /** The Murmur3 token Cassandra gives a partition key. */
    private long token(ByteBuffer partitionKey) {
        Token t = session.getMetadata().getTokenMap().orElseThrow().newToken(partitionKey.duplicate());
        return ((Murmur3Token) t).getValue();
    }

    @Override
    public boolean commit(List<Expected> expected, List<Change> changes) {
        if (expected.isEmpty() && changes.isEmpty()) return true;
        byte[] any = !changes.isEmpty() ? changes.get(0).rowKey() : expected.get(0).rowKey();
        for (Expected e : expected) checkSameCollection(any, e.rowKey());
        for (Change c : changes) checkSameCollection(any, c.rowKey());
        Statements s = statements(RowKeyFraming.tableId(any));
        if (s == null) throw new IllegalStateException("no table " + RowKeyFraming.tableId(any) + " in " + keyspace);
        ByteBuffer pk = pk(any);
        UUID id = UUID.randomUUID();
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
        for (Change c : changes) {
            byte[] key = c.rowKey();
            Expected condition = find(expected, key);
            int kind = RowKeyFraming.kind(key);
            if (c.value() == null) {
                batch.addStatement(condition == null ? s.delete().bind(pk, kind, ck(key))
                        : s.deleteIf().bind(pk, kind, ck(key), blob(condition.value())));
            } else {
                long hash = RowKeyFraming.hash(key);
                batch.addStatement(condition == null ? s.put().bind(hash, ByteBuffer.wrap(c.value()), pk, kind, ck(key))
                        : s.putIf().bind(hash, ByteBuffer.wrap(c.value()), pk, kind, ck(key), blob(condition.value())));
            }
        }
        for (Expected e : expected) {
            if (findChange(changes, e.rowKey()) == null) {
                byte[] row = e.rowKey();
                batch.addStatement(e.value() == null
                        ? s.expectAbsent().bind(pk, RowKeyFraming.kind(row), ck(row), blob(null))
                        : s.expectPresent().bind(RowKeyFraming.hash(row), pk, RowKeyFraming.kind(row), ck(row), blob(e.value())));
            }
        }
        batch.addStatement(s.marker().bind(pk, ByteBuffer.wrap(marker(id))));
        BatchStatement statement = batch.build().setConsistencyLevel(ConsistencyLevel.QUORUM)
                .setSerialConsistencyLevel(ConsistencyLevel.SERIAL);
        try {
            return session.execute(statement).wasApplied();
        } catch (UnavailableException | NoNodeAvailableException e) {
            throw fault(e); // refused before any replica took it: nothing applied
        } catch (DriverException e) {
            // A timeout, or a connection lost after sending: the round may have been accepted.
            return decided(s, pk, id);
        }
    }

    /**
     * A plain write (the write isolation {@code only_rmw_uses_lwt}): the changes as one unlogged
     * batch on the partition at QUORUM, no condition, so no Paxos round and no marker. Its
     * timestamp is this server's clock in microseconds, unique and increasing here (as the
     * driver's own generator), set once so that a write tried again after a timeout is the same
     * write (Cassandra keeps the one of the highest timestamp). A lightweight transaction writes
     * with its ballot's timestamp, from the coordinator's clock: the two order as they happened
     * while the servers' and the nodes' clocks agree (docs/cassandra.md, Write isolation).
     */
    @Override
    public void write(List<Change> changes) {
        if (changes.isEmpty()) return;
        byte[] any = changes.get(0).rowKey();
        for (Change c : changes) checkSameCollection(any, c.rowKey());
        Statements s = statements(RowKeyFraming.tableId(any));
        if (s == null) throw new IllegalStateException("no table " + RowKeyFraming.tableId(any) + " in " + keyspace);
        ByteBuffer pk = pk(any);
        BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
        for (Change c : changes) {
            byte[] key = c.rowKey();
            int kind = RowKeyFraming.kind(key);
            batch.addStatement(c.value() == null ? s.delete().bind(pk, kind, ck(key))
                    : s.put().bind(RowKeyFraming.hash(key), ByteBuffer.wrap(c.value()), pk, kind, ck(key)));
        }
        BatchStatement statement = batch.build().setConsistencyLevel(ConsistencyLevel.QUORUM)
                .setQueryTimestamp(nextMicros()).setIdempotent(true);
        // A timeout is tried again (the same timestamp); any other failure is a fault.
        withRetries(() -> session.execute(statement), "write");
    }

    private final java.util.concurrent.atomic.AtomicLong lastMicros = new java.util.concurrent.atomic.AtomicLong();

    private long nextMicros() {
        java.time.Instant now = java.time.Instant.now();
        long micros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
        return lastMicros.accumulateAndGet(micros, (last, clock) -> Math.max(last + 1, clock));
    }

    /**
     * Whether a commit whose answer was lost applied: its marker, read at SERIAL (which first
     * completes any round in flight), says. When even that cannot be read, the outcome is unknown
     * and the fault says so.
     */
    private boolean decided(Statements s, ByteBuffer pk, UUID id) {
        return withRetries(() -> session.execute(s.readMarker().bind(pk, ByteBuffer.wrap(marker(id)))
                .setConsistencyLevel(ConsistencyLevel.SERIAL)).one() != null, "decide a commit");
    }

    private static byte[] marker(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }

    private static StorageFaultException fault(RuntimeException e) {
        return fault(e, "write");
    }

    private static StorageFaultException fault(RuntimeException e, String what) {
        return new StorageFaultException(StorageFaultException.Kind.WRITE_FAILED,
                "Cassandra could not " + what + ": " + e.getMessage(), e);
    }

    private static void checkSameCollection(byte[] a, byte[] b) {
        if (!RowKeyFraming.sameCollection(a, b)) throw new IllegalArgumentException("a commit changes one item collection");
    }

    private static Expected find(List<Expected> expected, byte[] key) {
        for (Expected e : expected) if (Arrays.equals(e.rowKey(), key)) return e;
        return null;
    }

    private static Change findChange(List<Change> changes, byte[] key) {
        for (Change c : changes) if (Arrays.equals(c.rowKey(), key)) return c;
        return null;
    }

    /**
     * The rows a read gives, none when the table does not exist (dropped, or by another server);
     * a read that lost a Paxos race or timed out is tried again, a few times.
     */
    private Iterator<Row> read(long tableId, java.util.function.Function<Statements, BoundStatement> statement) {
        ResultSet rows = execute(tableId, statement);
        return rows == null ? java.util.Collections.emptyIterator() : rows.iterator();
    }

    /** A read's first page (or the one its statement's paging state names); null when the table does not exist. */
    private ResultSet execute(long tableId, java.util.function.Function<Statements, BoundStatement> statement) {
        return withRetries(() -> {
            Statements s = statements(tableId);
            if (s == null) return null;
            try {
                return session.execute(statement.apply(s));
            } catch (InvalidQueryException e) {
                if (!missingTable(e)) throw e;
                tables.remove(tableId);
                return null;
            }
        }, "read");
    }

    private static final int ATTEMPTS = 10;

    /**
     * Runs a Cassandra call, again after contention (a serial read or a commit's read-back that
     * lost to another round: CASWriteUnknownException) or a timeout, backing off a little more each
     * time; gives up with a fault after {@link #ATTEMPTS}.
     */
    private static <T> T withRetries(java.util.function.Supplier<T> call, String what) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (CASWriteUnknownException | ReadTimeoutException | WriteTimeoutException e) {
                if (attempt == ATTEMPTS) throw fault(e, what);
                try {
                    Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, 10L * attempt));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw fault(e, what);
                }
            } catch (ServerError e) {
                // "Unknown CF": a node does not know the table's id yet or any more, while a
                // creation or a drop is still reaching every node (the driver's wait for schema
                // agreement gives up after 10 s on a loaded cluster). Tried again for up to about
                // five seconds, by when the table is known everywhere or its drop answers as a
                // missing table.
                if (!String.valueOf(e.getMessage()).contains("Unknown CF") || attempt == ATTEMPTS) throw fault(e, what);
                try {
                    Thread.sleep(100L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw fault(e, what);
                }
            } catch (DriverException e) {
                throw fault(e, what);
            }
        }
    }

    private static boolean missingTable(InvalidQueryException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("unconfigured table") || m.contains("does not exist");
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static Iterator<Row> concat(Iterator<Row> a, Iterator<Row> b) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return a.hasNext() || b.hasNext();
            }

            @Override
            public Row next() {
                return a.hasNext() ? a.next() : b.next();
            }
        };
    }

    /** Rows given back as whole row keys; the driver pages through them as the cursor moves. */
    private static Cursor cursor(long tableId, Iterator<Row> rows) {
        return new Cursor() {
            private byte[] key;
            private byte[] value;

            @Override
            public boolean next() {
                if (!rows.hasNext()) return false;
                Row r = rows.next();
                key = RowKeyFraming.rowKey(tableId, r.getInt(1), r.getLong(3), bytes(r.getByteBuffer(0)),
                        bytes(r.getByteBuffer(2)));
                value = bytes(r.getByteBuffer(4));
                return true;
            }

            @Override
            public byte[] key() {
                return key;
            }

            @Override
            public byte[] value() {
                return value;
            }

            @Override
            public void close() {
                // Nothing held: unread pages are simply not fetched.
            }
        };
    }
}
