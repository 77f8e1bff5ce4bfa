package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.server.protocol.Struct;

/**
 * Refuses, with a clear ValidationException, request members Stator does not serve yet, so that
 * nothing a client asks for is silently accepted and ignored.
 */
final class NotYetSupported {

    private NotYetSupported() {}

    static void refuse(Struct request, String... members) {
        for (String member : members) {
            if (request.has(member)) {
                throw DynamoDbException.validation(member + " is not supported by Stator yet");
            }
        }
    }
}
