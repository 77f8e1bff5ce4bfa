package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.model.AttributeValue;
import io.stator.server.protocol.Struct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * DynamoDB's rules for a request's expression parameters, checked in its order: legacy and
 * expression parameters may not be mixed; ExpressionAttributeNames need an expression, and
 * ExpressionAttributeValues an expression that takes values; neither map may be empty, and
 * their keys must be {@code #name} / {@code :value}; every value must be a valid attribute value.
 * The expressions themselves are then parsed through the returned {@link ExpressionContext}.
 */
final class ExpressionParameters {

    private static final Pattern NAME_KEY = Pattern.compile("#[0-9a-zA-Z_]+");
    private static final Pattern VALUE_KEY = Pattern.compile(":[0-9a-zA-Z_]+");

    private ExpressionParameters() {}

    /**
     * Checks how expression and legacy parameters are combined.
     *
     * @param expressions the action's expression members, in DynamoDB's order
     * @param legacy      the action's legacy members, in DynamoDB's order
     */
    static void checkCombination(Struct request, List<String> expressions, List<String> legacy) {
        List<String> present = presentOf(request, expressions);
        if (!present.isEmpty()) {
            List<String> legacyPresent = presentOf(request, legacy);
            if (!legacyPresent.isEmpty()) {
                throw DynamoDbException.validation("Can not use both expression and non-expression parameters in the "
                        + "same request: Non-expression parameters: {" + String.join(", ", legacyPresent)
                        + "} Expression parameters: {" + String.join(", ", present) + "}");
            }
        }
        if (request.has("ExpressionAttributeNames") && present.isEmpty()) {
            throw DynamoDbException.validation("ExpressionAttributeNames can only be specified when using expressions");
        }
        List<String> valueExpressions = new ArrayList<>(expressions);
        valueExpressions.remove("ProjectionExpression");
        if (!valueExpressions.isEmpty() && request.has("ExpressionAttributeValues")
                && presentOf(request, valueExpressions).isEmpty()) {
            throw DynamoDbException.validation("ExpressionAttributeValues can only be specified when using expressions: "
                    + String.join(" and ", valueExpressions) + (valueExpressions.size() > 1 ? " are" : " is") + " null");
        }
    }

    /** Checks the two maps and returns the context the request's expressions are parsed in. */
    static ExpressionContext context(Struct request) {
        Map<String, String> names = request.stringMap("ExpressionAttributeNames");
        if (names != null) {
            if (names.isEmpty()) throw DynamoDbException.validation("ExpressionAttributeNames must not be empty");
            for (String key : names.keySet()) {
                if (!NAME_KEY.matcher(key).matches()) {
                    throw DynamoDbException.validation(
                            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
                }
            }
        }
        Map<String, AttributeValue> values = null;
        if (request.has("ExpressionAttributeValues")) {
            java.util.Set<String> keys = request.keysOf("ExpressionAttributeValues");
            if (keys.isEmpty()) throw DynamoDbException.validation("ExpressionAttributeValues must not be empty");
            for (String key : keys) {
                if (!VALUE_KEY.matcher(key).matches()) {
                    throw DynamoDbException.validation(
                            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
                }
            }
            values = request.attributeMap("ExpressionAttributeValues", (key, error) -> DynamoDbException.validation(
                    "ExpressionAttributeValues contains invalid value: " + error.getMessage() + " for key " + key));
        }
        return new ExpressionContext(names, values);
    }

    private static List<String> presentOf(Struct request, List<String> members) {
        List<String> present = new ArrayList<>(members.size());
        for (String m : members) if (request.has(m)) present.add(m);
        return present;
    }
}
