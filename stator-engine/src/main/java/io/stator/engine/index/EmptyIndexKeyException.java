package io.stator.engine.index;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;

/**
 * An empty string or binary written as a secondary index key value. DynamoDB refuses the whole
 * request for it, even inside TransactWriteItems, where an index key of the wrong type only
 * cancels the transaction with a ValidationError reason (conformance runs against DynamoDB,
 * docs/dynamodb/indexes.md §4.2): transactions tell the two apart by this class.
 */
public final class EmptyIndexKeyException extends DynamoDbException {

    EmptyIndexKeyException(String message) {
        super(ErrorType.VALIDATION, message);
    }
}
