package io.stator.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.RawHttp.Response;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * HTTPS with {@code --tls-cert} and {@code --tls-key}: the AWS SDK for Java v2 trusting a CA made
 * for the test run, DynamoDB's protocol versions (TLS 1.2 and 1.3, forward-secret suites only),
 * and everything else served over TLS exactly as over HTTP.
 */
class TlsTest {

    private static final TestCertificates CERTS = TestCertificates.get();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withTls(CERTS.serverCertificateChain(),
            CERTS.serverKey()));

    @RegisterExtension
    static final SharedServer strict = new SharedServer(o -> o.withTls(CERTS.serverCertificateChain(),
            CERTS.serverKey()).withConnectionLimits(ConnectionLimits.DEFAULTS
            .withHeaderTimeout(Duration.ofSeconds(3)).withIdleTimeout(Duration.ofMillis(500))));

    @Test
    void theSdkRunsATablesLifeOverHttps() {
        assertEquals("https", server.endpoint().getScheme());
        try (DynamoDbClient client = CERTS.client(server.endpoint())) {
            String table = StatorTestServer.tableName();
            StatorTestServer.createTable(client, table);
            client.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS("a"),
                    "n", AttributeValue.fromN("1.50"))));

            Map<String, AttributeValue> item = client.getItem(b -> b.tableName(table)
                    .key(Map.of("id", AttributeValue.fromS("a"))).consistentRead(true)).item();

            assertEquals("1.5", item.get("n").n());
            assertTrue(client.listTables().tableNames().contains(table));
            client.deleteTable(b -> b.tableName(table));
        }
    }

    @Test
    void theHealthCheckAndCorsAreServedOverTlsAsOverHttp() {
        try (RawHttp https = RawHttp.connectTls(server.port(), CERTS.clientContext())) {
            Response health = https.send(new Request("GET", "/", Map.of(), new byte[0])).read();
            Response preflight = https.send(new Request("OPTIONS", "/", Map.of("Origin", "https://example.com",
                    "Access-Control-Request-Method", "POST"), new byte[0])).read();

            assertEquals(200, health.status());
            assertEquals("healthy: 127.0.0.1:" + server.port() + " ", health.bodyText());
            assertEquals(200, preflight.status());
            assertEquals("*", preflight.header("Access-Control-Allow-Origin"));
            assertEquals("POST", preflight.header("Access-Control-Allow-Methods"));
            assertEquals("172800", preflight.header("Access-Control-Max-Age"));
        }
    }

    @Test
    void onlyTls12And13WithForwardSecrecyAreSpoken() throws IOException {
        try (SSLSocket tls13 = handshake(new String[] {"TLSv1.3"}, null)) {
            assertEquals("TLSv1.3", tls13.getSession().getProtocol());
        }
        try (SSLSocket tls12 = handshake(new String[] {"TLSv1.2"}, null)) {
            assertEquals("TLSv1.2", tls12.getSession().getProtocol());
            assertTrue(tls12.getSession().getCipherSuite().startsWith("TLS_ECDHE_"),
                    tls12.getSession().getCipherSuite());
        }
        // Only forward-secret suites (ECDHE, DHE, and TLS 1.3's), which DynamoDB requires its clients to support.
        for (String suite : TlsContexts.server(CERTS.serverCertificateChain(), CERTS.serverKey()).cipherSuites()) {
            assertTrue(suite.startsWith("TLS_ECDHE_") || suite.startsWith("TLS_DHE_") || suite.startsWith("TLS_AES_")
                    || suite.startsWith("TLS_CHACHA20_"), suite);
        }
    }

    /**
     * A TLS 1.2 client that asks for a second handshake on its connection (client-initiated
     * renegotiation: each one makes the server redo its key exchange, at the client's will) is
     * refused, and its connection ends without serving it; the hostile probe of issue 29 had one
     * accepted. TLS 1.3 has no renegotiation at all.
     */
    @Test
    void clientInitiatedRenegotiationIsRefused() throws IOException {
        try (SSLSocket tls12 = handshake(new String[] {"TLSv1.2"}, null)) {
            tls12.startHandshake(); // a second handshake on an established connection
            byte[] request = ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            IOException refused = assertThrows(IOException.class, () -> {
                tls12.getOutputStream().write(request);
                tls12.getOutputStream().flush();
                if (tls12.getInputStream().read() < 0) throw new IOException("closed without a reply");
            });
            assertTrue(refused.getMessage() != null, refused::toString);
        }
        // An ordinary TLS 1.2 connection is served as before.
        try (SSLSocket tls12 = handshake(new String[] {"TLSv1.2"}, null)) {
            tls12.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            tls12.getOutputStream().flush();
            assertEquals('H', tls12.getInputStream().read());
        }
    }

    private static SSLSocket handshake(String[] protocols, String[] suites) throws IOException {
        SSLSocket socket = (SSLSocket) CERTS.clientContext().getSocketFactory().createSocket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            socket.setSoTimeout(10_000);
            socket.setEnabledProtocols(protocols);
            if (suites != null) socket.setEnabledCipherSuites(suites);
            socket.startHandshake();
            return socket;
        } catch (IOException | IllegalArgumentException e) {
            socket.close();
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    @Test
    void plainHttpOnTheTlsPortIsClosedWithoutAReply() {
        try (RawHttp http = RawHttp.connect(server.port())) {
            http.send(new Request("GET", "/", Map.of(), new byte[0]));
            http.awaitClose(Duration.ofSeconds(10));
        }
    }

    @Test
    void aConnectionThatNeverStartsItsHandshakeIsClosedAtTheHeaderTimeout() {
        try (RawHttp silent = RawHttp.connect(strict.port())) {
            silent.awaitClose(Duration.ofSeconds(10));
        }
    }

    @Test
    void anIdleTlsConnectionIsClosedAtTheIdleTimeout() {
        try (RawHttp https = RawHttp.connectTls(strict.port(), CERTS.clientContext())) {
            assertEquals(200, https.send(new Request("GET", "/", Map.of(), new byte[0])).read().status());
            https.awaitClose(Duration.ofSeconds(10));
        }
    }

    @Test
    void anRsaKeyInPkcs1FormServesToo() {
        try (StatorTestServer pkcs1 = StatorTestServer.start(o -> o.withTls(CERTS.serverCertificateChain(),
                CERTS.serverKeyPkcs1()));
             DynamoDbClient client = CERTS.client(pkcs1.endpoint())) {
            assertEquals("https", pkcs1.endpoint().getScheme());
            client.listTables();
        }
    }

    @Test
    void aKeyOfAnotherCertificateIsRefusedAtStart() {
        String reason = startFailure(o -> o.withTls(CERTS.serverCertificateChain(), CERTS.otherKey()));

        assertTrue(reason.contains("does not belong to the certificate"), reason);
    }

    @Test
    void anEncryptedKeyIsRefusedAtStartSayingHowToDecryptIt() throws IOException {
        Path encrypted = CERTS.directory().resolve("encrypted-key.pem");
        Files.writeString(encrypted, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0B"
                + "\n-----END ENCRYPTED PRIVATE KEY-----\n");

        String reason = startFailure(o -> o.withTls(CERTS.serverCertificateChain(), encrypted));

        assertTrue(reason.contains("encrypted") && reason.contains("openssl pkcs8"), reason);
    }

    @Test
    void aCertificateFileWithoutACertificateIsRefusedAtStart() {
        String reason = startFailure(o -> o.withTls(CERTS.serverKey(), CERTS.serverKey()));

        assertTrue(reason.contains("no certificate"), reason);
    }

    @Test
    void aKeyFileWithoutAKeyIsRefusedAtStart() throws IOException {
        Path notAKey = CERTS.directory().resolve("not-a-key.pem");
        Files.writeString(notAKey, "hello\n", StandardCharsets.US_ASCII);

        String reason = startFailure(o -> o.withTls(CERTS.serverCertificateChain(), notAKey));

        assertTrue(reason.contains("no private key"), reason);
    }

    private static String startFailure(java.util.function.UnaryOperator<ServerOptions> adjust) {
        Path dir;
        try {
            dir = Files.createTempDirectory("stator-tls-start-");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try {
            Exception e = assertThrows(Exception.class, () -> StatorServer.start(adjust.apply(
                    ServerOptions.defaults(dir).withPort(0).withInMemory(true))).close());
            return e.getMessage();
        } finally {
            StatorTestServer.deleteRecursively(dir);
        }
    }
}
