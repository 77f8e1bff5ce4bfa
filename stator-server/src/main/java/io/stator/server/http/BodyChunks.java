package io.stator.server.http;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A reply's body as it is written: chunks that grow (2 KB, then twice the last, up to 64 KB: at most 64 KB unused),
 * handed to the network as they are, never joined into one array. A 16 MB BatchGetItem answer
 * held once, not twice: joined, the body cost its size again at the moment the heap was fullest,
 * and that copy was what many large replies at once ran out of memory on. Not thread-safe.
 */
public final class BodyChunks extends OutputStream {

    private static final int FIRST_CHUNK = 2048;
    private static final int LARGEST_CHUNK = 64 * 1024;

    /** The chunks before the current one, each full. */
    private List<byte[]> full;
    private byte[] current = new byte[FIRST_CHUNK];
    private int used;
    private int length;

    @Override
    public void write(int b) {
        if (used == current.length) next(1);
        current[used++] = (byte) b;
        length++;
    }

    @Override
    public void write(byte[] bytes, int offset, int count) {
        while (count > 0) {
            if (used == current.length) next(count);
            int n = Math.min(count, current.length - used);
            System.arraycopy(bytes, offset, current, used, n);
            used += n;
            offset += n;
            count -= n;
            length += n;
        }
    }

    private void next(int wanted) {
        if (full == null) full = new ArrayList<>();
        full.add(current);
        current = new byte[Math.min(LARGEST_CHUNK, Math.max(current.length * 2, wanted))];
        used = 0;
    }

    /** The bytes written so far. */
    public int length() {
        return length;
    }

    /** Receives the chunks in order: the array and how many of its first bytes are the body's. */
    @FunctionalInterface
    public interface ChunkConsumer {
        void accept(byte[] chunk, int length);
    }

    public void forEachChunk(ChunkConsumer consumer) {
        if (full != null) for (byte[] chunk : full) consumer.accept(chunk, chunk.length);
        if (used > 0 || full == null) consumer.accept(current, used);
    }

    /** The array holding the whole body (its first {@link #length} bytes) when it is one chunk, else null. */
    public byte[] singleChunk() {
        return full == null ? current : null;
    }

    /** The body in one array: a copy, for small bodies and tests. */
    public byte[] toByteArray() {
        if (full == null) return Arrays.copyOf(current, used);
        byte[] all = new byte[length];
        int[] at = {0};
        forEachChunk((chunk, n) -> {
            System.arraycopy(chunk, 0, all, at[0], n);
            at[0] += n;
        });
        return all;
    }
}
