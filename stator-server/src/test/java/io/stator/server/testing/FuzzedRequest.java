package io.stator.server.testing;

import io.stator.server.protocol.ServiceModel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A fuzz input read as one DynamoDB request: the operation's name on the first line, then the
 * body ({@code "PutItem\n{\"TableName\": ...}"}), so that corpus files are readable and seeds
 * are written by hand. An input whose first line names no operation is all body, and its length
 * picks one of {@code operations}: mangled names still reach every operation.
 */
public record FuzzedRequest(String operation, byte[] body) {

    public static FuzzedRequest of(byte[] input, List<String> operations) {
        int newline = indexOf(input, (byte) '\n');
        if (newline >= 0) {
            String name = new String(input, 0, newline, StandardCharsets.UTF_8).strip();
            if (ServiceModel.get().operation(name) != null) {
                return new FuzzedRequest(name, Arrays.copyOfRange(input, newline + 1, input.length));
            }
        }
        return new FuzzedRequest(operations.get(input.length % operations.size()), input);
    }

    /** Every operation of DynamoDB's API, served or not, in a fixed order. */
    public static List<String> allOperations() {
        return ServiceModel.get().operationNames().stream().sorted().toList();
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) if (bytes[i] == b) return i;
        return -1;
    }
}
