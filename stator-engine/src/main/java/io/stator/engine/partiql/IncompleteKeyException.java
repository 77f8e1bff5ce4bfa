package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;

/**
 * A WHERE clause that does not name one item by its whole primary key, where a statement must:
 * a ValidationException apart, because ExecuteTransaction reports it as the statement's
 * cancellation reason (ValidationError) as it does a key of the wrong type (DynamoDB Local
 * does so; DynamoDB's own answer is not recorded).
 */
public final class IncompleteKeyException extends DynamoDbException {

    IncompleteKeyException(String message) {
        super(ErrorType.VALIDATION, message);
    }
}
