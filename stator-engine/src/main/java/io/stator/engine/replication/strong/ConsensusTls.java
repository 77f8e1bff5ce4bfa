package io.stator.engine.replication.strong;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.ratis.grpc.GrpcTlsConfig;

/**
 * Who may speak to a region's consensus server: its peer regions, each proving it with its own
 * key over mutual TLS. The consensus port takes Raft's messages (votes, log entries), which write
 * a table's items in every region: unauthenticated, anyone who reached the port could write them
 * past every check of the DynamoDB front end.
 *
 * <p>Each region makes its key and a self-signed certificate at its first start (the JDK's
 * keytool, EC P-256, kept in {@code tls/consensus.p12} of the consensus directory) and trusts
 * exactly its peers' certificates, pinned: a region learns them from the peers themselves over the
 * replication channel, whose messages the replication secret signs ({@link #pin}), and keeps
 * them ({@code tls/peers/<region>.der}) so that after a restart it trusts a peer that is away.
 * No certificate authority, no host names: a certificate is trusted because an authenticated peer
 * sent it. A certificate not pinned is refused and noted ({@link #stale}), so that the peers' are
 * fetched again (a peer whose data directory was replaced has a new key).
 */
public final class ConsensusTls {

    private static final String ALIAS = "consensus";
    /** The key store's password: the file is protected as the data directory is, not by it. */
    private static final char[] PASSWORD = "stator-consensus".toCharArray();

    private final byte[] own;
    private final Path peers;
    private final Map<String, ByteBuffer> pinned = new ConcurrentHashMap<>();
    private volatile boolean stale;
    private final GrpcTlsConfig config;

    private ConsensusTls(KeyStore keys, Path peers) throws GeneralSecurityException, IOException {
        this.own = keys.getCertificate(ALIAS).getEncoded();
        this.peers = peers;
        Files.createDirectories(peers);
        try (var files = Files.list(peers)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.endsWith(".der")) pinned.put(name.substring(0, name.length() - 4), ByteBuffer.wrap(Files.readAllBytes(f)));
            }
        }
        KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        km.init(keys, PASSWORD);
        this.config = new GrpcTlsConfig(km.getKeyManagers()[0], new PinnedPeers(), true);
    }

    /** The region's key and pins in {@code directory}, its key made on first use. */
    public static ConsensusTls open(Path directory, String region) throws IOException {
        Path store = directory.resolve("consensus.p12");
        try {
            if (!Files.exists(store)) make(directory, store, region);
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, PASSWORD);
            }
            return new ConsensusTls(keys, directory.resolve("peers"));
        } catch (GeneralSecurityException e) {
            throw new IOException("the consensus key in " + store + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static void make(Path directory, Path store, String region) throws IOException {
        Files.createDirectories(directory);
        Path made = directory.resolve("consensus.p12.tmp");
        Files.deleteIfExists(made);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname",
                "secp256r1", "-sigalg", "SHA256withECDSA", "-dname", "CN=stator consensus " + region, "-validity",
                "36500", "-storetype", "PKCS12", "-keystore", made.toString(), "-storepass", new String(PASSWORD),
                "-keypass", new String(PASSWORD)).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("keytool could not make the consensus key: " + output);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making the consensus key", e);
        }
        Files.move(made, store, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Ratis' TLS settings: this key, the pinned peers, client certificates required. */
    public GrpcTlsConfig config() {
        return config;
    }

    /** This region's certificate (DER), as its peers pin it. */
    public byte[] certificate() {
        return own.clone();
    }

    /** Whether a peer's certificate is pinned. */
    public boolean pinned(String region) {
        return pinned.containsKey(region);
    }

    /** True once a certificate not pinned was refused: the peers' are to be fetched again. */
    public boolean stale() {
        return stale;
    }

    /**
     * Pins a peer region's certificate (DER), as it sent it over the authenticated replication
     * channel, and keeps it.
     */
    public void pin(String region, byte[] certificate) throws IOException {
        try {
            CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(certificate));
        } catch (CertificateException e) {
            throw new IOException("region " + region + " sent no certificate: " + e.getMessage(), e);
        }
        Path file = peers.resolve(region + ".der");
        Path written = peers.resolve(region + ".der.tmp");
        Files.write(written, certificate);
        Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        pinned.put(region, ByteBuffer.wrap(certificate.clone()));
        stale = false;
    }

    /** Trusts this region's own certificate (its client speaks to its own server too) and the pinned ones. */
    private final class PinnedPeers extends X509ExtendedTrustManager {

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length == 0) throw new CertificateException("no certificate");
            ByteBuffer presented = ByteBuffer.wrap(chain[0].getEncoded());
            if (presented.equals(ByteBuffer.wrap(own))) return;
            Set<ByteBuffer> known = Set.copyOf(pinned.values());
            if (known.contains(presented)) return;
            stale = true;
            throw new CertificateException("not the consensus certificate of a peer region: "
                    + chain[0].getSubjectX500Principal());
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            check(chain);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
