package io.stator.server.api.json;

import io.stator.core.error.ErrorType;

/** How BatchExecuteStatement's Responses name a member's error: the model's BatchStatementErrorCodeEnum. */
public final class BatchStatementErrorCodes {

    private BatchStatementErrorCodes() {}

    /** The model's BatchStatementErrorCodeEnum for an error type. */
    public static String of(ErrorType type) {
        return switch (type) {
            case CONDITIONAL_CHECK_FAILED -> "ConditionalCheckFailed";
            case DUPLICATE_ITEM -> "DuplicateItem";
            case RESOURCE_NOT_FOUND -> "ResourceNotFound";
            case PROVISIONED_THROUGHPUT_EXCEEDED -> "ProvisionedThroughputExceeded";
            case REQUEST_LIMIT_EXCEEDED -> "RequestLimitExceeded";
            case ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED -> "ItemCollectionSizeLimitExceeded";
            case TRANSACTION_CONFLICT -> "TransactionConflict";
            case THROTTLING -> "ThrottlingError";
            case ACCESS_DENIED -> "AccessDenied";
            case INTERNAL_SERVER_ERROR -> "InternalServerError";
            default -> "ValidationError";
        };
    }
}
