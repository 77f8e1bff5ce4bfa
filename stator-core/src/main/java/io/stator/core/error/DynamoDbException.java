package io.stator.core.error;

/**
 * An error DynamoDB would return to the client. Every layer throws these; only the HTTP edge
 * turns one into {@code {"__type": ..., "message": ...}}.
 *
 * <p>Stack traces are not filled in: these are expected outcomes of bad requests, thrown often,
 * and the trace would cost more than the rest of the request.
 */
public class DynamoDbException extends RuntimeException {

    private final ErrorType type;

    public DynamoDbException(ErrorType type, String message) {
        super(message, null, false, false);
        this.type = type;
    }

    public ErrorType type() { return type; }

    public static DynamoDbException validation(String message) {
        return new DynamoDbException(ErrorType.VALIDATION, message);
    }

    /** DynamoDB's prefix for most semantic validation errors. */
    public static DynamoDbException invalidParameter(String detail) {
        return validation("One or more parameter values were invalid: " + detail);
    }

    public static DynamoDbException serialization(String message) {
        return new DynamoDbException(ErrorType.SERIALIZATION, message);
    }

    public static DynamoDbException resourceNotFound(String message) {
        return new DynamoDbException(ErrorType.RESOURCE_NOT_FOUND, message);
    }

    public static DynamoDbException resourceInUse(String message) {
        return new DynamoDbException(ErrorType.RESOURCE_IN_USE, message);
    }

    public static DynamoDbException limitExceeded(String message) {
        return new DynamoDbException(ErrorType.LIMIT_EXCEEDED, message);
    }

    public static DynamoDbException unknownOperation(String message) {
        return new DynamoDbException(ErrorType.UNKNOWN_OPERATION, message);
    }

    public static DynamoDbException internal(String message) {
        return new DynamoDbException(ErrorType.INTERNAL_SERVER_ERROR, message);
    }
}
