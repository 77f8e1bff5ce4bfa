package io.stator.server.http;

import java.util.List;
import java.util.Map;

/**
 * One HTTP request as the protocol layer sees it: no Netty types past this point.
 *
 * @param headers header values by lower-case name
 */
public record HttpRequestData(String method, String path, String query, Map<String, List<String>> headers,
                              byte[] body) {

    /** The first value of the header (name in lower case), or null. */
    public String header(String lowerCaseName) {
        List<String> values = headers.get(lowerCaseName);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * The header (name in lower case) as one value: sent on several lines, its values joined with
     * ',' (RFC 9110 section 5.3), as a SigV4 signature covers it; null when absent. For the
     * headers that choose what a request does, so that a repeated one is read whole, never as
     * its first line.
     */
    public String field(String lowerCaseName) {
        List<String> values = headers.get(lowerCaseName);
        if (values == null || values.isEmpty()) return null;
        return values.size() == 1 ? values.get(0) : String.join(",", values);
    }

    /** The last value of the header (name in lower case), or null. */
    public String lastHeader(String lowerCaseName) {
        List<String> values = headers.get(lowerCaseName);
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
    }
}
