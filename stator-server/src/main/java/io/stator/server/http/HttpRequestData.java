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

    /** The last value of the header (name in lower case), or null. */
    public String lastHeader(String lowerCaseName) {
        List<String> values = headers.get(lowerCaseName);
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
    }
}
