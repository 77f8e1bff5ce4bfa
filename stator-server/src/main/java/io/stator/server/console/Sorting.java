package io.stator.server.console;

import io.stator.core.error.DynamoDbException;
import io.stator.server.advisor.View;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The Access patterns page's order, chosen by its column headers (sort, order): on the server, so that a refresh keeps it. */
final class Sorting {

    static final Map<String, Comparator<View.Pattern>> COLUMNS = Map.of(
            "signature", Comparator.comparing(p -> p.figures().signature().describe()),
            "calls", Comparator.comparingLong(p -> p.figures().calls()),
            "units", Comparator.comparingLong(p -> p.figures().totalHalves()),
            "throttled", Comparator.comparingLong(p -> p.figures().throttled()),
            "cost", Comparator.comparingDouble(p -> p.cost().dollarsPerMonth()));

    private Sorting() {}

    static View.AccessPatterns sorted(View.AccessPatterns view, String column, boolean descending) {
        Comparator<View.Pattern> order = COLUMNS.get(column);
        if (order == null) {
            throw DynamoDbException.validation("sort must be one of " + String.join(", ", COLUMNS.keySet().stream()
                    .sorted().toList()) + ": " + column);
        }
        List<View.Pattern> patterns = new ArrayList<>(view.patterns());
        patterns.sort(descending ? order.reversed() : order);
        return new View.AccessPatterns(view.tableName(), view.fromMinute(), view.toMinute(), patterns, view.pricesDate(),
                view.scale(), view.hidden());
    }
}
