package io.stator.engine.table;

import java.time.Instant;

/**
 * A table's Time to Live, as UpdateTimeToLive left it: DescribeTimeToLive's TimeToLiveStatus and
 * AttributeName, and when it was last changed (DynamoDB refuses another change within an hour,
 * which its API does not show).
 *
 * <p>ENABLING lasts until the expiry index holds the table's existing items, DISABLING until it
 * holds none of them (see {@code io.stator.engine.ttl.Expirer}); the attribute is forgotten once
 * DISABLED, as DynamoDB forgets it.
 *
 * @param attributeName      null once DISABLED
 * @param lastUpdateDateTime when the last UpdateTimeToLive that changed it was accepted
 */
public record TimeToLiveDescription(TimeToLiveStatus status, String attributeName, Instant lastUpdateDateTime) {

    /** DynamoDB's TimeToLiveStatus. Stored by name: do not rename. */
    public enum TimeToLiveStatus { ENABLING, DISABLING, ENABLED, DISABLED }

    /** A table whose Time to Live was never changed: DescribeTimeToLive says DISABLED. */
    public static final TimeToLiveDescription NEVER_ENABLED =
            new TimeToLiveDescription(TimeToLiveStatus.DISABLED, null, null);

    /** True while writes keep the table's items in the expiry index, and expired items are deleted. */
    public boolean expiring() {
        return status == TimeToLiveStatus.ENABLING || status == TimeToLiveStatus.ENABLED;
    }

    /** True unless DISABLED: the attribute is the table's, and naming another one is refused. */
    public boolean active() {
        return status != TimeToLiveStatus.DISABLED;
    }

    /** The same settings in another status (the attribute forgotten once DISABLED). */
    public TimeToLiveDescription withStatus(TimeToLiveStatus newStatus) {
        return new TimeToLiveDescription(newStatus, newStatus == TimeToLiveStatus.DISABLED ? null : attributeName,
                lastUpdateDateTime);
    }
}
