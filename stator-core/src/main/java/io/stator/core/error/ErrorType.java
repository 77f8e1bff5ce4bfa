package io.stator.core.error;

/**
 * The error types DynamoDB returns, with the exact {@code __type} it sends for each and its HTTP
 * status. The namespace differs by type (the service front end, the validator and DynamoDB itself
 * each use their own) and clients match on the short name after '#', so both must be exact.
 */
public enum ErrorType {
    // Raised by the service front end before the request reaches DynamoDB.
    SERIALIZATION("com.amazon.coral.service#SerializationException", 400, "Message"),
    UNKNOWN_OPERATION("com.amazon.coral.service#UnknownOperationException", 400, "message"),
    MISSING_AUTHENTICATION_TOKEN("com.amazon.coral.service#MissingAuthenticationTokenException", 400, "message"),
    INCOMPLETE_SIGNATURE("com.amazon.coral.service#IncompleteSignatureException", 400, "message"),
    INVALID_SIGNATURE("com.amazon.coral.service#InvalidSignatureException", 400, "message"),
    UNRECOGNIZED_CLIENT("com.amazon.coral.service#UnrecognizedClientException", 400, "message"),
    ACCESS_DENIED("com.amazon.coral.service#AccessDeniedException", 400, "Message"),
    THROTTLING("com.amazon.coral.availability#ThrottlingException", 400, "message"),

    // Raised by request validation.
    VALIDATION("com.amazon.coral.validate#ValidationException", 400, "message"),

    // Raised by DynamoDB itself.
    RESOURCE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400, "message"),
    RESOURCE_IN_USE("com.amazonaws.dynamodb.v20120810#ResourceInUseException", 400, "message"),
    CONDITIONAL_CHECK_FAILED("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400, "message"),
    LIMIT_EXCEEDED("com.amazonaws.dynamodb.v20120810#LimitExceededException", 400, "message"),
    PROVISIONED_THROUGHPUT_EXCEEDED(
            "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", 400, "message"),
    REQUEST_LIMIT_EXCEEDED("com.amazonaws.dynamodb.v20120810#RequestLimitExceeded", 400, "message"),
    ITEM_COLLECTION_SIZE_LIMIT_EXCEEDED(
            "com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException", 400, "message"),
    TRANSACTION_CANCELED("com.amazonaws.dynamodb.v20120810#TransactionCanceledException", 400, "Message"),
    TRANSACTION_CONFLICT("com.amazonaws.dynamodb.v20120810#TransactionConflictException", 400, "message"),
    TRANSACTION_IN_PROGRESS("com.amazonaws.dynamodb.v20120810#TransactionInProgressException", 400, "Message"),
    IDEMPOTENT_PARAMETER_MISMATCH(
            "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", 400, "Message"),
    DUPLICATE_ITEM("com.amazonaws.dynamodb.v20120810#DuplicateItemException", 400, "message"),
    POLICY_NOT_FOUND("com.amazonaws.dynamodb.v20120810#PolicyNotFoundException", 400, "message"),
    // On-demand backups and restores (moto's exceptions.py records the messages DynamoDB gives).
    TABLE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#TableNotFoundException", 400, "message"),
    TABLE_ALREADY_EXISTS("com.amazonaws.dynamodb.v20120810#TableAlreadyExistsException", 400, "message"),
    TABLE_IN_USE("com.amazonaws.dynamodb.v20120810#TableInUseException", 400, "message"),
    BACKUP_NOT_FOUND("com.amazonaws.dynamodb.v20120810#BackupNotFoundException", 400, "message"),
    BACKUP_IN_USE("com.amazonaws.dynamodb.v20120810#BackupInUseException", 400, "message"),
    SOURCE_TABLE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#SourceTableNotFoundException", 400, "message"),
    POINT_IN_TIME_RECOVERY_UNAVAILABLE(
            "com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException", 400, "message"),
    INVALID_EXPORT_TIME("com.amazonaws.dynamodb.v20120810#InvalidExportTimeException", 400, "message"),
    EXPORT_CONFLICT("com.amazonaws.dynamodb.v20120810#ExportConflictException", 400, "message"),
    IMPORT_CONFLICT("com.amazonaws.dynamodb.v20120810#ImportConflictException", 400, "message"),
    EXPORT_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ExportNotFoundException", 400, "message"),
    IMPORT_NOT_FOUND("com.amazonaws.dynamodb.v20120810#ImportNotFoundException", 400, "message"),
    INVALID_RESTORE_TIME("com.amazonaws.dynamodb.v20120810#InvalidRestoreTimeException", 400, "message"),
    // The legacy (2017.11.29) global tables' operations: every name is one that does not exist.
    GLOBAL_TABLE_NOT_FOUND("com.amazonaws.dynamodb.v20120810#GlobalTableNotFoundException", 400, "message"),
    // Global tables with multi-Region strong consistency: an item another region is writing.
    REPLICATED_WRITE_CONFLICT("com.amazonaws.dynamodb.v20120810#ReplicatedWriteConflictException", 400, "message"),
    INTERNAL_SERVER_ERROR("com.amazonaws.dynamodb.v20120810#InternalServerError", 500, "message"),
    // DynamoDB Streams' own errors (botocore's dynamodbstreams service-2.json declares them; the
    // namespace is DynamoDB's, as the Streams endpoint answers them).
    EXPIRED_ITERATOR("com.amazonaws.dynamodb.v20120810#ExpiredIteratorException", 400, "message"),
    TRIMMED_DATA_ACCESS("com.amazonaws.dynamodb.v20120810#TrimmedDataAccessException", 400, "message");

    private final String wireName;
    private final int httpStatus;
    private final String messageKey;

    ErrorType(String wireName, int httpStatus, String messageKey) {
        this.wireName = wireName;
        this.httpStatus = httpStatus;
        this.messageKey = messageKey;
    }

    /** The {@code __type} value on the wire. */
    public String wireName() { return wireName; }

    /** The short name clients match on, e.g. "ValidationException". */
    public String shortName() { return wireName.substring(wireName.indexOf('#') + 1); }

    public int httpStatus() { return httpStatus; }

    /** The JSON member that carries the message: DynamoDB spells it "message" or "Message". */
    public String messageKey() { return messageKey; }
}
