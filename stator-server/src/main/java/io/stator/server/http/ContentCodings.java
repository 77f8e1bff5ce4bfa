package io.stator.server.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;

/**
 * Compressed bodies as DynamoDB takes and gives them. What DynamoDB does was recorded by
 * ScyllaDB's Alternator tests, which run against DynamoDB (scylladb/scylladb
 * test/alternator/test_compressed_request.py, test_compressed_response.py, test_crc.py):
 *
 * <ul>
 *   <li>requests: {@code Content-Encoding: gzip} (several members joined are one body) and
 *       {@code deflate} (zlib's format; a second stream after the first is refused) are
 *       accepted, the signature covering the compressed bytes; any other coding, a body that
 *       is not what it claims (empty, garbage, cut short) is an InternalServerError (HTTP 500);
 *       DynamoDB accepts junk after a complete gzip member, and so does this. The 16 MB limit
 *       applies to the body once decompressed (DynamoDB fixed its "decompression bomb" in 2026,
 *       scylladb PR #28820; its status then is not recorded: 413, as for a body too large).</li>
 *   <li>responses: compressed when {@code Accept-Encoding} allows gzip or deflate and the body is
 *       over 4 KB ({@link #RESPONSE_THRESHOLD}); {@code x-amz-crc32} is then the CRC32 of the
 *       compressed bytes (test_crc.py; the SDKs check it so). Accept-Encoding is read as
 *       DynamoDB reads it (test_compressed_response_accept_encodings, about 30 cases): only the
 *       last such header counts; codings are case-insensitive; a q value above 1 counts as 1,
 *       one below 0 as 0, one that is not a number as 1, and the first q of a coding wins; a
 *       coding listed twice takes its highest q; {@code *} stands for each coding not listed;
 *       the highest q wins, then the coding listed first, then gzip; {@code x-gzip},
 *       {@code br}, {@code identity} and the like compress nothing.</li>
 * </ul>
 */
public final class ContentCodings {

    /** Responses larger than this are compressed when the client allows it (DynamoDB's 4 KB). */
    public static final int RESPONSE_THRESHOLD = 4096;

    /** Why a body could not be decoded. */
    public static final class UndecodableException extends Exception {
        UndecodableException(String message) {
            super(message, null, false, false);
        }
    }

    /** A body larger than allowed once decompressed. */
    public static final class TooLargeException extends Exception {
        TooLargeException() {
            super(null, null, false, false);
        }
    }

    private ContentCodings() {}

    /**
     * The body as sent before its Content-Encoding (null or absent: as it is).
     *
     * @param maxBytes the largest decoded body allowed
     */
    public static byte[] decode(String contentEncoding, byte[] body, int maxBytes)
            throws UndecodableException, TooLargeException {
        if (contentEncoding == null) return body;
        String coding = contentEncoding.trim().toLowerCase(Locale.ROOT);
        return switch (coding) {
            case "", "identity" -> body;
            case "gzip" -> gunzip(body, maxBytes);
            case "deflate" -> inflate(body, maxBytes);
            default -> throw new UndecodableException("unsupported Content-Encoding: " + contentEncoding);
        };
    }

    private static byte[] gunzip(byte[] body, int maxBytes) throws UndecodableException, TooLargeException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body), 8192)) {
            return readAtMost(in, maxBytes);
        } catch (IOException e) {
            throw new UndecodableException("not gzip: " + e.getMessage());
        }
    }

    private static byte[] inflate(byte[] body, int maxBytes) throws UndecodableException, TooLargeException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(body);
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxBytes, Math.max(64, body.length * 4)));
            byte[] chunk = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new UndecodableException("deflate stream cut short");
                }
                if (out.size() + n > maxBytes) throw new TooLargeException();
                out.write(chunk, 0, n);
            }
            if (inflater.getRemaining() > 0) throw new UndecodableException("bytes after the deflate stream");
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new UndecodableException("not deflate: " + e.getMessage());
        } finally {
            inflater.end();
        }
    }

    private static byte[] readAtMost(InputStream in, int maxBytes) throws IOException, TooLargeException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        int n;
        while ((n = in.read(chunk)) > 0) {
            if (out.size() + n > maxBytes) throw new TooLargeException();
            out.write(chunk, 0, n);
        }
        return out.toByteArray();
    }

    /** The coding to compress a response with ("gzip" or "deflate"), or null for none. */
    public static String negotiate(String acceptEncoding) {
        if (acceptEncoding == null) return null;
        double gzip = -1;
        double deflate = -1;
        double any = -1;
        int gzipAt = Integer.MAX_VALUE;
        int deflateAt = Integer.MAX_VALUE;
        String[] elements = acceptEncoding.split(",", -1);
        for (int i = 0; i < elements.length; i++) {
            String[] parts = elements[i].split(";", -1);
            String coding = parts[0].trim().toLowerCase(Locale.ROOT);
            double q = quality(parts);
            switch (coding) {
                case "gzip" -> {
                    gzip = Math.max(gzip, q);
                    gzipAt = Math.min(gzipAt, i);
                }
                case "deflate" -> {
                    deflate = Math.max(deflate, q);
                    deflateAt = Math.min(deflateAt, i);
                }
                case "*" -> any = Math.max(any, q);
                default -> { }
            }
        }
        if (gzip < 0) gzip = Math.max(any, 0);
        if (deflate < 0) deflate = Math.max(any, 0);
        if (gzip <= 0 && deflate <= 0) return null;
        if (gzip != deflate) return gzip > deflate ? "gzip" : "deflate";
        return deflateAt < gzipAt ? "deflate" : "gzip";
    }

    /** The first q parameter's value, within [0, 1]; 1 when absent or not a number. */
    private static double quality(String[] parts) {
        for (int p = 1; p < parts.length; p++) {
            String param = parts[p].trim();
            if (param.length() < 2 || Character.toLowerCase(param.charAt(0)) != 'q' || param.charAt(1) != '=') continue;
            try {
                double q = Double.parseDouble(param.substring(2).trim());
                if (Double.isNaN(q)) return 1;
                return Math.max(0, Math.min(1, q));
            } catch (NumberFormatException e) {
                return 1;
            }
        }
        return 1;
    }

    /** The body compressed with the coding {@link #negotiate} chose. */
    public static byte[] encode(String coding, byte[] body) {
        return encode(coding, new HttpReply(200, body)).toByteArray();
    }

    /** The reply's body compressed with the coding {@link #negotiate} chose, read and written in chunks. */
    public static BodyChunks encode(String coding, HttpReply reply) {
        BodyChunks out = new BodyChunks();
        try {
            if (coding.equals("gzip")) {
                try (GZIPOutputStream gzip = new GZIPOutputStream(out, 8192)) {
                    writeBody(reply, gzip);
                }
            } else {
                Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
                try (DeflaterOutputStream deflate = new DeflaterOutputStream(out, deflater, 8192)) {
                    writeBody(reply, deflate);
                } finally {
                    deflater.end();
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("compressing in memory", e); // no I/O happens
        }
        return out;
    }

    private static void writeBody(HttpReply reply, OutputStream out) throws IOException {
        try {
            reply.forEachChunk((chunk, length) -> {
                try {
                    out.write(chunk, 0, length);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
