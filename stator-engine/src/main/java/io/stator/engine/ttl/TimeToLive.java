package io.stator.engine.ttl;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TimeToLiveDescription;
import io.stator.engine.table.TimeToLiveDescription.TimeToLiveStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * UpdateTimeToLive and DescribeTimeToLive: a table's Time to Live setting, kept in its
 * definition; the {@link Expirer} does the work it implies.
 *
 * <p>DynamoDB's refusals, all ValidationException, checked in this order (the settings first,
 * the interval last: live probes of 2026-10, ack-api-quirks "Table sub-resources",
 * DDB-TABLE-143 and DDB-TABLE-146; docs/dynamodb/ttl.md):
 * <ol>
 *   <li>another attribute while Time to Live is ENABLING, ENABLED or DISABLING, to enable or to
 *       disable: "TimeToLive is active on a different AttributeName: current AttributeName is
 *       X";</li>
 *   <li>enabling when ENABLING or ENABLED: "TimeToLive is already enabled";</li>
 *   <li>disabling when DISABLING or DISABLED: "TimeToLive is already disabled";</li>
 *   <li>a change within an hour of the last one: "Time to live has been modified multiple times
 *       within a fixed interval" (the API reference: "It can take up to one hour for the change
 *       to fully process. Any additional UpdateTimeToLive calls for the same table during this
 *       one hour duration result in a ValidationException"; a probe measured 31 minutes, Stator
 *       keeps the documented hour).</li>
 * </ol>
 */
public final class TimeToLive {

    /** How long after a change of a table's Time to Live the next one is refused. */
    public static final Duration MODIFICATION_INTERVAL = Duration.ofHours(1);

    private final Catalog catalog;
    private final Clock clock;
    private final Expirer expirer;

    public TimeToLive(Catalog catalog, Clock clock, Expirer expirer) {
        this.catalog = catalog;
        this.clock = clock;
        this.expirer = expirer;
    }

    /** DescribeTimeToLive: the table's status and attribute (DISABLED, with none, when never enabled). */
    public TimeToLiveDescription describe(String nameOrArn) {
        TimeToLiveDescription ttl = catalog.require(nameOrArn, NotFoundMessage.WITH_TABLE_NAME).timeToLive();
        return ttl == null ? TimeToLiveDescription.NEVER_ENABLED : ttl;
    }

    /**
     * UpdateTimeToLive: enables Time to Live on {@code attributeName} (ENABLING, then ENABLED), or
     * disables it (DISABLING, then DISABLED).
     */
    public void update(String nameOrArn, boolean enabled, String attributeName) {
        TableDefinition found = catalog.require(nameOrArn, NotFoundMessage.WITH_TABLE_NAME);
        if (enabled && found.stronglyReplicated()) {
            // DynamoDB does not support Time to Live on MRSC tables (developer guide); its text is not known.
            throw DynamoDbException.validation("Time to Live is not supported for global tables with "
                    + "MultiRegionConsistency set to STRONG: " + found.name());
        }
        String name = found.name();
        Instant now = clock.instant();
        catalog.update(name, table -> {
            TimeToLiveDescription ttl = table.timeToLive() == null ? TimeToLiveDescription.NEVER_ENABLED
                    : table.timeToLive();
            check(ttl, enabled, attributeName, now);
            TableDefinition.Builder b = table.toBuilder();
            b.timeToLive = new TimeToLiveDescription(enabled ? TimeToLiveStatus.ENABLING : TimeToLiveStatus.DISABLING,
                    attributeName, now);
            return b.build();
        });
        expirer.wake();
    }

    /** The expirer's background work (tests wait for its rounds). */
    public Expirer expirer() {
        return expirer;
    }

    private static void check(TimeToLiveDescription ttl, boolean enable, String attributeName, Instant now) {
        if (ttl.active() && !ttl.attributeName().equals(attributeName)) {
            throw DynamoDbException.validation("TimeToLive is active on a different AttributeName: current AttributeName is "
                    + ttl.attributeName());
        }
        boolean enabledNow = ttl.status() == TimeToLiveStatus.ENABLING || ttl.status() == TimeToLiveStatus.ENABLED;
        if (enable && enabledNow) throw DynamoDbException.validation("TimeToLive is already enabled");
        if (!enable && !enabledNow) throw DynamoDbException.validation("TimeToLive is already disabled");
        if (ttl.lastUpdateDateTime() != null && now.isBefore(ttl.lastUpdateDateTime().plus(MODIFICATION_INTERVAL))) {
            throw DynamoDbException.validation("Time to live has been modified multiple times within a fixed interval");
        }
    }
}
