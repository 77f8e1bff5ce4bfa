// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code AutoScalingSettingsUpdate}, as a request carries it. */
public record AutoScalingSettingsUpdate(
        Long minimumUnits,
        Long maximumUnits,
        Boolean autoScalingDisabled,
        String autoScalingRoleArn,
        AutoScalingPolicyUpdate scalingPolicyUpdate) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "MinimumUnits",
            "MaximumUnits",
            "AutoScalingDisabled",
            "AutoScalingRoleArn",
            "ScalingPolicyUpdate");

    /** The record of the members' values, in the model's order. */
    static AutoScalingSettingsUpdate of(Object[] values) {
        return new AutoScalingSettingsUpdate(
                (Long) values[0],
                (Long) values[1],
                (Boolean) values[2],
                (String) values[3],
                (AutoScalingPolicyUpdate) values[4]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> minimumUnits;
            case 1 -> maximumUnits;
            case 2 -> autoScalingDisabled;
            case 3 -> autoScalingRoleArn;
            case 4 -> scalingPolicyUpdate;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
