package io.stator.server.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A bare HTTP/1.1 client on one socket, for tests that must control every byte a client sends
 * (no header the JDK's client would add, refuse or rewrite), send several requests on one
 * connection, or read a reply before the request body has been sent.
 */
public final class RawHttp implements AutoCloseable {

    public static final String JSON_1_0 = "application/x-amz-json-1.0";

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = new BufferedInputStream(socket.getInputStream());
    }

    /** Connects to 127.0.0.1:port; reads time out after 30 seconds. */
    public static RawHttp connect(int port) {
        try {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            // Requests go out in one write each; Nagle would hold a small one back for the ACK.
            socket.setTcpNoDelay(true);
            return new RawHttp(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Connects to 127.0.0.1:port over TLS with {@code tls} (which decides whom to trust) and
     * completes the handshake; reads time out after 30 seconds.
     */
    public static RawHttp connectTls(int port, javax.net.ssl.SSLContext tls) {
        try {
            javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) tls.getSocketFactory().createSocket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            socket.setTcpNoDelay(true);
            javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return new RawHttp(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One request on a fresh connection, and its reply. */
    public static Response exchange(int port, Request request) {
        try (RawHttp http = connect(port)) {
            return http.send(request).read();
        }
    }

    /**
     * Headers DynamoDB clients send on every request, with a well-formed SigV4 Authorization
     * header whose signature is not computed: an anonymous server accepts it, as DynamoDB
     * Local does, and a request that is wrong in any other way gets the error for that.
     */
    public static Map<String, String> dummySignedHeaders(String target) {
        String time = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC)
                .format(Instant.now());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", JSON_1_0);
        if (target != null) headers.put("X-Amz-Target", "DynamoDB_20120810." + target);
        headers.put("X-Amz-Date", time);
        headers.put("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/" + time.substring(0, 8)
                + "/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
                + "Signature=" + "0".repeat(64));
        return headers;
    }

    /** Writes a whole request (Host and Content-Length are added). */
    public RawHttp send(Request request) {
        byte[] head = head(request.method(), request.target(), request.headers(), request.body().length);
        byte[] whole = Arrays.copyOf(head, head.length + request.body().length);
        System.arraycopy(request.body(), 0, whole, head.length, request.body().length);
        write(whole);
        return this;
    }

    /**
     * Writes a request line and headers only (Host added unless given, and Content-Length unless negative);
     * the body, if any, is up to the caller.
     */
    public RawHttp writeHead(String method, String target, Map<String, String> headers, long contentLength) {
        write(head(method, target, headers, contentLength));
        return this;
    }

    private byte[] head(String method, String target, Map<String, String> headers, long contentLength) {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        if (headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase("Host"))) {
            head.append("Host: 127.0.0.1:").append(socket.getPort()).append("\r\n");
        }
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        if (contentLength >= 0) head.append("Content-Length: ").append(contentLength).append("\r\n");
        head.append("\r\n");
        return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    public void write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads one reply: status line, headers, and a body framed by Content-Length or chunks. */
    public Response read() {
        try {
            String statusLine = readLine();
            if (statusLine == null) throw new IOException("connection closed before a reply");
            int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (String line; !(line = readLine()).isEmpty(); ) {
                int colon = line.indexOf(':');
                headers.computeIfAbsent(line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        k -> new ArrayList<>()).add(line.substring(colon + 1).trim());
            }
            byte[] body;
            List<String> length = headers.get("content-length");
            List<String> encoding = headers.get("transfer-encoding");
            if (length != null) {
                body = in.readNBytes(Integer.parseInt(length.get(0)));
            } else if (encoding != null && encoding.get(0).equalsIgnoreCase("chunked")) {
                body = readChunks();
            } else {
                body = new byte[0];
            }
            return new Response(status, headers, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when the server has closed the connection (reads end of stream). */
    public boolean isClosedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Waits for the server to close the connection, reading nothing from it, and returns how long
     * that took. Fails if the server sends anything or keeps the connection open past {@code max}.
     */
    public java.time.Duration awaitClose(java.time.Duration max) {
        long start = System.nanoTime();
        try {
            socket.setSoTimeout((int) Math.max(1, max.toMillis()));
            int b = in.read();
            if (b >= 0) throw new AssertionError("the server sent data instead of closing: " + (char) b);
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + max);
        } catch (IOException e) {
            // reset by the server: closed too
        }
        return java.time.Duration.ofNanos(System.nanoTime() - start);
    }

    public void setReadTimeoutMillis(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] readChunks() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            int size = Integer.parseInt(readLine().split(";", 2)[0].trim(), 16);
            if (size == 0) {
                while (!readLine().isEmpty()) {
                    // trailers are not used by these tests
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine();
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
            if (c != '\r') line.write(c);
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request to send; {@code target} is the request target, e.g. "/" or "/?X-Amz-Algorithm". */
    public record Request(String method, String target, Map<String, String> headers, byte[] body) {

        /** A POST to / with the given headers and a UTF-8 body. */
        public static Request post(Map<String, String> headers, String body) {
            return new Request("POST", "/", headers, body.getBytes(StandardCharsets.UTF_8));
        }

        /** A POST of a JSON body to a DynamoDB action, signed with {@link #dummySignedHeaders}. */
        public static Request action(String target, String body) {
            return post(dummySignedHeaders(target), body);
        }
    }

    /** A reply; header names are lower case. */
    public record Response(int status, Map<String, List<String>> headers, byte[] body) {

        /** The first value of a header, or null. */
        public String header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null ? null : values.get(0);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + bodyText();
        }
    }
}
