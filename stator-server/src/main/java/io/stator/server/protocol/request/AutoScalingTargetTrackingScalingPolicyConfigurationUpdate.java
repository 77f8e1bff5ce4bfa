// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code AutoScalingTargetTrackingScalingPolicyConfigurationUpdate}, as a request carries it. */
public record AutoScalingTargetTrackingScalingPolicyConfigurationUpdate(
        Boolean disableScaleIn,
        Integer scaleInCooldown,
        Integer scaleOutCooldown,
        Double targetValue) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "DisableScaleIn",
            "ScaleInCooldown",
            "ScaleOutCooldown",
            "TargetValue");

    /** The record of the members' values, in the model's order. */
    static AutoScalingTargetTrackingScalingPolicyConfigurationUpdate of(Object[] values) {
        return new AutoScalingTargetTrackingScalingPolicyConfigurationUpdate(
                (Boolean) values[0],
                (Integer) values[1],
                (Integer) values[2],
                (Double) values[3]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> disableScaleIn;
            case 1 -> scaleInCooldown;
            case 2 -> scaleOutCooldown;
            case 3 -> targetValue;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
