package io.stator.server.http;

import java.util.ArrayList;
import java.util.List;

/** One HTTP response: status, headers in order, body. Content-Length is added by the server. */
public final class HttpReply {

    private final int status;
    private final List<String[]> headers = new ArrayList<>(6);
    private final byte[] body;

    public HttpReply(int status, byte[] body) {
        this.status = status;
        this.body = body;
    }

    public HttpReply header(String name, String value) {
        headers.add(new String[] {name, value});
        return this;
    }

    public int status() { return status; }

    public List<String[]> headers() { return headers; }

    public byte[] body() { return body; }
}
