package io.stator.engine.item;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;

/**
 * A ValidationException for a key that does not fit the table's key schema (an attribute
 * missing, extra, or of another type). Apart because TransactWriteItems reports these as the
 * action's cancellation reason (ValidationError), not as the request's error, as DynamoDB does.
 */
public final class KeySchemaMismatchException extends DynamoDbException {

    KeySchemaMismatchException(String message) {
        super(ErrorType.VALIDATION, message);
    }
}
