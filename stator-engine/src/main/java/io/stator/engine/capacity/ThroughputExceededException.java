package io.stator.engine.capacity;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import java.util.List;

/**
 * A request throttled: ProvisionedThroughputExceededException on a provisioned table,
 * ThrottlingException on an on-demand one, RequestLimitExceeded past the per-table quota, each
 * with the reasons DynamoDB has given since 2025-08 (botocore 1.40.10): which limit of which
 * table or index refused it. The service model names the list {@code ThrottlingReasons} on the
 * first and the last and {@code throttlingReasons} on ThrottlingException; {@link #reasonsMember}
 * gives the spelling clients deserialize.
 */
public final class ThroughputExceededException extends DynamoDbException {

    /**
     * One refusal: {@code <Table|Index><Read|Write><LimitType>} (the 16 reasons of the developer
     * guide's throttling diagnostics) and the ARN of the table or index that refused.
     */
    public record Reason(String reason, String resource) {}

    // The texts DynamoDB sends (developer guide, Programming.Errors and throttling-diagnosing-workflow;
    // API reference, TransactionCanceledException; dynamodb-throughput.md, section 9).
    static final String TABLE_PROVISIONED = "The level of configured provisioned throughput for the table was "
            + "exceeded. Consider increasing your provisioning level with the UpdateTable API.";
    static final String INDEX_PROVISIONED = "The level of configured provisioned throughput for one or more global "
            + "secondary indexes of the table was exceeded. Consider increasing your provisioning level for the "
            + "under-provisioned global secondary indexes with the UpdateTable API.";
    static final String TABLE_ON_DEMAND = "Throughput exceeds the current capacity of your table or index. DynamoDB "
            + "is automatically scaling your table or index so please try again shortly. If exceptions persist, check "
            + "if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html";
    static final String INDEX_ON_DEMAND = "Throughput exceeds the current capacity for one or more global secondary "
            + "indexes. DynamoDB is automatically scaling your index so please try again shortly.";
    static final String MAX_ON_DEMAND = "Throughput exceeds the maximum OnDemandThroughput configured on table or index";
    static final String ACCOUNT_LIMIT = "Throughput exceeds the current throughput limit for your account. To request "
            + "a limit increase, contact AWS Support at https://aws.amazon.com/support";

    private final List<Reason> reasons;

    ThroughputExceededException(ErrorType type, String message, List<Reason> reasons) {
        super(type, message);
        this.reasons = List.copyOf(reasons);
    }

    public List<Reason> reasons() { return reasons; }

    /** The JSON member of the reasons, as the service model spells it for this exception. */
    public String reasonsMember() {
        return type() == ErrorType.THROTTLING ? "throttlingReasons" : "ThrottlingReasons";
    }
}
