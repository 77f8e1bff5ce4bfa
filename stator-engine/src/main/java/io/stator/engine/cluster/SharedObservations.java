package io.stator.engine.cluster;

import io.stator.engine.cluster.Deployment.ObservedRow;
import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStore.Change;
import io.stator.storage.CollectionStore.Consistency;
import io.stator.storage.Cursor;
import io.stator.storage.RowKeyFraming;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The advisor's observations shared by every server on the store (docs/advisor.md, "Across the
 * cluster"): each server records the requests it serves as one server does (the request path is
 * unchanged) and, every {@value #PUBLISH_EVERY_MILLIS} ms, publishes the rows that changed (each
 * table's minute open now and the seconds that changed, in the advisor's format); a report on any
 * server reads the others' rows of its table and merges them with its own.
 *
 * <p>The rows are one item collection per table of a reserved table: clustering {@code [minute
 * 8][part 1][server 16]} (part 0 the minute, 1 + s its second s), so that a reader takes one
 * table's last hour in one range read. Each row is a server's own, rewritten whole (a lost or
 * repeated write counts nothing twice); a server that died stops writing, and what it published
 * still counts until trimmed. Every {@value #TRIM_EVERY_MILLIS} ms the upkeep deletes, whoever
 * wrote them, the minutes past the advisor's hour and the seconds past its five minutes (by the
 * engine's clock: the rows are periods of it).
 */
final class SharedObservations {

    /** The reserved table of the observations (below {@link SharedCapacity#TABLE}). */
    static final long TABLE = CasTransactions.RECORDS - 1_001;
    static final long PUBLISH_EVERY_MILLIS = 1_000;
    static final long TRIM_EVERY_MILLIS = 60_000;
    /** The minutes kept, and the seconds' (the advisor's 60 minutes and 300 seconds, a minute more each). */
    static final long MINUTES_KEPT = 61;
    static final long SECONDS_MINUTES_KEPT = 6;

    private final CollectionStore store;
    private final byte[] server;

    SharedObservations(CollectionStore store) {
        this.store = store;
        UUID id = UUID.randomUUID();
        this.server = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
                .array();
        store.createTable(TABLE);
    }

    private static byte[] row(long tableId, byte[] clustering) {
        return RowKeyFraming.rowKey(TABLE, 0, tableId, ByteBuffer.allocate(8).putLong(tableId).array(), clustering);
    }

    private static byte[] clustering(long minute, int part, byte[] server) {
        return ByteBuffer.allocate(25).putLong(minute).put((byte) part).put(server).array();
    }

    /**
     * This server's rows, each in a commit of its own: a table's rows together could pass what the
     * backend takes in one batch.
     */
    void publish(List<ObservedRow> rows) {
        for (ObservedRow r : rows) {
            store.commit(List.of(), List.of(new Change(row(r.tableId(), clustering(r.minute(), r.part(), server)),
                    r.figures())));
        }
    }

    /** The other servers' rows of a table from {@code fromMinute} on. */
    List<ObservedRow> others(long tableId, long fromMinute) {
        List<ObservedRow> out = new ArrayList<>();
        byte[] from = row(tableId, clustering(Math.max(0, fromMinute), 0, new byte[16]));
        try (Cursor c = store.range(from, from, null, false, Consistency.EVENTUAL)) {
            while (c.next()) {
                ByteBuffer k = ByteBuffer.wrap(RowKeyFraming.clustering(c.key()));
                long minute = k.getLong();
                int part = k.get() & 0xFF;
                byte[] owner = new byte[16];
                k.get(owner);
                if (!Arrays.equals(owner, server)) out.add(new ObservedRow(tableId, minute, part, c.value()));
            }
        }
        return out;
    }

    /** Deletes every server's rows past what the advisor reads at {@code minuteNow}. */
    void trim(long minuteNow) {
        Map<Long, List<Change>> deletes = new LinkedHashMap<>();
        try (Cursor c = store.scan(TABLE, 0, 0, 0, null, Consistency.EVENTUAL)) {
            while (c.next()) {
                ByteBuffer k = ByteBuffer.wrap(RowKeyFraming.clustering(c.key()));
                long minute = k.getLong();
                int part = k.get() & 0xFF;
                boolean past = minute <= minuteNow - (part == 0 ? MINUTES_KEPT : SECONDS_MINUTES_KEPT);
                if (past) {
                    long tableId = ByteBuffer.wrap(RowKeyFraming.partitionKey(c.key())).getLong();
                    deletes.computeIfAbsent(tableId, t -> new ArrayList<>()).add(new Change(c.key(), null));
                }
            }
        }
        for (List<Change> d : deletes.values()) {
            for (int i = 0; i < d.size(); i += 100) store.commit(List.of(), d.subList(i, Math.min(d.size(), i + 100)));
        }
    }
}
