package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import java.util.Map;

/**
 * How a table's writes are isolated from each other, as ScyllaDB's Alternator lets a table choose
 * (its "Write isolation policies", docs.scylladb.com/manual/stable/alternator/new-apis.html and
 * docs/alternator/alternator.md of scylladb/scylla): the tag {@value #TAG} on the table, or the
 * server's default ({@code --write-isolation}, Alternator's {@code --alternator-write-isolation})
 * for a table without it. Alternator's own tag key and value names, so that tables tagged for
 * ScyllaDB keep their meaning; Alternator's one-letter and short aliases ({@code a}, {@code always},
 * ...) are not taken: one spelling per setting.
 *
 * <p>What each guarantees here, on storage several servers share (Cassandra); one server on its
 * own storage (RocksDB) orders every write itself, and writes the same way whatever the setting:
 * <ul>
 *   <li>{@link #ALWAYS_USE_LWT} (the default): every write is a lightweight transaction,
 *       isolated from every other write of the item. Alternator: "the only choice guaranteed
 *       to work correctly for every workload".</li>
 *   <li>{@link #ONLY_RMW_USES_LWT}: a write that reads nothing before writing (PutItem and
 *       DeleteItem without a condition and without the old item returned, BatchWriteItem's puts
 *       and deletes) is one plain timestamped write; the others stay lightweight transactions.
 *       Alternator: "This mode is only safe if the workload does not mix read-modify-write and
 *       write-only updates to the same item, concurrently".</li>
 *   <li>{@link #FORBID_RMW}: the plain writes as above, and every write that would read before
 *       writing refused (Alternator's ValidationException, {@link #FORBIDDEN}); UpdateItem always
 *       reads here (an item is stored whole), so it is refused too.</li>
 *   <li>{@link #UNSAFE_RMW}: accepted, so that Alternator's tables keep their tag, and run as
 *       {@link #ONLY_RMW_USES_LWT}: Alternator then does read-modify-writes as a read and a
 *       write with no isolation at all, which guarantees nothing that a lightweight transaction
 *       breaks, while Stator has no write path without compare-and-set to offer for them.</li>
 * </ul>
 */
public enum WriteIsolation {
    ALWAYS_USE_LWT("always_use_lwt"),
    ONLY_RMW_USES_LWT("only_rmw_uses_lwt"),
    FORBID_RMW("forbid_rmw"),
    UNSAFE_RMW("unsafe_rmw");

    /** Alternator's tag key. */
    public static final String TAG = "system:write_isolation";

    /** The values, as {@link #TAG} and {@code --write-isolation} take them. */
    public static final String ALLOWED = "always_use_lwt, only_rmw_uses_lwt, forbid_rmw, unsafe_rmw";

    /**
     * Alternator's refusal of a read-modify-write under forbid_rmw (its alternator/executor.cc,
     * rmw_operation::execute), with Stator's documentation in place of ScyllaDB's link.
     */
    public static final String FORBIDDEN = "Read-modify-write operations are disabled by 'forbid_rmw' write "
            + "isolation policy. Refer to docs/cassandra.md#write-isolation for more information.";

    private final String value;

    WriteIsolation(String value) {
        this.value = value;
    }

    /** The name the tag and the option give it. */
    public String value() {
        return value;
    }

    /** The setting of this name, or null. */
    public static WriteIsolation parse(String value) {
        for (WriteIsolation w : values()) if (w.value.equals(value)) return w;
        return null;
    }

    /**
     * Refuses tags whose {@value #TAG} is not a setting, with Alternator's message (its
     * validate_tags: "Incorrect write isolation tag {}. Allowed values: {}").
     */
    static void checkTags(Map<String, String> tags) {
        String value = tags.get(TAG);
        if (value != null && parse(value) == null) {
            throw DynamoDbException.validation("Incorrect write isolation tag " + value + ". Allowed values: " + ALLOWED);
        }
    }

    /** The table's setting: its tag, else {@code serverDefault}. */
    public static WriteIsolation of(TableDefinition table, WriteIsolation serverDefault) {
        String tagged = table.tags().get(TAG);
        WriteIsolation w = tagged == null ? null : parse(tagged);
        return w != null ? w : serverDefault;
    }

    /** Whether a write that reads nothing before writing may be a plain write. */
    public boolean writesPlainly() {
        return this != ALWAYS_USE_LWT;
    }
}
