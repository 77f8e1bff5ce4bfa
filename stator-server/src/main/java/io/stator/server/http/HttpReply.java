package io.stator.server.http;

import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP response: status, headers in order, body (one array, or {@link BodyChunks} as it was
 * written). Content-Length is added by the server. A reply may carry what to do once its bytes
 * have left the process ({@link #whenSent}): the memory a request was admitted with is held
 * until then, since until then the reply is still in memory, Netty's copy of it included.
 */
public final class HttpReply {

    private final int status;
    private final List<String[]> headers = new ArrayList<>(6);
    private final byte[] body;
    private final BodyChunks chunks;
    private Runnable sent;

    public HttpReply(int status, byte[] body) {
        this.status = status;
        this.body = body;
        this.chunks = null;
    }

    public HttpReply(int status, BodyChunks body) {
        this.status = status;
        this.body = null;
        this.chunks = body;
    }

    public HttpReply header(String name, String value) {
        headers.add(new String[] {name, value});
        return this;
    }

    public int status() { return status; }

    public List<String[]> headers() { return headers; }

    /** The body in one array (a copy when it was written in chunks). */
    public byte[] body() {
        return body != null ? body : chunks.toByteArray();
    }

    public int bodyLength() {
        return body != null ? body.length : chunks.length();
    }

    /** The body's array when it is all in one (its first {@link #bodyLength} bytes), else null. */
    public byte[] singleChunk() {
        return body != null ? body : chunks.singleChunk();
    }

    /** Hands the body's bytes to {@code consumer}, in order, without copying them. */
    public void forEachChunk(BodyChunks.ChunkConsumer consumer) {
        if (body != null) consumer.accept(body, body.length);
        else chunks.forEachChunk(consumer);
    }

    /** Runs {@code action} once the reply has been written out, or has failed to be. */
    public HttpReply whenSent(Runnable action) {
        Runnable before = sent;
        sent = before == null ? action : () -> {
            before.run();
            action.run();
        };
        return this;
    }

    /** What to run once the reply has been written out; null for nothing. */
    public Runnable sent() { return sent; }
}
