package io.stator.server.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A certificate authority made for this test run, and a server certificate it signed for
 * 127.0.0.1 and localhost, as PEM files in a temporary directory (deleted when the JVM exits):
 * nothing secret is committed. Made once per JVM with the JDK's own keytool (a few seconds).
 */
public final class TestCertificates {

    private static final String PASSWORD = "stator-test";
    private static TestCertificates instance;

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** The certificates of this JVM, made on first use. */
    public static synchronized TestCertificates get() {
        if (instance == null) {
            try {
                Path dir = Files.createTempDirectory("stator-tls-");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> StatorTestServer.deleteRecursively(dir)));
                instance = new TestCertificates(dir);
                instance.make();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** The CA's certificate, for a client's trust (e.g. the AWS CLI's --ca-bundle). */
    public Path caCertificate() { return dir.resolve("ca.pem"); }

    /** The server's certificate followed by the CA's (the chain a server sends). */
    public Path serverCertificateChain() { return dir.resolve("server-chain.pem"); }

    /** The server's private key, PKCS#8 ("BEGIN PRIVATE KEY"). */
    public Path serverKey() { return dir.resolve("server-key.pem"); }

    /** The same key in PKCS#1 ("BEGIN RSA PRIVATE KEY"), as older openssl writes RSA keys. */
    public Path serverKeyPkcs1() { return dir.resolve("server-key-rsa.pem"); }

    /** An RSA key that belongs to no certificate here, PKCS#8. */
    public Path otherKey() { return dir.resolve("other-key.pem"); }

    public Path directory() { return dir; }

    private void make() throws IOException {
        Path ca = dir.resolve("ca.p12");
        Path server = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3",
                "-dname", "CN=Stator Test CA", "-ext", "bc:c", "-ext", "ku:c=keyCertSign,cRLSign",
                "-keystore", ca.toString());
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-file",
                caCertificate().toString());
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3",
                "-dname", "CN=localhost", "-keystore", server.toString());
        keytool("-certreq", "-alias", "server", "-keystore", server.toString(), "-file",
                dir.resolve("server.csr").toString());
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-validity", "3",
                "-infile", dir.resolve("server.csr").toString(), "-outfile", dir.resolve("server.pem").toString(),
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-ext", "ku:c=digitalSignature,keyEncipherment",
                "-ext", "eku=serverAuth");
        Files.writeString(serverCertificateChain(), Files.readString(dir.resolve("server.pem"))
                + Files.readString(caCertificate()));
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(server)) {
                keys.load(in, PASSWORD.toCharArray());
            }
            byte[] pkcs8 = ((PrivateKey) keys.getKey("server", PASSWORD.toCharArray())).getEncoded();
            Files.writeString(serverKey(), pem("PRIVATE KEY", pkcs8));
            Files.writeString(serverKeyPkcs1(), pem("RSA PRIVATE KEY", pkcs1Of(pkcs8)));
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            Files.writeString(otherKey(), pem("PRIVATE KEY", generator.generateKeyPair().getPrivate().getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(Arrays.asList(args));
        command.addAll(List.of("-storepass", PASSWORD, "-keypass", PASSWORD, "-storetype", "PKCS12", "-noprompt"));
        try {
            CommandProcess.Result r = CommandProcess.run(command, dir, Map.of(), Duration.ofSeconds(60));
            if (r.exit() != 0) throw new IllegalStateException("keytool " + String.join(" ", args) + ": " + r);
        } catch (Exception e) {
            throw new IllegalStateException("cannot run keytool", e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /**
     * The RSAPrivateKey (PKCS#1) inside a PrivateKeyInfo (PKCS#8): the contents of its last
     * element, an OCTET STRING after the version and the algorithm.
     */
    private static byte[] pkcs1Of(byte[] pkcs8) {
        int[] at = {0};
        readHeader(pkcs8, at, 0x30);
        int version = readHeader(pkcs8, at, 0x02);
        at[0] += version;
        int algorithm = readHeader(pkcs8, at, 0x30);
        at[0] += algorithm;
        int key = readHeader(pkcs8, at, 0x04);
        return Arrays.copyOfRange(pkcs8, at[0], at[0] + key);
    }

    /** Reads a DER tag (which must be {@code tag}) and length; returns the length, leaves {@code at} on the contents. */
    private static int readHeader(byte[] der, int[] at, int tag) {
        if ((der[at[0]++] & 0xff) != tag) throw new IllegalArgumentException("unexpected DER tag");
        int length = der[at[0]++] & 0xff;
        if (length < 0x80) return length;
        int bytes = length & 0x7f;
        length = 0;
        for (int i = 0; i < bytes; i++) length = (length << 8) | (der[at[0]++] & 0xff);
        return length;
    }

    /** Trust managers that trust the test CA (and nothing else). */
    public TrustManager[] trustManagers() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = Files.newInputStream(caCertificate())) {
                Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
                trust.setCertificateEntry("stator-test-ca", ca);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A client-side TLS context that trusts the test CA. */
    public SSLContext clientContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An AWS SDK client of an HTTPS endpoint whose certificate the test CA signed; no retries. */
    public DynamoDbClient client(URI endpoint) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.builder()
                        .tlsTrustManagersProvider(this::trustManagers)
                        .socketTimeout(Duration.ofSeconds(30))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD).retryStrategy(b -> b.maxAttempts(1))
                        .build())
                .build();
    }
}
