package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.read.Select;
import io.stator.server.protocol.request.Unvalidated;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the read actions share: what to return of an item (ProjectionExpression or the legacy
 * AttributesToGet), and for Query and Scan the ExclusiveStartKey's values, Select with its
 * projections, Limit, and the response (Items, Count, ScannedCount, LastEvaluatedKey,
 * ConsumedCapacity).
 */
public final class ReadRequests {

    /**
     * DynamoDB puts "The provided starting key is invalid: " before some of the attribute-value
     * errors of an ExclusiveStartKey and not before others (recorded by dynalite's suite).
     */
    private static final Pattern UNPREFIXED_START_KEY_ERRORS =
            Pattern.compile("contains duplicates|number set|numeric value|significant digits|number with magnitude");

    private ReadRequests() {}

    /** AttributesToGet as paths; DynamoDB refuses a name given twice. */
    public static List<Path> topLevelPaths(List<String> attributesToGet) {
        HashSet<String> seen = new HashSet<>();
        List<Path> paths = new ArrayList<>(attributesToGet.size());
        for (String name : attributesToGet) {
            if (!seen.add(name)) throw DynamoDbException.invalidParameter("Duplicate value in attribute name: " + name);
            paths.add(Path.of(name));
        }
        return paths;
    }

    /**
     * What a single-item read returns of the item: the paths of ProjectionExpression, or the
     * top-level attributes of the legacy AttributesToGet (which may not name one twice); null for
     * the whole item.
     */
    public static List<Path> projection(List<String> attributesToGet, String projectionExpression,
                                 Map<String, String> expressionAttributeNames) {
        List<Path> paths = attributesToGet == null ? null : topLevelPaths(attributesToGet);
        ExpressionContext expressions = ExpressionParameters.context(expressionAttributeNames, null);
        if (projectionExpression != null) paths = expressions.projection(projectionExpression);
        expressions.checkAllUsed();
        return paths;
    }

    /** The ExclusiveStartKey, or null; its invalid values reported as DynamoDB reports them. */
    public static Map<String, AttributeValue> exclusiveStartKey(Unvalidated<Map<String, AttributeValue>> key) {
        if (key == null) return null;
        return key.validated((name, error) ->
                UNPREFIXED_START_KEY_ERRORS.matcher(error.getMessage()).find() ? error
                        : DynamoDbException.validation("The provided starting key is invalid: " + error.getMessage()));
    }

    /** The most items to read: Limit, or no limit but the page size. */
    public static int limit(Integer limit) {
        return limit != null ? limit : Integer.MAX_VALUE;
    }

    /**
     * Checks Select against the projection and returns it (null when not given). Query words
     * these errors inside "1 validation error detected: ", Scan without it (as recorded from
     * DynamoDB).
     *
     * @param projection "ProjectionExpression" or "AttributesToGet" when one is given, else null
     */
    public static Select select(io.stator.server.protocol.request.Select select, String projection, boolean onIndex,
                         boolean query) {
        String prefix = query ? "1 validation error detected: " : "";
        if (select == null) return null;
        Select engineSelect = switch (select) {
            case ALL_ATTRIBUTES -> Select.ALL_ATTRIBUTES;
            case ALL_PROJECTED_ATTRIBUTES -> Select.ALL_PROJECTED_ATTRIBUTES;
            case SPECIFIC_ATTRIBUTES -> Select.SPECIFIC_ATTRIBUTES;
            case COUNT -> Select.COUNT;
        };
        if (projection != null && engineSelect != Select.SPECIFIC_ATTRIBUTES) {
            String what = engineSelect == Select.COUNT ? "only the Count" : select.wireName();
            throw DynamoDbException.validation(prefix + "Cannot specify the " + projection + " when choosing to get " + what);
        }
        if (engineSelect == Select.SPECIFIC_ATTRIBUTES && projection == null) {
            throw DynamoDbException.validation(prefix
                    + "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        }
        if (engineSelect == Select.ALL_PROJECTED_ATTRIBUTES && !onIndex) {
            throw DynamoDbException.validation(prefix
                    + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        return engineSelect;
    }

    /** Which projection member a request gives, for Select's messages: null for none. */
    public static String projectionMember(String projectionExpression, List<String> attributesToGet) {
        return projectionExpression != null ? "ProjectionExpression" : attributesToGet != null ? "AttributesToGet" : null;
    }
}
