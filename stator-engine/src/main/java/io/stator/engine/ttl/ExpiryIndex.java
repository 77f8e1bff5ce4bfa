package io.stator.engine.ttl;

import io.stator.core.key.XxHash64;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.index.PropagationDelay;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TimeToLiveDescription;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.WriteBatch;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Arrays;
import java.util.Map;

/**
 * Time to Live's expiry index: where the {@link Expirer} finds the items to delete, without
 * scanning tables.
 *
 * <p><b>Layout.</b> One row per item that will expire, in the EXPIRIES key space: key
 * {@code [table id, 8 bytes big-endian][due, epoch milliseconds, 8 bytes big-endian][the item's
 * row key]}, value the item's TTL attribute as it was written (the Number's text). Due is the
 * item's expiry plus its lateness ({@code --ttl-delay}, the same for one item every time: it is
 * drawn from a hash of its row key). A table's rows are contiguous and in due order, so the
 * expirer reads only the rows that are due, and disabling or DeleteTable drop a table's rows with
 * one range delete.
 *
 * <p><b>Which items.</b> DynamoDB deletes an item whose TTL attribute is a Number of epoch
 * seconds less than the current time; an item without it, with another type, or with a value
 * "more than five years in the past" is never deleted ("To be considered for expiry and deletion,
 * the TTL can't be more than five years in the past. If you use any other format, the TTL
 * processes ignore the item": developer guide, "Computing time to live (TTL) in DynamoDB"). Such
 * items get no row. Five years are counted as 5 x 365 days; nor do items expiring after the year
 * 9999 get one.
 *
 * <p><b>Kept in the item's batch.</b> The index is a {@link ChangeLog} consumer: every change of
 * an item of a table whose Time to Live is ENABLING or ENABLED moves its row in the batch that
 * commits the change, so no crash leaves them apart. It is registered only while some table may
 * need it (see {@link Expirer}): a server without Time to Live pays nothing for it, and a write
 * to a table without it pays one look at the table's definition.
 *
 * <p><b>Rows are hints.</b> The expirer deletes an item only if it still holds the value its row
 * holds (a condition checked under the item's lock, in the write pipeline), so a row left behind
 * (by a write racing a change of the table's Time to Live, or a restart with another
 * {@code --ttl-delay}) costs one check and is then dropped. What must hold is the other way: every
 * item that will expire has its row.
 */
final class ExpiryIndex implements ChangeLog.Consumer {

    /** DynamoDB's "more than five years in the past", in milliseconds. */
    static final long FIVE_YEARS_MILLIS = 5L * 365 * 24 * 3600 * 1000;
    /** 9999-12-31T23:59:59.999Z: later expiries get no row (and keep due times far from overflowing). */
    static final long LATEST_EXPIRY_MILLIS = 253_402_300_799_999L;
    /** An expiry that is no expiry: the item is never deleted. */
    static final long NEVER = -1;

    private static final int PREFIX_BYTES = 16;

    private final ChangeLog changeLog;
    private final Clock clock;
    private final PropagationDelay delay;
    private boolean registered;

    ExpiryIndex(ChangeLog changeLog, Clock clock, PropagationDelay delay) {
        this.changeLog = changeLog;
        this.clock = clock;
        this.delay = delay;
    }

    /** One item's row. */
    record Row(byte[] key, byte[] value) {}

    /** Makes every write keep the index (idempotent). Called by the expirer's thread only. */
    synchronized void register() {
        if (!registered) {
            changeLog.register(this);
            registered = true;
        }
    }

    /** Stops writes from keeping the index, once no table needs it. Called by the expirer's thread only. */
    synchronized void unregister() {
        if (registered) {
            changeLog.unregister(this);
            registered = false;
        }
    }

    /**
     * The item's expiry in epoch milliseconds, or {@link #NEVER}: its TTL attribute is absent, not
     * a Number, more than five years before {@code nowMillis}, or after the year 9999.
     */
    static long expiryMillis(AttributeValue value, long nowMillis) {
        if (!(value instanceof AttributeValue.N n)) return NEVER;
        return expiryMillis(n.value(), nowMillis);
    }

    static long expiryMillis(DynamoNumber seconds, long nowMillis) {
        BigDecimal millis = seconds.bigDecimal().movePointRight(3).setScale(0, RoundingMode.FLOOR);
        if (millis.signum() < 0 || millis.compareTo(BigDecimal.valueOf(LATEST_EXPIRY_MILLIS)) > 0) return NEVER;
        long expiry = millis.longValueExact();
        return expiry < nowMillis - FIVE_YEARS_MILLIS ? NEVER : expiry;
    }

    /** The item's row in the index, or null when it never expires (or is absent). */
    Row rowOf(long tableId, String attribute, byte[] rowKey, Map<String, AttributeValue> item, long nowMillis) {
        if (item == null) return null;
        AttributeValue value = item.get(attribute);
        long expiry = expiryMillis(value, nowMillis);
        if (expiry == NEVER) return null;
        long due = expiry + delay.millisFor(XxHash64.hash(rowKey));
        byte[] key = ByteBuffer.allocate(PREFIX_BYTES + rowKey.length).putLong(tableId).putLong(due).put(rowKey).array();
        return new Row(key, ((AttributeValue.N) value).value().toString().getBytes(StandardCharsets.UTF_8));
    }

    /** A table with Time to Live on: its rows are moved by the old item's expiry too. */
    @Override
    public boolean wants(TableDefinition table) {
        return table.timeToLive() != null && table.timeToLive().expiring();
    }

    @Override
    public void stage(WriteBatch batch, ChangeRecord change) {
        TimeToLiveDescription ttl = change.table().timeToLive();
        if (ttl == null || !ttl.expiring()) return;
        long now = clock.millis();
        long tableId = change.table().id();
        Row before = rowOf(tableId, ttl.attributeName(), change.rowKey(), change.oldItem(), now);
        Row after = rowOf(tableId, ttl.attributeName(), change.rowKey(), change.newItem(), now);
        boolean sameKey = before != null && after != null && Arrays.equals(before.key(), after.key());
        if (before != null && !sameKey) batch.delete(Keyspaces.EXPIRIES, before.key());
        if (after != null && !(sameKey && Arrays.equals(before.value(), after.value()))) {
            batch.put(Keyspaces.EXPIRIES, after.key(), after.value());
        }
    }

    // ---- the layout, for the expirer ---------------------------------------------------------

    /** The first key of a table's rows. */
    static byte[] tableStart(long tableId) {
        return ByteBuffer.allocate(8).putLong(tableId).array();
    }

    /** The first key of the table's rows due at {@code dueMillis} or later. */
    static byte[] dueFrom(long tableId, long dueMillis) {
        return ByteBuffer.allocate(PREFIX_BYTES).putLong(tableId).putLong(dueMillis).array();
    }

    static long dueOf(byte[] key) {
        return ByteBuffer.wrap(key, 8, 8).getLong();
    }

    static byte[] rowKeyOf(byte[] key) {
        return Arrays.copyOfRange(key, PREFIX_BYTES, key.length);
    }
}
