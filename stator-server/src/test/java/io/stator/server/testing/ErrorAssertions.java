package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/** Assertions on the errors DynamoDB answers with, as a client sees them. */
public final class ErrorAssertions {

    private ErrorAssertions() {}

    /**
     * Runs {@code call}, which must fail with HTTP 400 and DynamoDB's error of that code ("ValidationException",
     * "ResourceNotFoundException", ...) with exactly that message.
     */
    public static AwsServiceException assertError(String errorCode, String message, Executable call) {
        AwsServiceException e = assertThrows(AwsServiceException.class, call);
        assertEquals(errorCode, e.awsErrorDetails().errorCode(), () -> "message: " + e.awsErrorDetails().errorMessage());
        assertEquals(message, e.awsErrorDetails().errorMessage());
        assertEquals(400, e.statusCode());
        return e;
    }

    public static AwsServiceException assertValidation(String message, Executable call) {
        return assertError("ValidationException", message, call);
    }

    /** As {@link #assertError}, for a message that matches a regular expression (parts of it vary). */
    public static AwsServiceException assertErrorMatches(String errorCode, String messagePattern, Executable call) {
        AwsServiceException e = assertThrows(AwsServiceException.class, call);
        assertEquals(errorCode, e.awsErrorDetails().errorCode(), () -> "message: " + e.awsErrorDetails().errorMessage());
        String message = e.awsErrorDetails().errorMessage();
        assertTrue(Pattern.matches(messagePattern, message), () -> "message: " + message);
        assertEquals(400, e.statusCode());
        return e;
    }
}
