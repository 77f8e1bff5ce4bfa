package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;

/**
 * Refuses, with a clear ValidationException, request members Stator does not serve yet, so that
 * nothing a client asks for is silently accepted and ignored. Checked before DynamoDB's own
 * checks of the request.
 */
public final class NotYetSupported {

    private NotYetSupported() {}

    public static void refuse(ExpressionParameters.Member... members) {
        for (ExpressionParameters.Member member : members) {
            if (member.present()) {
                throw DynamoDbException.validation(member.name() + " is not supported by Stator yet");
            }
        }
    }
}
