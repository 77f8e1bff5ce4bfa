package io.stator.storage;

/** A consistent, read-only point-in-time view of a {@link Storage}. */
public interface Snapshot extends AutoCloseable {
    @Override
    void close();
}
