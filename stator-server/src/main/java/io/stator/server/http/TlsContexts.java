package io.stator.server.http;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server's TLS context, from the PEM files people have: a certificate chain (the server's
 * certificate first, then any intermediates) and its private key, PKCS#8 ({@code BEGIN PRIVATE
 * KEY}, what OpenSSL 3, certbot and mkcert write) or, for RSA, PKCS#1 ({@code BEGIN RSA PRIVATE
 * KEY}, what older OpenSSL writes), which is rewrapped as PKCS#8 here rather than bringing in
 * a PEM library. Anything else is refused at start with the openssl command that converts it.
 *
 * <p>The JDK's own TLS (no native library), TLS 1.2 and 1.3 only, and only cipher suites with
 * forward secrecy: DynamoDB's endpoints take TLS 1.2 or 1.3 from clients that support ECDHE or
 * DHE suites ("Infrastructure security in Amazon DynamoDB"). HTTP/1.1 only: no ALPN is
 * offered, so a client that would speak HTTP/2 falls back to HTTP/1.1, as it must.
 *
 * <p>No client-initiated renegotiation: a TLS 1.2 client that asks for another handshake on its
 * connection gets a handshake failure and loses the connection. Each renegotiation makes the
 * server redo its key exchange, its costliest step, as often as one client likes; no DynamoDB
 * client needs it (the SDKs never renegotiate, and TLS 1.3 dropped it). The JDK's switch is a
 * system property read once, when the JVM makes its first server handshake
 * ({@code jdk.tls.rejectClientInitiatedRenegotiation}, "JSSE Reference Guide"), so it is set here,
 * before any context is built, unless it was set on the command line.
 */
public final class TlsContexts {

    private static final String REJECT_RENEGOTIATION = "jdk.tls.rejectClientInitiatedRenegotiation";

    static {
        if (System.getProperty(REJECT_RENEGOTIATION) == null) {
            System.setProperty(REJECT_RENEGOTIATION, "true");
        }
    }

    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*(.*?)-----END \\1-----", Pattern.DOTALL);
    /** The OID of rsaEncryption, DER-encoded, with the NULL parameters: PKCS#8's AlgorithmIdentifier for RSA. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    private TlsContexts() {}

    /**
     * A server context for the chain in {@code certificateFile} and the key in {@code keyFile}.
     * Throws IllegalArgumentException with a reason fit for the user (naming the file) when a
     * file cannot be read, holds no certificate or no usable key, or when the key is not the
     * certificate's.
     */
    public static SslContext server(Path certificateFile, Path keyFile) {
        List<X509Certificate> chain = readCertificates(certificateFile);
        PrivateKey key = readPrivateKey(keyFile);
        checkPair(chain.get(0), key, certificateFile, keyFile);
        try {
            return SslContextBuilder.forServer(key, chain)
                    .sslProvider(SslProvider.JDK)
                    .protocols("TLSv1.3", "TLSv1.2")
                    .ciphers(null, (ciphers, defaults, supported) -> defaults.stream()
                            .filter(TlsContexts::forwardSecret).filter(supported::contains).toArray(String[]::new))
                    .build();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot use the TLS certificate " + certificateFile + " and key "
                    + keyFile + ": " + e.getMessage(), e);
        }
    }

    private static boolean forwardSecret(String suite) {
        return suite.startsWith("TLS_ECDHE_") || suite.startsWith("TLS_DHE_")
                // TLS 1.3's suites, whose key exchange is always ephemeral
                || suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_");
    }

    private static List<X509Certificate> readCertificates(Path file) {
        byte[] bytes = read(file, "TLS certificate");
        List<X509Certificate> chain = new ArrayList<>();
        try {
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(
                    new ByteArrayInputStream(pemBlocksOnly(bytes, "CERTIFICATE")))) {
                chain.add((X509Certificate) c);
            }
        } catch (CertificateException e) {
            throw new IllegalArgumentException("cannot read the TLS certificate " + file + ": " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("no certificate in " + file
                    + " (expected PEM: -----BEGIN CERTIFICATE-----)");
        }
        return chain;
    }

    /** The PEM blocks of {@code type} only, so that text around them (openssl's "subject=" lines) is skipped. */
    private static byte[] pemBlocksOnly(byte[] bytes, String type) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Matcher m = PEM.matcher(new String(bytes, StandardCharsets.US_ASCII));
        while (m.find()) {
            if (m.group(1).equals(type)) out.writeBytes((m.group() + "\n").getBytes(StandardCharsets.US_ASCII));
        }
        return out.toByteArray();
    }

    private static PrivateKey readPrivateKey(Path file) {
        Matcher m = PEM.matcher(new String(read(file, "TLS key"), StandardCharsets.US_ASCII));
        while (m.find()) {
            String type = m.group(1);
            switch (type) {
                case "PRIVATE KEY" -> {
                    return pkcs8(decode(m.group(2), file), file);
                }
                case "RSA PRIVATE KEY" -> {
                    if (m.group(2).contains("ENCRYPTED")) throw encrypted(file);
                    return pkcs8(wrapRsa(decode(m.group(2), file)), file);
                }
                case "ENCRYPTED PRIVATE KEY" -> throw encrypted(file);
                case "EC PRIVATE KEY" -> throw new IllegalArgumentException("the key in " + file + " is in SEC1 form "
                        + "(BEGIN EC PRIVATE KEY); convert it to PKCS#8: openssl pkcs8 -topk8 -nocrypt -in " + file
                        + " -out key.pem");
                default -> {
                    // a certificate or parameters beside the key: look further
                }
            }
        }
        throw new IllegalArgumentException("no private key in " + file
                + " (expected PEM: -----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----)");
    }

    private static IllegalArgumentException encrypted(Path file) {
        return new IllegalArgumentException("the key in " + file + " is encrypted; Stator needs it decrypted: "
                + "openssl pkcs8 -in " + file + " -out key.pem (it then begins -----BEGIN PRIVATE KEY-----)");
    }

    private static byte[] decode(String base64, Path file) {
        try {
            return Base64.getMimeDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the key in " + file + " is not valid PEM: " + e.getMessage(), e);
        }
    }

    /** The algorithms a TLS server key may have; PKCS#8 says which, and each KeyFactory refuses the others. */
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448"};

    private static PrivateKey pkcs8(byte[] der, Path file) {
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException | RuntimeException e) {
                // not this algorithm
            }
        }
        throw new IllegalArgumentException("cannot read the key in " + file + ": not an RSA, EC or EdDSA key in "
                + "PKCS#8 form");
    }

    /**
     * PKCS#1's RSAPrivateKey inside PKCS#8's PrivateKeyInfo: SEQUENCE { INTEGER 0,
     * AlgorithmIdentifier { rsaEncryption, NULL }, OCTET STRING { the PKCS#1 key } }.
     */
    static byte[] wrapRsa(byte[] pkcs1) {
        byte[] version = {0x02, 0x01, 0x00};
        byte[] octets = derHeader(0x04, pkcs1.length);
        int length = version.length + RSA_ALGORITHM.length + octets.length + pkcs1.length;
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.writeBytes(derHeader(0x30, length));
        out.writeBytes(version);
        out.writeBytes(RSA_ALGORITHM);
        out.writeBytes(octets);
        out.writeBytes(pkcs1);
        return out.toByteArray();
    }

    private static byte[] derHeader(int tag, int length) {
        if (length < 0x80) return new byte[] {(byte) tag, (byte) length};
        int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
        byte[] header = new byte[2 + bytes];
        header[0] = (byte) tag;
        header[1] = (byte) (0x80 | bytes);
        for (int i = 0; i < bytes; i++) header[2 + i] = (byte) (length >>> (8 * (bytes - 1 - i)));
        return header;
    }

    /**
     * Checked at start, because the JDK would only find out at the first handshake, and every
     * client would then see a handshake failure without a reason: a signature made with the key
     * must verify with the certificate's public key.
     */
    private static void checkPair(X509Certificate certificate, PrivateKey key, Path certificateFile, Path keyFile) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();  // Ed25519, Ed448
        };
        boolean belongs;
        try {
            byte[] challenge = new byte[32];
            new SecureRandom().nextBytes(challenge);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            signer.initVerify(certificate.getPublicKey());
            signer.update(challenge);
            belongs = signer.verify(signature);
        } catch (GeneralSecurityException e) {
            belongs = false;
        }
        if (!belongs) {
            throw new IllegalArgumentException("the key in " + keyFile + " does not belong to the certificate in "
                    + certificateFile + " (the first certificate there must be the server's own)");
        }
    }

    private static byte[] read(Path file, String what) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the " + what + " file " + file + ": " + e.getMessage(), e);
        }
    }
}
