// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code AutoScalingPolicyUpdate}, as a request carries it. */
public record AutoScalingPolicyUpdate(
        String policyName,
        AutoScalingTargetTrackingScalingPolicyConfigurationUpdate targetTrackingScalingPolicyConfiguration) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "PolicyName",
            "TargetTrackingScalingPolicyConfiguration");

    /** The record of the members' values, in the model's order. */
    static AutoScalingPolicyUpdate of(Object[] values) {
        return new AutoScalingPolicyUpdate(
                (String) values[0],
                (AutoScalingTargetTrackingScalingPolicyConfigurationUpdate) values[1]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> policyName;
            case 1 -> targetTrackingScalingPolicyConfiguration;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
