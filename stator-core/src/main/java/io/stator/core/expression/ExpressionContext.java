package io.stator.core.expression;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.Utf8;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The expressions of one request and their placeholders: parses (through the cache), checks and
 * resolves each expression, remembering which placeholders were used so that unused ones can be
 * reported at the end, as DynamoDB does.
 *
 * <p>Phases, in DynamoDB's order: the size limit, then syntax ({@link Parser}), then the semantic
 * checks of {@link Semantics} in DynamoDB's priority order, then resolution of #names and
 * :values. Once an expression passes, evaluating it cannot fail on its own account, so an update
 * applies whole or not at all.
 */
public final class ExpressionContext {

    /** The most bytes an expression may have. */
    public static final int MAX_EXPRESSION_BYTES = 4096;

    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;
    private final Set<String> usedNames = new LinkedHashSet<>();
    private final Set<String> usedValues = new LinkedHashSet<>();

    /** Either map may be null when the request has none. */
    public ExpressionContext(Map<String, String> names, Map<String, AttributeValue> values) {
        this.names = names == null ? Map.of() : names;
        this.values = values == null ? Map.of() : values;
    }

    /** A ConditionExpression, FilterExpression or KeyConditionExpression, resolved. */
    public Condition condition(ExpressionKind kind, String text) {
        ParsedExpression parsed = parse(kind, text);
        return new Semantics(parsed, this).condition();
    }

    /** An UpdateExpression's actions, resolved, in the order written. */
    public List<UpdateAction> update(String text) {
        ParsedExpression parsed = parse(ExpressionKind.UPDATE, text);
        return new Semantics(parsed, this).update();
    }

    /** A ProjectionExpression's paths, resolved. */
    public List<Path> projection(String text) {
        ParsedExpression parsed = parse(ExpressionKind.PROJECTION, text);
        return new Semantics(parsed, this).projection();
    }

    /** Reports names, then values, that were defined but used by no expression. */
    public void checkAllUsed() {
        List<String> unusedNames = new ArrayList<>();
        for (String n : names.keySet()) if (!usedNames.contains(n)) unusedNames.add(n);
        if (!unusedNames.isEmpty()) {
            throw DynamoDbException.validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {"
                    + String.join(", ", unusedNames) + "}");
        }
        List<String> unusedValues = new ArrayList<>();
        for (String v : values.keySet()) if (!usedValues.contains(v)) unusedValues.add(v);
        if (!unusedValues.isEmpty()) {
            throw DynamoDbException.validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {"
                    + String.join(", ", unusedValues) + "}");
        }
    }

    private static ParsedExpression parse(ExpressionKind kind, String text) {
        if (text.isEmpty()) throw DynamoDbException.validation(kind.errorPrefix() + "The expression can not be empty;");
        int bytes = Utf8.encodedLength(text);
        if (bytes > MAX_EXPRESSION_BYTES) {
            throw DynamoDbException.validation(kind.errorPrefix()
                    + "Expression size has exceeded the maximum allowed size; expression size: " + bytes);
        }
        return ExpressionCache.parse(kind, text);
    }


    // ---- used by Semantics --------------------------------------------------------------------

    String name(String placeholder) {
        String name = names.get(placeholder);
        if (name != null) usedNames.add(placeholder);
        return name;
    }

    AttributeValue value(String placeholder) {
        AttributeValue value = values.get(placeholder);
        if (value != null) usedValues.add(placeholder);
        return value;
    }

    Set<String> usedNames() { return Collections.unmodifiableSet(usedNames); }
}
