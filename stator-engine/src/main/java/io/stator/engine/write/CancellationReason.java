package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import java.util.Map;

/**
 * Why one action of a cancelled transaction did not go through, as DynamoDB reports it in
 * TransactionCanceledException's CancellationReasons: a code ("None" for an action that was
 * fine), a message, and for a failed condition the item when the action asked for it.
 *
 * @param message null for None
 * @param item    the item as it was (ReturnValuesOnConditionCheckFailure=ALL_OLD), or null
 */
public record CancellationReason(String code, String message, Map<String, AttributeValue> item) {

    public static final CancellationReason NONE = new CancellationReason("None", null, null);

    public static final String CONDITIONAL_CHECK_FAILED = "ConditionalCheckFailed";
    public static final String TRANSACTION_CONFLICT = "TransactionConflict";
    public static final String VALIDATION_ERROR = "ValidationError";
    public static final String ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED = "ItemCollectionSizeLimitExceeded";
    public static final String PROVISIONED_THROUGHPUT_EXCEEDED = "ProvisionedThroughputExceeded";
    public static final String THROTTLING_ERROR = "ThrottlingError";

    public boolean isNone() { return this == NONE || code.equals("None"); }

    /** The reason an action failed with this error. */
    public static CancellationReason of(DynamoDbException e) {
        if (e instanceof ConditionalCheckFailedException failed) {
            return new CancellationReason(CONDITIONAL_CHECK_FAILED, e.getMessage(), failed.item());
        }
        String code = switch (e.type()) {
            case ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED -> ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED;
            case TRANSACTION_CONFLICT -> TRANSACTION_CONFLICT;
            // The codes of a throttled action (API reference, TransactionCanceledException).
            case PROVISIONED_THROUGHPUT_EXCEEDED -> PROVISIONED_THROUGHPUT_EXCEEDED;
            case THROTTLING, REQUEST_LIMIT_EXCEEDED -> THROTTLING_ERROR;
            default -> VALIDATION_ERROR;
        };
        return new CancellationReason(code, e.getMessage(), null);
    }
}
