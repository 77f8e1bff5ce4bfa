package io.stator.engine.advisor;

import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.table.IndexDefinition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * F16, throttle observed: Stator refused requests of a table or a global index for its throughput,
 * as DynamoDB would have (advisor.md, section 6). One finding per resource refused, over the last
 * hour: the refusals by reason (the 16 of {@code <Table|Index><Read|Write><LimitType>}), the share
 * of the resource's requests they were, and the last refusals with their time, access pattern, key,
 * reasons with the resource's ARN, and exception. Always a warning; critical when the refusals are
 * many: at least {@value #CRITICAL_MIN_EVENTS} and {@value #CRITICAL_SHARE} of the resource's
 * requests, past what an SDK's retries smooth over. The counts are what was observed here, not
 * projected: a throttle is a fact of this run.
 */
final class ThrottlesObserved implements FindingRule {

    static final int SPAN_MINUTES = 60;
    static final int CRITICAL_MIN_EVENTS = 10;
    static final double CRITICAL_SHARE = 0.05;
    /** The last refusals shown. */
    static final int EVENTS_SHOWN = 10;

    /** Per limit type, what to do (dynamodb-throughput.md, section 9; the developer guide's pages below). */
    private static final Map<String, String> FIXES = Map.of(
            "ProvisionedThroughputExceeded", "Raise the provisioned capacity of the table or index, or let auto scaling "
                    + "manage it, or switch the table to on demand.",
            "KeyRangeThroughputExceeded", "One partition took more than its 3,000 read or 1,000 write units a second: "
                    + "spread the hot key (write sharding with a suffix, a cache for hot reads).",
            "MaxOnDemandThroughputExceeded", "Raise or remove the table's or index's maximum on-demand throughput "
                    + "(UpdateTable OnDemandThroughput; -1 removes it).",
            "AccountLimitExceeded", "The per-table quota (40,000 units a second by default) was reached: request a "
                    + "quota increase.");
    private static final String RETRY = "Retry throttled requests with exponential backoff and jitter (the AWS SDKs do).";
    static final List<String> SOURCES = List.of("TroubleshootingThrottling", "throttling-diagnosing-workflow",
            "troubleshooting-throttling-diagnostics", "throttling-key-range-limit-exceeded-mitigation",
            "on-demand-capacity-mode-max-throughput", "ServiceQuotas", "Programming.Errors");

    @Override
    public void find(AdvisorContext context, List<Finding> out) {
        long fromMinute = Math.floorDiv(context.nowMillis(), 60_000) - SPAN_MINUTES + 1;
        for (IndexDefinition resource : context.resources()) {
            Map<String, Long> byReason = new TreeMap<>();
            long events = 0;
            long requests = 0;
            long firstMinute = Long.MAX_VALUE;
            long lastMinute = Long.MIN_VALUE;
            for (ResourceSummary m : context.minutes(resource)) {
                if (m.period() < fromMinute) continue;
                requests += m.requests();
                long inMinute = 0;
                for (Map.Entry<String, Long> e : m.throttleEvents().entrySet()) {
                    byReason.merge(e.getKey(), e.getValue(), Long::sum);
                    inMinute += e.getValue();
                }
                if (inMinute == 0) continue;
                events += inMinute;
                firstMinute = Math.min(firstMinute, m.period());
                lastMinute = Math.max(lastMinute, m.period());
            }
            if (events == 0) continue;
            out.add(finding(context, resource, byReason, events, requests, firstMinute, lastMinute));
        }
    }

    private static Finding finding(AdvisorContext context, IndexDefinition resource, Map<String, Long> byReason,
                                   long events, long requests, long firstMinute, long lastMinute) {
        String tableName = context.table().name();
        List<ThrottleEvent> logged = new ArrayList<>();
        String arn = null;
        for (ThrottleEvent e : context.throttleEvents()) {
            if (e.timeMillis() < firstMinute * 60_000) continue;
            for (ThroughputExceededException.Reason r : e.reasons()) {
                if (Observations.names(r, tableName, resource)) {
                    logged.add(e);
                    arn = r.resource();
                    break;
                }
            }
        }
        long from = logged.isEmpty() ? firstMinute * 60_000 : logged.getFirst().timeMillis();
        long to = logged.isEmpty() ? Math.min(context.nowMillis(), lastMinute * 60_000 + 59_999)
                : logged.getLast().timeMillis();
        double share = requests == 0 ? 1 : (double) events / requests;
        boolean critical = events >= CRITICAL_MIN_EVENTS && share >= CRITICAL_SHARE;

        Map<String, Long> byException = new TreeMap<>();
        for (ThrottleEvent e : logged) byException.merge(e.errorType(), 1L, Long::sum);
        List<Object> shown = new ArrayList<>();
        for (ThrottleEvent e : logged.subList(Math.max(0, logged.size() - EVENTS_SHOWN), logged.size())) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("time", Instant.ofEpochMilli(e.timeMillis()));
            event.put("signature", e.signature().describe());
            event.put("key", e.key() == null ? null : new Finding.Key(e.key()));
            List<Object> reasons = new ArrayList<>();
            for (ThroughputExceededException.Reason r : e.reasons()) {
                Map<String, Object> reason = new LinkedHashMap<>();
                reason.put("reason", r.reason());
                reason.put("resource", r.resource());
                reasons.add(reason);
            }
            event.put("reasons", reasons);
            event.put("exception", e.errorType());
            shown.add(event);
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        if (arn != null) evidence.put("resourceArn", arn);
        evidence.put("throttleEvents", events);
        evidence.put("requests", requests);
        evidence.put("throttledPercent", 100 * share);
        evidence.put("byReason", byReason);
        // The exceptions are read from the refusals kept (the last 256 of the table's): their count says how many.
        evidence.put("loggedEvents", logged.size());
        evidence.put("byException", byException);
        evidence.put("events", shown);

        List<String> fix = new ArrayList<>();
        for (String limit : List.of("ProvisionedThroughputExceeded", "KeyRangeThroughputExceeded",
                "MaxOnDemandThroughputExceeded", "AccountLimitExceeded")) {
            if (byReason.keySet().stream().anyMatch(r -> r.endsWith(limit))) fix.add(FIXES.get(limit));
        }
        fix.add(RETRY);
        String what = resource == null ? "table " + tableName : "index " + resource.name() + " of table " + tableName;
        String summary = String.format(Locale.ROOT, "%,d requests to %s were throttled (%.1f%% of its %,d): %s", events,
                what, 100 * share, requests, reasons(byReason));
        return context.finding("F16", "Throttle observed", critical ? Finding.Severity.CRITICAL : Finding.Severity.WARN,
                resource, summary, evidence, from, to, String.join(" ", fix), SOURCES, null);
    }

    private static String reasons(Map<String, Long> byReason) {
        List<String> parts = new ArrayList<>();
        byReason.forEach((r, n) -> parts.add(String.format(Locale.ROOT, "%s %,d", r, n)));
        return String.join(", ", parts);
    }
}
