package io.stator.server.metrics;

import io.prometheus.metrics.model.snapshots.Labels;

/**
 * How Stator's Prometheus metrics are named after DynamoDB's CloudWatch metrics (the scheme is
 * documented in docs/dynamodb/throughput.md, "Observability"):
 * <ul>
 *   <li>a metric CloudWatch has is {@code dynamodb_} and its CloudWatch name in snake case, plus
 *       Prometheus' suffix: {@code _total} for a counter (added by the text format), nothing for a
 *       gauge, {@code _seconds} for the latency histogram (CloudWatch's is in milliseconds);
 *       ConsumedReadCapacityUnits is {@code dynamodb_consumed_read_capacity_units_total};</li>
 *   <li>each of its series carries the CloudWatch name itself in the label
 *       {@value #CLOUDWATCH_METRIC}, so that a query may select by it
 *       ({@code {cloudwatch_metric=~"Write.*ThrottleEvents"}});</li>
 *   <li>what CloudWatch does not have (the partitions' figures) is {@code stator_...}, without that
 *       label;</li>
 *   <li>CloudWatch's dimensions are labels: {@value #TABLE} (TableName), {@value #INDEX}
 *       (GlobalSecondaryIndexName, or the index a Query or Scan names; empty for the table),
 *       {@value #OPERATION} (Operation), and {@value #PARTITION} for a partition (its first hash,
 *       16 hexadecimal digits).</li>
 * </ul>
 */
final class MetricNames {

    static final String CLOUDWATCH_METRIC = "cloudwatch_metric";
    static final String TABLE = "table";
    static final String INDEX = "index";
    static final String OPERATION = "operation";
    static final String PARTITION = "partition";

    private MetricNames() {}

    /** {@code dynamodb_} and a CloudWatch name in snake case: ReadThrottleEvents, dynamodb_read_throttle_events. */
    static String prometheusName(String cloudWatchName) {
        return "dynamodb_" + snakeCase(cloudWatchName);
    }

    /** The label naming the CloudWatch metric a series is. */
    static Labels cloudWatch(String cloudWatchName) {
        return Labels.of(CLOUDWATCH_METRIC, cloudWatchName);
    }

    static String snakeCase(String camelCase) {
        StringBuilder b = new StringBuilder(camelCase.length() + 8);
        for (int i = 0; i < camelCase.length(); i++) {
            char c = camelCase.charAt(i);
            if (Character.isUpperCase(c)) {
                if (i > 0) b.append('_');
                b.append(Character.toLowerCase(c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
