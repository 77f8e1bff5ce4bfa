package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.model.AttributeValue;
import io.stator.engine.item.PageReader.Page;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What Query and Scan share: the ExclusiveStartKey's values, Select with its projections, Limit,
 * and the response (Items, Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity).
 */
final class ReadRequests {

    /**
     * DynamoDB puts "The provided starting key is invalid: " before some of the attribute-value
     * errors of an ExclusiveStartKey and not before others (recorded by dynalite's suite).
     */
    private static final Pattern UNPREFIXED_START_KEY_ERRORS =
            Pattern.compile("contains duplicates|number set|numeric value|significant digits|number with magnitude");

    private ReadRequests() {}

    /** The ExclusiveStartKey, or null; its invalid values reported as DynamoDB reports them. */
    static Map<String, AttributeValue> exclusiveStartKey(Struct request) {
        return request.attributeMap("ExclusiveStartKey", (key, error) ->
                UNPREFIXED_START_KEY_ERRORS.matcher(error.getMessage()).find() ? error
                        : DynamoDbException.validation("The provided starting key is invalid: " + error.getMessage()));
    }

    /** The most items to read: Limit, or no limit but the page size. */
    static int limit(Struct request) {
        return request.has("Limit") ? request.intValue("Limit") : Integer.MAX_VALUE;
    }

    /**
     * Checks Select against the projection and returns whether only the count is asked for.
     * Query words these errors inside "1 validation error detected: ", Scan without it (as
     * recorded from DynamoDB).
     */
    static boolean countOnly(Struct request, boolean query) {
        String select = request.string("Select");
        String prefix = query ? "1 validation error detected: " : "";
        String projection = request.has("ProjectionExpression") ? "ProjectionExpression"
                : request.has("AttributesToGet") ? "AttributesToGet" : null;
        if (select != null && projection != null && !select.equals("SPECIFIC_ATTRIBUTES")) {
            String what = switch (select) {
                case "COUNT" -> "only the Count";
                default -> select;
            };
            throw DynamoDbException.validation(prefix + "Cannot specify the " + projection + " when choosing to get " + what);
        }
        if ("SPECIFIC_ATTRIBUTES".equals(select) && projection == null) {
            throw DynamoDbException.validation(prefix
                    + "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
        }
        if ("ALL_PROJECTED_ATTRIBUTES".equals(select) && !request.has("IndexName")) {
            throw DynamoDbException.validation(prefix
                    + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        }
        return "COUNT".equals(select);
    }

    static void writePage(JsonGenerator g, Struct request, Page page, List<Path> projection, boolean countOnly)
            throws IOException {
        if (!countOnly) {
            g.writeArrayFieldStart("Items");
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValueJson.writeItem(g, projection == null ? item : Projector.project(item, projection));
            }
            g.writeEndArray();
        }
        g.writeNumberField("Count", page.items().size());
        g.writeNumberField("ScannedCount", page.scannedCount());
        if (page.lastEvaluatedKey() != null) {
            g.writeFieldName("LastEvaluatedKey");
            AttributeValueJson.writeItem(g, page.lastEvaluatedKey());
        }
        ItemRules.writeConsumedCapacity(g, request, page.consumed());
    }
}
