package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;

/**
 * A statement of a shape its operation can never run (an EXISTS without a condition besides its
 * key): ExecuteTransaction fails the whole request with it, naming the statement
 * ("Validation failed in TransactStatements[i]: ...").
 */
public final class UnfitStatementException extends DynamoDbException {

    UnfitStatementException(String message) {
        super(ErrorType.VALIDATION, message);
    }
}
