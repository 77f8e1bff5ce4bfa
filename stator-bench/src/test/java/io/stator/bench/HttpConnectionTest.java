package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Response framing the peers use: Content-Length, chunked, and HTTP/1.0 or Connection: close. */
class HttpConnectionTest {

    @Test
    void readsContentLengthChunkedAndCloseDelimitedResponses() throws Exception {
        List<String> responses = List.of(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nsec\r\n3;x=y\r\nond\r\n0\r\n\r\n",
                "HTTP/1.0 400 Bad Request\r\nContent-Type: x\r\ncontent-length: 5\r\n\r\nthird",
                "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nfourth");
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket listener = new ServerSocket(0)) {
            Thread server = Thread.ofPlatform().start(() -> serve(listener, responses, connections));
            try (HttpConnection c = new HttpConnection(Endpoint.local(listener.getLocalPort()))) {
                byte[] request = "GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                assertEquals(200, c.exchange(request));
                assertEquals("first", c.bodyText());
                assertEquals(200, c.exchange(request));
                assertEquals("second", c.bodyText());
                assertEquals(400, c.exchange(request));
                assertEquals("third", c.bodyText());
                // HTTP/1.0 closes: the next request goes on a new connection.
                assertEquals(200, c.exchange(request));
                assertEquals("fourth", c.bodyText());
                assertEquals(2, c.opens());
            }
            server.join();
        }
        assertEquals(2, connections.get());
    }

    /** Answers the requests in order; closes the connection after an HTTP/1.0 or Connection: close answer. */
    private static void serve(ServerSocket listener, List<String> responses, AtomicInteger connections) {
        int next = 0;
        try {
            while (next < responses.size()) {
                try (Socket s = listener.accept()) {
                    connections.incrementAndGet();
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    while (next < responses.size()) {
                        readRequest(in);
                        String response = responses.get(next++);
                        out.write(response.getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        if (response.startsWith("HTTP/1.0") || response.contains("Connection: close")) break;
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) throw new IOException("client closed");
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
    }
}
