package io.stator.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.StatefulMetric;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.CancellationReason;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.write.TransactionCanceledException;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ModelStructure;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the endpoint records of each request, per operation, table and index, under DynamoDB's
 * CloudWatch names ({@link MetricNames}): SuccessfulRequestLatency, ReturnedItemCount, and for a
 * failed request exactly one of ThrottledRequests, ConditionalCheckFailedRequests,
 * TransactionConflict, UserErrors (the other 4xx: CloudWatch's UserErrors leaves throttles and
 * failed conditions out) and SystemErrors (5xx). A batch or a transaction is recorded once for
 * each table it names (its latency too, as CloudWatch gives each table its own).
 *
 * <p>The hot path: one lookup of the operation and one of the table, in concurrent maps, find
 * the request's series, whose data points are resolved once (on their first use, so that no
 * series appears that never counted anything); recording is then an adder's increment. No lock.
 *
 * <p>Label values are bounded by what exists: a table label is the name of a table the catalog
 * has (a request naming one that does not exist is recorded with an empty table), an index
 * label one of its indexes, an operation one of the service model's. The series of a deleted
 * table are dropped with it.
 */
public final class RequestMetrics {

    /**
     * Latency buckets, in seconds: a local server answers in tenths of milliseconds, a loaded one
     * or a large Scan page in tens or hundreds.
     */
    private static final double[] LATENCY_BUCKETS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
            0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private static final int RETURNED_ITEMS = 0;
    private static final int USER_ERRORS = 1;
    private static final int SYSTEM_ERRORS = 2;
    private static final int CONDITIONAL_CHECK_FAILED = 3;
    private static final int TRANSACTION_CONFLICT = 4;
    private static final int THROTTLED = 5;

    private final Catalog catalog;
    private final Histogram latency;
    /** By the constants above. */
    private final Counter[] counters;
    private final ConcurrentHashMap<String, OperationSeries> operations = new ConcurrentHashMap<>();
    /** Requests whose operation is not known (a malformed body, an X-Amz-Target naming none). */
    private final OperationSeries noOperation = new OperationSeries("");

    /** Registers the metrics in {@code registry}; tables are looked up in {@code catalog}. */
    public RequestMetrics(PrometheusRegistry registry, Catalog catalog) {
        this.catalog = catalog;
        String cw = "SuccessfulRequestLatency";
        this.latency = Histogram.builder()
                .name(MetricNames.prometheusName(cw) + "_seconds")
                .help(cw + ": the time a successful request took, from its arrival to its response, in seconds "
                        + "(CloudWatch's is in milliseconds)")
                .constLabels(MetricNames.cloudWatch(cw))
                .labelNames(MetricNames.OPERATION, MetricNames.TABLE, MetricNames.INDEX)
                .classicOnly()
                .classicUpperBounds(LATENCY_BUCKETS)
                .withoutExemplars()
                .register(registry);
        this.counters = new Counter[] {
                counter(registry, "ReturnedItemCount", "the items returned by Query, Scan and BatchGetItem"),
                counter(registry, "UserErrors", "requests answered with an HTTP 400 error other than a throttle, "
                        + "a failed condition or a transaction conflict"),
                counter(registry, "SystemErrors", "requests answered with an HTTP 500 error"),
                counter(registry, "ConditionalCheckFailedRequests",
                        "requests refused because a condition was false (in a transaction: per table of the actions whose condition failed)"),
                counter(registry, "TransactionConflict",
                        "requests refused because of a transaction in progress on the same item"),
                counter(registry, "ThrottledRequests", "requests refused by throughput limits, once each "
                        + "whatever the number of limits that refused them (ReadThrottleEvents and "
                        + "WriteThrottleEvents count those)"),
        };
    }

    private static Counter counter(PrometheusRegistry registry, String cloudWatchName, String help) {
        return Counter.builder()
                .name(MetricNames.prometheusName(cloudWatchName))
                .help(cloudWatchName + ": " + help)
                .constLabels(MetricNames.cloudWatch(cloudWatchName))
                .labelNames(MetricNames.OPERATION, MetricNames.TABLE, MetricNames.INDEX)
                .withoutExemplars()
                .register(registry);
    }

    // ---- recording ---------------------------------------------------------------------------

    /**
     * A request answered successfully.
     *
     * @param operation the operation's name as the service model has it
     * @param input     the request as read
     * @param response  its response (which says how many items it returned)
     * @param nanos     how long it took
     */
    public void succeeded(String operation, ModelStructure input, ResponseBody response, long nanos) {
        OperationSeries op = operation(operation);
        double seconds = nanos / 1e9;
        if (!RequestTargets.namesSeveral(input)) {
            String table = RequestTargets.table(input);
            Series s = op.series(table, RequestTargets.index(input));
            s.latency().observe(seconds);
            if (response.returnsItems()) s.counter(RETURNED_ITEMS).inc(response.returnedItems(table));
        } else {
            for (String table : RequestTargets.tables(input)) {
                Series s = op.series(table, null);
                s.latency().observe(seconds);
                if (response.returnsItems()) s.counter(RETURNED_ITEMS).inc(response.returnedItems(table));
            }
        }
        if (operation.equals("DeleteTable")) tableDeleted(RequestTargets.table(input));
    }

    /**
     * A request answered with an error.
     *
     * @param operation null when the request named none the model has (or its body could not be read)
     * @param input     null when the body was not read
     */
    public void failed(String operation, ModelStructure input, Throwable error) {
        OperationSeries op = operation == null ? noOperation : operation(operation);
        if (error instanceof ThroughputExceededException throttled) {
            if (input != null && !RequestTargets.namesSeveral(input)) {
                op.series(RequestTargets.table(input), RequestTargets.index(input)).counter(THROTTLED).inc();
            } else {
                // A batch none of whose items could be processed: the tables whose limits refused it.
                List<String> tables = new ArrayList<>(2);
                for (ThroughputExceededException.Reason r : throttled.reasons()) {
                    String table = RequestTargets.tableOfArn(r.resource());
                    if (!tables.contains(table)) tables.add(table);
                }
                for (String table : tables) op.series(table, null).counter(THROTTLED).inc();
            }
        } else if (error instanceof TransactionCanceledException cancelled) {
            cancelled(op, input, cancelled);
        } else if (error instanceof ConditionalCheckFailedException) {
            countForEachTable(op, input, CONDITIONAL_CHECK_FAILED);
        } else if (error instanceof DynamoDbException e && e.type() == ErrorType.TRANSACTION_CONFLICT) {
            countForEachTable(op, input, TRANSACTION_CONFLICT);
        } else if (error instanceof DynamoDbException e && e.type().httpStatus() < 500) {
            countForEachTable(op, input, USER_ERRORS);
        } else {
            countForEachTable(op, input, SYSTEM_ERRORS);
        }
    }

    /**
     * A cancelled transaction counts as its actions' codes say, in this order: throttled if any
     * was (as a request throttled outright), else a failed condition, else a conflict, else a
     * user error; at the tables of the actions with that code.
     */
    private void cancelled(OperationSeries op, ModelStructure input, TransactionCanceledException e) {
        List<CancellationReason> reasons = e.reasons();
        for (int counter : new int[] {THROTTLED, CONDITIONAL_CHECK_FAILED, TRANSACTION_CONFLICT}) {
            List<String> tables = null;
            for (int i = 0; i < reasons.size(); i++) {
                if (counterOf(reasons.get(i).code()) != counter) continue;
                if (tables == null) tables = new ArrayList<>(2);
                String table = RequestTargets.transactTable(input, i);
                if (!tables.contains(table)) tables.add(table);
            }
            if (tables != null) {
                for (String table : tables) op.series(table, null).counter(counter).inc();
                return;
            }
        }
        countForEachTable(op, input, USER_ERRORS);
    }

    private static int counterOf(String code) {
        return switch (code) {
            case CancellationReason.PROVISIONED_THROUGHPUT_EXCEEDED, CancellationReason.THROTTLING_ERROR -> THROTTLED;
            case CancellationReason.CONDITIONAL_CHECK_FAILED -> CONDITIONAL_CHECK_FAILED;
            case CancellationReason.TRANSACTION_CONFLICT -> TRANSACTION_CONFLICT;
            default -> -1;
        };
    }

    private void countForEachTable(OperationSeries op, ModelStructure input, int counter) {
        if (input == null) {
            op.series(null, null).counter(counter).inc();
        } else if (!RequestTargets.namesSeveral(input)) {
            op.series(RequestTargets.table(input), RequestTargets.index(input)).counter(counter).inc();
        } else {
            List<String> tables = RequestTargets.tables(input);
            if (tables.isEmpty()) op.series(null, null).counter(counter).inc();
            for (String table : tables) op.series(table, null).counter(counter).inc();
        }
    }

    /** Drops a deleted table's series, so that a server whose tests make and delete tables does not grow. */
    void tableDeleted(String requested) {
        if (requested == null) return;
        String table = requested.startsWith("arn:") ? RequestTargets.tableOfArn(requested) : requested;
        if (table == null || catalog.find(table) != null) return;
        for (OperationSeries op : operations.values()) {
            op.byTable.values().removeIf(t -> t.table.equals(table));
        }
        latency.removeIf(labels -> table.equals(labels.get(1)));
        for (StatefulMetric<?, ?> c : counters) c.removeIf(labels -> table.equals(labels.get(1)));
    }

    private OperationSeries operation(String name) {
        OperationSeries op = operations.get(name);
        return op != null ? op : operations.computeIfAbsent(name, OperationSeries::new);
    }

    // ---- series ------------------------------------------------------------------------------

    /** One operation's series, by table (as requests name it) and index. */
    private final class OperationSeries {
        final String operation;
        final ConcurrentHashMap<String, TableSeries> byTable = new ConcurrentHashMap<>();
        /** No table, or one that does not exist. */
        final TableSeries none;

        OperationSeries(String operation) {
            this.operation = operation;
            this.none = new TableSeries(operation, "");
        }

        Series series(String requestedTable, String index) {
            TableSeries t = requestedTable == null ? none : byTable.get(requestedTable);
            if (t == null) {
                String table = requestedTable.startsWith("arn:") ? RequestTargets.tableOfArn(requestedTable)
                        : requestedTable;
                // Only a table that exists gets a label of its own: the values stay bounded by the
                // tables there are, not by what clients send.
                if (table == null || catalog.find(table) == null) return none.plain;
                t = byTable.computeIfAbsent(requestedTable, r -> new TableSeries(operation, table));
            }
            return index == null ? t.plain : t.index(index);
        }
    }

    /** One operation's series on one table: the table's, and each index's a request named. */
    private final class TableSeries {
        final String operation;
        final String table;
        final Series plain;
        final ConcurrentHashMap<String, Series> byIndex = new ConcurrentHashMap<>(2);

        TableSeries(String operation, String table) {
            this.operation = operation;
            this.table = table;
            this.plain = new Series(operation, table, "");
        }

        Series index(String index) {
            Series s = byIndex.get(index);
            if (s != null) return s;
            TableDefinition definition = table.isEmpty() ? null : catalog.find(table);
            if (definition == null || definition.index(index) == null) return plain;
            return byIndex.computeIfAbsent(index, i -> new Series(operation, table, i));
        }
    }

    /**
     * The data points of one (operation, table, index), resolved on first use. Two threads may
     * both resolve one: the registry gives both the same data point, so either write is right.
     */
    private final class Series {
        final String[] labels;
        private DistributionDataPoint latencyPoint;
        private final CounterDataPoint[] counterPoints = new CounterDataPoint[6];

        Series(String operation, String table, String index) {
            this.labels = new String[] {operation, table, index};
        }

        DistributionDataPoint latency() {
            DistributionDataPoint p = latencyPoint;
            if (p == null) latencyPoint = p = latency.labelValues(labels);
            return p;
        }

        CounterDataPoint counter(int which) {
            CounterDataPoint p = counterPoints[which];
            if (p == null) counterPoints[which] = p = counters[which].labelValues(labels);
            return p;
        }
    }
}
