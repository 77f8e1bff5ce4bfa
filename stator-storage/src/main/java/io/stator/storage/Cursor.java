package io.stator.storage;

/**
 * A forward-only position over a key range. Typical use:
 * {@code while (cursor.next()) { use(cursor.key(), cursor.value()); }}.
 * The arrays returned are owned by the caller.
 */
public interface Cursor extends AutoCloseable {

    /** Moves to the next row; false when the range is exhausted. */
    boolean next();

    byte[] key();

    byte[] value();

    @Override
    void close();
}
