package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nginx server kind as compare runs it: started from its generated configuration, answering
 * keep-alive POSTs with bodies (thousands, through wrk) with the trivial server's reply, and
 * stopped with its workers. nginx must be installed (Debian's nginx-light; .ci/run installs it).
 */
class NginxServerTest {

    @TempDir
    Path dir;

    @Test
    void startsServesKeepAlivePostsAndStopsWithItsWorkers() throws Exception {
        assertNotNull(NginxServer.binary(), "nginx is not installed: apt-get install -y wrk nginx-light");
        ServerKind.Places places = new ServerKind.Places(dir, dir, dir, null);
        assertNull(ServerKind.NGINX.unavailable(places));
        int port = Compare.freePort();
        Endpoint endpoint = Endpoint.local(port);
        List<ProcessHandle> processes;
        try (ServerProcess nginx = ServerProcess.start("nginx", ServerKind.NGINX.command(places, port, dir.resolve("nginx")), Map.of(), endpoint, dir.resolve("nginx.log"), Duration.ofSeconds(20))) {
            processes = ProcessHandle.of(nginx.pid()).orElseThrow().descendants().toList();
            assertFalse(processes.isEmpty(), "no worker processes");
            assertTrue(nginx.residentMegabytes() > 1, "RSS of master and workers: " + nginx.residentMegabytes());
            assertTrue(nginx.startupMillis() < 5_000, nginx.startupMillis() + " ms");

            // The reply, headers included, is the trivial server's.
            DynamoRequests requests = new DynamoRequests(endpoint, SigV4Signer.Credentials.BENCH);
            byte[] put = requests.build("PutItem", new BenchTable("t", 100, 1024).putItem(7));
            String head = rawHead(endpoint, put);
            assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
            assertTrue(head.contains("\r\nContent-Type: application/x-amz-json-1.0\r\n"), head);
            assertTrue(head.contains("\r\nx-amz-crc32: " + TrivialServer.BODY_CRC32 + "\r\n"), head);
            assertTrue(head.matches("(?s).*\r\nx-amzn-RequestId: [0-9a-f]{32}\r\n.*"), head);
            try (TrivialServer trivial = TrivialServer.start("127.0.0.1", 0)) {
                String trivialHead = rawHead(Endpoint.local(trivial.port()), put);
                assertTrue(trivialHead.contains("\r\nx-amz-crc32: " + TrivialServer.BODY_CRC32 + "\r\n"), trivialHead);
                assertTrue(trivialHead.toLowerCase().matches("(?s).*\r\nx-amzn-requestid: [0-9a-f]{32}\r\n.*"), trivialHead);
            }

            // Keep-alive POSTs with bodies: each body read and discarded, so the next request parses.
            try (HttpConnection connection = new HttpConnection(endpoint)) {
                for (int i = 0; i < 200; i++) {
                    assertEquals(200, connection.exchange(put));
                    assertEquals(new String(TrivialServer.BODY, StandardCharsets.US_ASCII), connection.bodyText());
                }
                assertEquals(1, connection.opens());
            }
            RunResult result = WrkGenerator.run(endpoint, Workload.PUT.build(requests, new BenchTable("t", 1_000, 1024)),
                    new LoadGenerator.Settings(16, Duration.ZERO, Duration.ofSeconds(1), 0), nginx.cpu(), dir.resolve("wrk"));
            assertEquals(0, result.errors(), result.firstError());
            assertTrue(result.operations() > 1_000, "operations: " + result.operations());
            assertTrue(result.serverCores() > 0, "the workers' CPU was not read");
        }
        for (ProcessHandle p : processes) {
            p.onExit().get(10, TimeUnit.SECONDS);
            assertFalse(p.isAlive(), "worker " + p.pid() + " outlived its master");
        }
    }

    /** The head of the response to one request, on a connection of its own. */
    private static String rawHead(Endpoint endpoint, byte[] request) throws IOException {
        try (Socket socket = new Socket(endpoint.host(), endpoint.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) break;
                head.append((char) b);
            }
            return head.toString();
        }
    }
}
