package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.model.AttributeValue;
import io.stator.server.protocol.request.Unvalidated;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * DynamoDB's rules for a request's expression parameters, checked in its order: legacy and
 * expression parameters may not be mixed; ExpressionAttributeNames need an expression, and
 * ExpressionAttributeValues an expression that takes values; neither map may be empty, and
 * their keys must be {@code #name} / {@code :value}; every value must be a valid attribute value.
 * The expressions themselves are then parsed through the returned {@link ExpressionContext}.
 */
public final class ExpressionParameters {

    private static final Pattern NAME_KEY = Pattern.compile("#[0-9a-zA-Z_]+");
    private static final Pattern VALUE_KEY = Pattern.compile(":[0-9a-zA-Z_]+");

    private ExpressionParameters() {}

    /** A request member by DynamoDB's name for it (its messages name members), and its value or null. */
    public record Member(String name, Object value) {
        public boolean present() {
            return value != null;
        }
    }

    public static Member member(String name, Object value) {
        return new Member(name, value);
    }

    /**
     * Checks how expression and legacy parameters are combined.
     *
     * @param expressions the action's expression members, in DynamoDB's order
     * @param legacy      the action's legacy members, in DynamoDB's order
     * @param names       the request's ExpressionAttributeNames, or null
     * @param values      the request's ExpressionAttributeValues, or null
     */
    public static void checkCombination(List<Member> expressions, List<Member> legacy, Map<String, String> names,
                                 Unvalidated<Map<String, AttributeValue>> values) {
        List<String> present = presentOf(expressions);
        if (!present.isEmpty()) {
            List<String> legacyPresent = presentOf(legacy);
            if (!legacyPresent.isEmpty()) {
                throw DynamoDbException.validation("Can not use both expression and non-expression parameters in the "
                        + "same request: Non-expression parameters: {" + String.join(", ", legacyPresent)
                        + "} Expression parameters: {" + String.join(", ", present) + "}");
            }
        }
        if (names != null && present.isEmpty()) {
            throw DynamoDbException.validation("ExpressionAttributeNames can only be specified when using expressions");
        }
        List<Member> valueExpressions = new ArrayList<>(expressions.size());
        for (Member m : expressions) if (!m.name().equals("ProjectionExpression")) valueExpressions.add(m);
        if (!valueExpressions.isEmpty() && values != null && presentOf(valueExpressions).isEmpty()) {
            List<String> valueNames = new ArrayList<>(valueExpressions.size());
            for (Member m : valueExpressions) valueNames.add(m.name());
            throw DynamoDbException.validation("ExpressionAttributeValues can only be specified when using expressions: "
                    + String.join(" and ", valueNames) + (valueNames.size() > 1 ? " are" : " is") + " null");
        }
    }

    /** Checks the two maps (either may be null) and returns the context the request's expressions are parsed in. */
    public static ExpressionContext context(Map<String, String> names, Unvalidated<Map<String, AttributeValue>> values) {
        if (names != null) {
            if (names.isEmpty()) throw DynamoDbException.validation("ExpressionAttributeNames must not be empty");
            for (Map.Entry<String, String> e : names.entrySet()) {
                String key = e.getKey();
                if (!NAME_KEY.matcher(key).matches()) {
                    throw DynamoDbException.validation(
                            "ExpressionAttributeNames contains invalid key: Syntax error; key: \"" + key + "\"");
                }
                if (e.getValue() != null && e.getValue().isEmpty()) {
                    throw DynamoDbException.validation("ExpressionAttributeNames contains invalid value: Empty attribute name "
                            + "for key " + key);
                }
            }
        }
        Map<String, AttributeValue> resolved = null;
        if (values != null) {
            Set<String> keys = values.names();
            if (keys.isEmpty()) throw DynamoDbException.validation("ExpressionAttributeValues must not be empty");
            for (String key : keys) {
                if (!VALUE_KEY.matcher(key).matches()) {
                    throw DynamoDbException.validation(
                            "ExpressionAttributeValues contains invalid key: Syntax error; key: \"" + key + "\"");
                }
            }
            resolved = values.validated((key, error) -> DynamoDbException.validation(
                    "ExpressionAttributeValues contains invalid value: " + error.getMessage() + " for key " + key));
        }
        return new ExpressionContext(names, resolved);
    }

    private static List<String> presentOf(List<Member> members) {
        List<String> present = new ArrayList<>(members.size());
        for (Member m : members) if (m.present()) present.add(m.name());
        return present;
    }
}
