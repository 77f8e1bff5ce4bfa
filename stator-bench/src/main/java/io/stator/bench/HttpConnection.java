package io.stator.bench;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One keep-alive HTTP/1.1 client connection, used by one thread: write a request's bytes, read
 * the whole response into a reused buffer.
 *
 * <p>Why a blocking socket per thread and not an HTTP client library: each exchange is one
 * write and one or two reads, with no allocation beyond the response buffer's growth and no
 * hand-off between threads, which keeps the generator's share of a 2-core machine small (the
 * report prints it). Responses are framed by Content-Length or chunked encoding; a server that
 * answers HTTP/1.0 or {@code Connection: close} (some development servers do) gets a new
 * connection for the next request, counted in {@link #opens()}.
 */
final class HttpConnection implements AutoCloseable {

    private final Endpoint endpoint;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private byte[] buf = new byte[16 * 1024];
    private int filled;
    private int bodyStart;
    private int bodyLength;
    private int status;
    private boolean closeAfter;
    private long opens;

    HttpConnection(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * Sends one request and reads its response; returns the status code. A connection the server
     * closed while idle is reopened once, transparently, when no byte of the response was read.
     */
    int exchange(byte[] request) throws IOException {
        boolean fresh = socket == null;
        if (fresh) open();
        try {
            out.write(request);
            out.flush();
            readResponse();
        } catch (IOException e) {
            close();
            if (fresh || filled > 0) throw e;
            open();
            out.write(request);
            out.flush();
            readResponse();
        }
        if (closeAfter) close();
        return status;
    }

    int status() { return status; }

    /** The last response's body; valid until the next exchange. */
    byte[] bodyBuffer() { return buf; }

    int bodyOffset() { return bodyStart; }

    int bodyLength() { return bodyLength; }

    String bodyText() {
        return new String(buf, bodyStart, bodyLength, StandardCharsets.UTF_8);
    }

    /** How many TCP connections this has opened, the first included. */
    long opens() { return opens; }

    private void open() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), 5_000);
        socket = s;
        in = s.getInputStream();
        out = s.getOutputStream();
        opens++;
    }

    private void readResponse() throws IOException {
        filled = 0;
        int headerEnd;
        while ((headerEnd = indexOfHeaderEnd()) < 0) fill();
        parseHead(headerEnd);
        bodyStart = headerEnd + 4;
        if (bodyLength >= 0) {
            ensureCapacity(bodyStart + bodyLength);
            while (filled < bodyStart + bodyLength) fill();
        } else if (bodyLength == CHUNKED) {
            readChunked();
        } else {
            // Neither length nor chunks: the body runs until the server closes the connection.
            try {
                while (true) fill();
            } catch (EOFException end) {
                bodyLength = filled - bodyStart;
                closeAfter = true;
            }
        }
    }

    private static final int CHUNKED = -2;

    private void parseHead(int headerEnd) throws IOException {
        // "HTTP/1.1 200 OK"
        if (headerEnd < 12 || buf[0] != 'H') throw new IOException("not an HTTP response: " + head(headerEnd));
        status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
        boolean http10 = buf[7] == '0';
        closeAfter = http10;
        bodyLength = -1;
        int line = indexOfCrLf(0) + 2;
        while (line < headerEnd) {
            int end = indexOfCrLf(line);
            int colon = line;
            while (colon < end && buf[colon] != ':') colon++;
            if (colon < end) {
                int value = colon + 1;
                while (value < end && buf[value] == ' ') value++;
                if (nameIs(line, colon, "content-length")) {
                    bodyLength = parseInt(value, end);
                } else if (nameIs(line, colon, "transfer-encoding") && valueContains(value, end, "chunked")) {
                    bodyLength = CHUNKED;
                } else if (nameIs(line, colon, "connection")) {
                    if (valueContains(value, end, "close")) closeAfter = true;
                    if (valueContains(value, end, "keep-alive")) closeAfter = false;
                }
            }
            line = end + 2;
        }
    }

    /** Decodes a chunked body in place, so the body is contiguous from {@link #bodyStart}. */
    private void readChunked() throws IOException {
        int read = bodyStart;
        int write = bodyStart;
        while (true) {
            int lineEnd;
            while ((lineEnd = indexOfCrLf(read)) < 0) fill();
            int size = 0;
            for (int i = read; i < lineEnd && buf[i] != ';'; i++) size = size * 16 + Character.digit(buf[i], 16);
            read = lineEnd + 2;
            if (size == 0) {
                // Trailers (rare) end with an empty line.
                while (true) {
                    while ((lineEnd = indexOfCrLf(read)) < 0) fill();
                    boolean empty = lineEnd == read;
                    read = lineEnd + 2;
                    if (empty) break;
                }
                bodyLength = write - bodyStart;
                return;
            }
            ensureCapacity(read + size + 2);
            while (filled < read + size + 2) fill();
            System.arraycopy(buf, read, buf, write, size);
            write += size;
            read += size + 2;
        }
    }

    private void fill() throws IOException {
        if (filled == buf.length) ensureCapacity(buf.length * 2);
        int n = in.read(buf, filled, buf.length - filled);
        if (n < 0) throw new EOFException("server closed the connection");
        filled += n;
    }

    private void ensureCapacity(int size) {
        if (size > buf.length) buf = Arrays.copyOf(buf, Math.max(size, buf.length * 2));
    }

    private int indexOfHeaderEnd() {
        for (int i = 3; i < filled; i++) {
            if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') return i - 3;
        }
        return -1;
    }

    private int indexOfCrLf(int from) {
        for (int i = from + 1; i < filled; i++) {
            if (buf[i] == '\n' && buf[i - 1] == '\r') return i - 1;
        }
        return -1;
    }

    private boolean nameIs(int from, int to, String lowerName) {
        if (to - from != lowerName.length()) return false;
        for (int i = 0; i < lowerName.length(); i++) {
            if (Character.toLowerCase(buf[from + i]) != lowerName.charAt(i)) return false;
        }
        return true;
    }

    private boolean valueContains(int from, int to, String lowerWord) {
        return new String(buf, from, to - from, StandardCharsets.US_ASCII).toLowerCase().contains(lowerWord);
    }

    private int parseInt(int from, int to) throws IOException {
        int v = 0;
        for (int i = from; i < to && buf[i] != ' '; i++) {
            int d = buf[i] - '0';
            if (d < 0 || d > 9) throw new IOException("bad Content-Length: " + head(to));
            v = v * 10 + d;
        }
        return v;
    }

    private String head(int end) {
        return new String(buf, 0, Math.min(end, 200), StandardCharsets.US_ASCII);
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing after a failure: nothing left to do with it.
            }
        }
        socket = null;
    }
}
