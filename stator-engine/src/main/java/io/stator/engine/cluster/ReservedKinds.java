package io.stator.engine.cluster;

import io.stator.storage.RowKeyFraming;

/**
 * Every kind of row ({@link RowKeyFraming}'s {@code [kind]}) that is not an index's, numbered here
 * and nowhere else, so that a new one cannot take a number already taken. Items are kind 0 and
 * index entries their index's id, so every reserved kind is negative. Each lives in item
 * collections beside the items (on Cassandra, rows of the item's own partition), and no read of
 * an index's kind (Query, Scan, an index's walk, a recount) meets one. They are kept on shared
 * storage only. The numbers are persisted: never renumber one, never reuse a retired one, and
 * add a new one below the last.
 */
public final class ReservedKinds {

    /**
     * A commit's marker, the storage contract's one kind for a backend's own rows
     * ({@code CassandraCollectionStore}: written with each commit, kept an hour, read back to
     * decide a commit whose answer a timeout hid).
     */
    public static final int COMMIT_MARKER = RowKeyFraming.BACKEND_KIND;

    /** Point-in-time recovery's base row of an item ({@link RecoveryRows}). */
    public static final int RECOVERY_BASE = -2;

    /** Point-in-time recovery's history row of one change of an item ({@link RecoveryRows}). */
    public static final int RECOVERY_HISTORY = -3;

    /**
     * An item collection's size, one row per collection of a table with a local index, for the
     * item-collection limit ({@code engine/table/TableCounters}).
     */
    public static final int COLLECTION_SIZE = -4;

    /** A global table's item's version, or a deleted item's tombstone ({@code replication/ItemVersions}). */
    public static final int ITEM_VERSION = -5;

    private ReservedKinds() {}
}
