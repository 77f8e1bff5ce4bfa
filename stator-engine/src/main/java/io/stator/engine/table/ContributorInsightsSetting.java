package io.stator.engine.table;

import java.time.Duration;
import java.time.Instant;

/**
 * Contributor Insights on one table or global secondary index, as UpdateContributorInsights last
 * left it: the transition it asked for (ENABLING or DISABLING), when, in which mode, and how it
 * ends. The status DescribeContributorInsights shows follows from it and the time alone, so that
 * nothing has to run in the background and every server of a shared store shows the same:
 * ENABLING becomes ENABLED {@link #ENABLING} after the request (FAILED {@link #FAILING} after it
 * when the rule quota was exceeded), DISABLING becomes DISABLED {@link #DISABLING} after it. The
 * durations are DynamoDB's as measured (ack-api-quirks DDB-TABLE-090, -337: ENABLING 1.01 s to
 * 16.2 s, mostly 1.02 s; FAILED 2.02 s after an enable past the quota; DISABLING 2.02 s).
 *
 * <p>Stored in the table's definition ({@link TableCodec}, by the enums' names: do not rename).
 *
 * @param requested           ENABLING or DISABLING: the last transition asked for
 * @param requestedAt         when it was asked for
 * @param ruleTimestampMillis the creation time of the rules, the suffix of their names: set by an
 *                            enable from DISABLED (or FAILED), kept by a change of mode
 * @param failure             for ENABLING: the enable fails (FAILED, LimitExceededException); for
 *                            DISABLING: it disables a FAILED one, whose failure shows until DISABLED
 */
public record ContributorInsightsSetting(Status requested, Mode mode, Instant requestedAt, long ruleTimestampMillis,
                                         boolean failure) {

    /** DynamoDB's ContributorInsightsStatus. */
    public enum Status { ENABLING, ENABLED, DISABLING, DISABLED, FAILED }

    /** DynamoDB's ContributorInsightsMode (since 2025-08-14). */
    public enum Mode { ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS }

    public static final Duration ENABLING = Duration.ofSeconds(1);
    public static final Duration FAILING = Duration.ofSeconds(2);
    public static final Duration DISABLING = Duration.ofSeconds(2);

    /** The status at {@code now}. */
    public Status status(Instant now) {
        if (requested == Status.ENABLING) {
            if (now.isBefore(settlesAt())) return Status.ENABLING;
            return failure ? Status.FAILED : Status.ENABLED;
        }
        return now.isBefore(settlesAt()) ? Status.DISABLING : Status.DISABLED;
    }

    /** When the transition ends. */
    public Instant settlesAt() {
        Duration d = requested == Status.DISABLING ? DISABLING : failure ? FAILING : ENABLING;
        return requestedAt.plus(d);
    }

    /** LastUpdateDateTime: "the last time the status was changed", the request's or the transition's end. */
    public Instant lastUpdateDateTime(Instant now) {
        return now.isBefore(settlesAt()) ? requestedAt : settlesAt();
    }

    /** True while the resource's rules exist or are being made: what counts toward the rule quota. */
    public boolean holdsRules(Instant now) {
        Status s = status(now);
        return s == Status.ENABLING && !failure || s == Status.ENABLED;
    }
}
