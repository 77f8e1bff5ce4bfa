package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import java.util.Map;

/**
 * DynamoDB's ConditionalCheckFailedException: "The conditional request failed", carrying the
 * item as it was when the request asked for it (ReturnValuesOnConditionCheckFailure=ALL_OLD).
 */
public final class ConditionalCheckFailedException extends DynamoDbException {

    private final transient Map<String, AttributeValue> item;

    /** @param item the item as it was, or null when it is not to be returned (or did not exist) */
    public ConditionalCheckFailedException(Map<String, AttributeValue> item) {
        super(ErrorType.CONDITIONAL_CHECK_FAILED, "The conditional request failed");
        this.item = item;
    }

    /** The old item to return with the error, or null. */
    public Map<String, AttributeValue> item() { return item; }
}
