package io.stator.server.auth;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The SigV4 canonical request, rebuilt from what arrived exactly as a signer builds it from
 * what it sent:
 * <pre>
 * METHOD \n canonical URI \n canonical query \n canonical headers \n signed headers \n payload hash
 * </pre>
 * <ul>
 * <li>Canonical URI: the raw path with dot segments removed, then URI-encoded once more with
 *     '/' kept. Every service but S3 signs the already-encoded path encoded again (the AWS
 *     SDKs' "double URL encode", on by default), so encoding the raw path reproduces what the
 *     signer hashed. DynamoDB's path is always "/".</li>
 * <li>Canonical query: every parameter decoded, then re-encoded with the strict SigV4 set
 *     (unreserved kept, everything else %XX uppercase), sorted by name then value, joined with
 *     '&amp;'; for query-string authentication, X-Amz-Signature itself is left out.</li>
 * <li>Canonical headers: for each name in SignedHeaders, in the order given, "name:values\n" with
 *     the name lowercased, each value trimmed and its inner whitespace runs folded to one space,
 *     several values joined with ','.</li>
 * </ul>
 */
final class CanonicalRequest {

    private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();

    private CanonicalRequest() {}

    static String build(SignedRequest request, List<String> signedHeaders, String signedHeadersLine,
                        QueryParameters query, boolean queryAuthentication) {
        StringBuilder sb = new StringBuilder(256);
        sb.append(request.method()).append('\n');
        sb.append(canonicalUri(request.rawPath())).append('\n');
        sb.append(canonicalQuery(query, queryAuthentication)).append('\n');
        for (String name : signedHeaders) {
            sb.append(name).append(':');
            List<String> values = request.headerValues(name);
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                appendFolded(sb, values.get(i));
            }
            sb.append('\n');
        }
        sb.append('\n');
        sb.append(signedHeadersLine).append('\n');
        sb.append(request.payloadSha256());
        return sb.toString();
    }

    static String stringToSign(String algorithm, String requestTime, String scope, String canonicalRequest) {
        return algorithm + '\n' + requestTime + '\n' + scope + '\n'
                + Crypto.hex(Crypto.sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
    }

    static String canonicalUri(String rawPath) {
        if (rawPath.isEmpty() || rawPath.equals("/")) {
            return "/";
        }
        return uriEncode(removeDotSegments(rawPath), true);
    }

    /** RFC 3986 section 5.2.4, as the SDKs' path normalization does; a trailing '/' is kept. */
    static String removeDotSegments(String path) {
        if (path.charAt(0) != '/') {
            path = "/" + path;
        }
        if (!path.contains("/.")) {
            return path;
        }
        String[] segments = path.split("/", -1);
        List<String> out = new ArrayList<>(segments.length);
        for (int i = 1; i < segments.length; i++) {
            String segment = segments[i];
            boolean last = i == segments.length - 1;
            if (segment.equals(".") || segment.equals("..")) {
                if (segment.equals("..") && !out.isEmpty()) {
                    out.remove(out.size() - 1);
                }
                if (last) {
                    out.add("");
                }
            } else {
                out.add(segment);
            }
        }
        return "/" + String.join("/", out);
    }

    static String canonicalQuery(QueryParameters query, boolean queryAuthentication) {
        if (query.isEmpty()) {
            return "";
        }
        List<String[]> encoded = new ArrayList<>(query.all().size());
        for (QueryParameters.Parameter p : query.all()) {
            if (queryAuthentication && p.name().equals("X-Amz-Signature")) {
                continue;
            }
            encoded.add(new String[] {uriEncode(p.name(), false), uriEncode(p.value(), false)});
        }
        encoded.sort(Comparator.<String[], String>comparing(p -> p[0]).thenComparing(p -> p[1]));
        StringBuilder sb = new StringBuilder();
        for (String[] p : encoded) {
            if (!sb.isEmpty()) {
                sb.append('&');
            }
            sb.append(p[0]).append('=').append(p[1]);
        }
        return sb.toString();
    }

    /** SigV4's URI encoding: A-Z a-z 0-9 - _ . ~ kept (and '/' when asked), all else %XX of UTF-8. */
    static String uriEncode(String s, boolean keepSlash) {
        int i = 0;
        while (i < s.length() && isUnreserved(s.charAt(i), keepSlash)) {
            i++;
        }
        if (i == s.length()) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        sb.append(s, 0, i);
        byte[] bytes = s.substring(i).getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            char c = (char) (b & 0xFF);
            if (isUnreserved(c, keepSlash)) {
                sb.append(c);
            } else {
                sb.append('%').append(HEX_UPPER[(b >> 4) & 0xF]).append(HEX_UPPER[b & 0xF]);
            }
        }
        return sb.toString();
    }

    private static boolean isUnreserved(char c, boolean keepSlash) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                || c == '-' || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/');
    }

    /** Appends {@code value} trimmed, with each inner run of whitespace folded to one space. */
    static void appendFolded(StringBuilder sb, String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isWhitespace(value.charAt(start))) {
            start++;
        }
        while (end > start && isWhitespace(value.charAt(end - 1))) {
            end--;
        }
        boolean inRun = false;
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            if (isWhitespace(c)) {
                inRun = true;
            } else {
                if (inRun) {
                    sb.append(' ');
                    inRun = false;
                }
                sb.append(c);
            }
        }
    }

    /** The whitespace the AWS SDKs fold: space, tab, LF, VT, FF, CR. */
    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
    }
}
