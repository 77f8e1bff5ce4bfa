package io.stator.server.api;

import static io.stator.server.testing.Attrs.b;
import static io.stator.server.testing.Attrs.bool;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.names;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.Attrs.ss;
import static io.stator.server.testing.DynamoAssertions.assertValidation;

import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyCases;
import io.stator.server.testing.KeyShape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * The Query requests DynamoDB refuses, each with its exact message, on a table keyed by the
 * string {@code pk} and on one keyed by {@code pk} and {@code sk} (both strings). Texts, and the
 * order in which the checks run, as recorded against DynamoDB by dynalite's and the conformance
 * suites (docs/dynamodb/query-scan.md sections 1.1 to 1.5, docs/dynamodb/expressions.md sections 3 and 10).
 */
class QueryErrorsTest {

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String START_KEY_INVALID = "The provided starting key is invalid";
    private static final String NOT_SUPPORTED = "Query key condition not supported";
    private static final String NOT_INDEXABLE = "Attempted conditional constraint is not an indexable operation";
    private static final String TYPE_MISMATCH = INVALID + "Condition parameter type does not match schema type";
    private static final String ONE_OR_TWO = "Conditions can be of length 1 or 2 only";

    private static final KeyShape HASH = new KeyShape(ScalarAttributeType.S, null);
    private static final KeyShape RANGE = new KeyShape(ScalarAttributeType.S, ScalarAttributeType.S);

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    /** A refused request (the members besides TableName) on a table of {@code shape}. */
    record Case(String description, KeyShape shape, Consumer<QueryRequest.Builder> request, String message) {
        @Override public String toString() { return description + (shape.hasSortKey() ? " (pk, sk)" : " (pk)"); }
    }

    // ---- building requests ------------------------------------------------------------------

    private static Condition condition(ComparisonOperator operator, AttributeValue... values) {
        return Condition.builder().comparisonOperator(operator).attributeValueList(values).build();
    }

    /** Conditions (KeyConditions, QueryFilter) from attribute, Condition pairs, in order. */
    private static Map<String, Condition> conditions(Object... namesAndConditions) {
        Map<String, Condition> c = new LinkedHashMap<>();
        for (int i = 0; i < namesAndConditions.length; i += 2) {
            c.put((String) namesAndConditions[i], (Condition) namesAndConditions[i + 1]);
        }
        return c;
    }

    /** A KeyConditionExpression and its :values (name, value pairs). */
    private static Consumer<QueryRequest.Builder> keyExpression(String expression, Object... values) {
        return b -> {
            b.keyConditionExpression(expression);
            if (values.length > 0) b.expressionAttributeValues(item(values));
        };
    }

    /** The KeyConditionExpression {@code pk = :pk}, and more. */
    private static Consumer<QueryRequest.Builder> byPartition(Consumer<QueryRequest.Builder> more) {
        return keyExpression("pk = :pk", ":pk", s("x")).andThen(more);
    }

    private static Consumer<QueryRequest.Builder> keyConditions(Object... namesAndConditions) {
        return b -> b.keyConditions(conditions(namesAndConditions));
    }

    private static Consumer<QueryRequest.Builder> startKey(Map<String, AttributeValue> key) {
        return b -> b.exclusiveStartKey(key);
    }

    private static AttributeValue bothTypes() {
        return AttributeValue.builder().s("a").n("1").build();
    }

    // ---- the cases --------------------------------------------------------------------------

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        parameters(c);
        keyConditionExpressions(c);
        legacyConditions(c);
        select(c);
        keySchema(c);
        filtersAndProjections(c);
        exclusiveStartKeys(c);
        return c;
    }

    private static void parameters(List<Case> c) {
        c.add(new Case("neither KeyConditions nor KeyConditionExpression", RANGE, b -> { },
                "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request."));
        // Query's own wording, unlike Scan's "Value '0' at 'limit'": no value, 'Limit' capitalised
        // (the conformance suite run against DynamoDB, query.test.ts@31fddc6, docs/dynamodb/query-scan.md;
        // the dynoxide and ExtendDB emulators pin the same text from live captures).
        c.add(new Case("Limit 0", RANGE, byPartition(b -> b.limit(0)),
                "1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1"));
        c.add(new Case("Select in the wrong case", RANGE, byPartition(b -> b.select("count")),
                "1 validation error detected: Value 'count' at 'select' failed to satisfy constraint: Member must "
                        + "satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]"));
        c.add(new Case("KeyConditions and KeyConditionExpression", RANGE,
                byPartition(keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}"));
        c.add(new Case("QueryFilter and FilterExpression", RANGE, byPartition(b -> b.filterExpression("a = :pk")
                .queryFilter(conditions("a", condition(ComparisonOperator.NULL)))),
                "Can not use both expression and non-expression parameters in the same request: Non-expression "
                        + "parameters: {QueryFilter} Expression parameters: {FilterExpression, KeyConditionExpression}"));
        c.add(new Case("AttributesToGet and ProjectionExpression with KeyConditions", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                        .andThen(b -> b.attributesToGet("a").projectionExpression("a")),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"));
        c.add(new Case("ExpressionAttributeValues without expressions", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                        .andThen(b -> b.expressionAttributeValues(item(":a", s("x")))),
                "ExpressionAttributeValues can only be specified when using expressions: "
                        + "FilterExpression and KeyConditionExpression are null"));
        c.add(new Case("ExpressionAttributeNames without expressions", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                        .andThen(b -> b.expressionAttributeNames(names("#a", "a"))),
                "ExpressionAttributeNames can only be specified when using expressions"));
        c.add(new Case("an unused value", RANGE, keyExpression("pk = :pk", ":pk", s("x"), ":other", s("y")),
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:other}"));
        c.add(new Case("duplicate AttributesToGet", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                .andThen(b -> b.attributesToGet("a", "a")), INVALID + "Duplicate value in attribute name: a"));
        c.add(new Case("a QueryFilter error comes before duplicate AttributesToGet", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ, s("x"))).andThen(b -> b.attributesToGet("a", "a")
                        .queryFilter(conditions("a", condition(ComparisonOperator.EQ)))),
                INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"));
    }

    private static void keyConditionExpressions(List<Case> c) {
        String operator = "Invalid operator used in KeyConditionExpression: ";
        String invalidCondition = "Invalid condition in KeyConditionExpression: ";
        Object[] values = {":a", s("x"), ":b", s("y")};
        c.add(new Case("empty", RANGE, keyExpression(""), "Invalid KeyConditionExpression: The expression can not be empty;"));
        c.add(new Case("OR", RANGE, keyExpression("pk = :a OR pk = :b", values), operator + "OR"));
        c.add(new Case("NOT", RANGE, keyExpression("NOT pk = :a", values[0], values[1]), operator + "NOT"));
        c.add(new Case("IN", RANGE, keyExpression("pk IN (:a, :b)", values), operator + "IN"));
        c.add(new Case("<>", RANGE, keyExpression("pk <> :a", values[0], values[1]), operator + "<>"));
        c.add(new Case("attribute_exists", RANGE, keyExpression("attribute_exists(pk)"), operator + "attribute_exists"));
        c.add(new Case("attribute_not_exists", RANGE, keyExpression("attribute_not_exists(pk)"),
                operator + "attribute_not_exists"));
        c.add(new Case("contains", RANGE, keyExpression("contains(pk, :a)", values[0], values[1]), operator + "contains"));
        c.add(new Case("attribute_type", RANGE, keyExpression("attribute_type(pk, :a)", ":a", s("S")),
                operator + "attribute_type"));
        c.add(new Case("begins_with in capitals", RANGE, keyExpression("pk = :a AND BEGINS_WITH(sk, :a)", values[0], values[1]),
                "Invalid KeyConditionExpression: Invalid function name; function: BEGINS_WITH"));
        c.add(new Case("size", RANGE, keyExpression("size(pk) > :a", ":a", n("1")),
                "KeyConditionExpressions cannot contain nested operations"));
        c.add(new Case("BETWEEN on a value", RANGE, keyExpression(":a BETWEEN pk AND :b", values),
                invalidCondition + "BETWEEN operator must have the key attribute as its first operand"));
        c.add(new Case("begins_with of a value", RANGE, keyExpression("begins_with(:a, sk)", values[0], values[1]),
                invalidCondition + "begins_with operator must have the key attribute as its first operand"));
        c.add(new Case("two attributes", RANGE, keyExpression("pk = sk"),
                invalidCondition + "Multiple attribute names used in one condition"));
        c.add(new Case("a map member", RANGE, keyExpression("pk.x = :a", values[0], values[1]),
                "KeyConditionExpressions cannot have conditions on nested attributes"));
        c.add(new Case("a list element", RANGE, keyExpression("pk[0] = :a", values[0], values[1]),
                "KeyConditionExpressions cannot have conditions on nested attributes"));
        c.add(new Case("no attribute", RANGE, keyExpression(":a = :b", values), invalidCondition + "No key attribute specified"));
        c.add(new Case("two conditions on one key", RANGE, keyExpression("pk = :a AND pk = :b", values),
                "KeyConditionExpressions must only contain one condition per key"));
        c.add(new Case("three conditions", RANGE, keyExpression(":a = pk and sk = :a and :a = c", values[0], values[1]),
                ONE_OR_TWO));
        c.add(new Case("BETWEEN of two types", RANGE, keyExpression("pk = :a AND sk BETWEEN :n AND :a", ":a", s("a"),
                ":n", n("1")), "Invalid KeyConditionExpression: The BETWEEN operator requires same data type for lower "
                        + "and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: "
                        + "AttributeValue: {S:a}"));
        c.add(new Case("BETWEEN upside down", RANGE, keyExpression("pk = :a AND sk BETWEEN :b AND :a", ":a", s("a"),
                ":b", s("b")), "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater "
                        + "than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: "
                        + "AttributeValue: {S:a}"));
        c.add(new Case("begins_with a number", RANGE, keyExpression("pk = :a AND begins_with(sk, :n)", ":a", s("a"),
                ":n", n("1")), "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
                        + "operator or function: begins_with, operand type: N"));
    }

    private static void legacyConditions(List<Case> c) {
        c.add(new Case("empty KeyConditions", RANGE, b -> b.keyConditions(Map.of()), ONE_OR_TWO));
        c.add(new Case("three KeyConditions", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")),
                "b", condition(ComparisonOperator.NULL), "c", condition(ComparisonOperator.NULL)), ONE_OR_TWO));
        c.add(new Case("an argument count error comes before the condition count", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ), "b", condition(ComparisonOperator.NULL),
                        "c", condition(ComparisonOperator.NULL)),
                INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"));
        c.add(new Case("EQ of two values", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x"), s("y"))),
                INVALID + "Invalid number of argument(s) for the EQ ComparisonOperator"));
        c.add(new Case("NULL of a value", RANGE, keyConditions("pk", condition(ComparisonOperator.NULL, s("x"))),
                INVALID + "Invalid number of argument(s) for the NULL ComparisonOperator"));
        c.add(new Case("IN of two types", RANGE, keyConditions("pk", condition(ComparisonOperator.IN, s("x"), n("1"))),
                INVALID + "AttributeValues inside AttributeValueList must be of same type"));
        c.add(new Case("LT of a BOOL", RANGE, keyConditions("pk", condition(ComparisonOperator.LT, bool(true))),
                INVALID + "ComparisonOperator LT is not valid for BOOL AttributeValue type"));
        c.add(new Case("BEGINS_WITH a number", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")),
                "sk", condition(ComparisonOperator.BEGINS_WITH, n("1"))),
                INVALID + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"));
        c.add(new Case("BETWEEN upside down", RANGE, keyConditions("pk", condition(ComparisonOperator.BETWEEN, s("b"), s("a"))),
                "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"));
        c.add(new Case("QueryFilter CONTAINS a set", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                .andThen(b -> b.queryFilter(conditions("a", condition(ComparisonOperator.CONTAINS, ss("x"))))),
                INVALID + "ComparisonOperator CONTAINS is not valid for SS AttributeValue type"));
    }

    private static void select(List<Case> c) {
        // Query words these inside "1 validation error detected: " (Scan does not).
        String prefix = "1 validation error detected: ";
        c.add(new Case("SPECIFIC_ATTRIBUTES without a projection", RANGE, byPartition(b -> b.select(Select.SPECIFIC_ATTRIBUTES)),
                prefix + "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"));
        c.add(new Case("ALL_PROJECTED_ATTRIBUTES without an index", RANGE,
                byPartition(b -> b.select(Select.ALL_PROJECTED_ATTRIBUTES)),
                prefix + "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"));
        for (Select select : List.of(Select.ALL_ATTRIBUTES, Select.ALL_PROJECTED_ATTRIBUTES, Select.COUNT)) {
            String what = select == Select.COUNT ? "only the Count" : select.toString();
            c.add(new Case("ProjectionExpression with " + select, RANGE,
                    byPartition(b -> b.select(select).projectionExpression("a")),
                    prefix + "Cannot specify the ProjectionExpression when choosing to get " + what));
            c.add(new Case("AttributesToGet with " + select, RANGE,
                    keyConditions("pk", condition(ComparisonOperator.EQ, s("x"))).andThen(b -> b.select(select)
                            .attributesToGet("a")),
                    prefix + "Cannot specify the AttributesToGet when choosing to get " + what));
        }
    }

    private static void keySchema(List<Case> c) {
        Object[] one = {":a", s("x")};
        for (String expression : List.of("pk = :a AND sk = :a", "y = :a and z = :a", "pk > :a", "pk < :a", ":a <= pk",
                ":a >= pk", "begins_with(pk, :a)", "pk between :a and :a")) {
            c.add(new Case(expression, HASH, keyExpression(expression, one), NOT_SUPPORTED));
        }
        for (ComparisonOperator operator : List.of(ComparisonOperator.LE, ComparisonOperator.LT, ComparisonOperator.GE,
                ComparisonOperator.GT, ComparisonOperator.BEGINS_WITH)) {
            c.add(new Case("KeyConditions pk " + operator, HASH, keyConditions("pk", condition(operator, s("x"))),
                    NOT_SUPPORTED));
        }
        c.add(new Case("KeyConditions pk BETWEEN", HASH, keyConditions("pk", condition(ComparisonOperator.BETWEEN,
                s("x"), s("y"))), NOT_SUPPORTED));
        c.add(new Case("KeyConditions pk EQ, sk EQ", HASH, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")),
                "sk", condition(ComparisonOperator.EQ, s("x"))), NOT_SUPPORTED));

        c.add(new Case("only the sort key", RANGE, keyExpression("sk = :a", one), "Query condition missed key schema element: pk"));
        c.add(new Case("only another attribute", RANGE, keyExpression("z between :a and :b", ":a", n("1"), ":b", n("2")),
                "Query condition missed key schema element: pk"));
        c.add(new Case("KeyConditions on another attribute", RANGE, keyConditions("z", condition(ComparisonOperator.NULL)),
                "Query condition missed key schema element: pk"));
        c.add(new Case("the partition key and another attribute", RANGE, keyExpression("pk = :a and c = :b", ":a", s("x"),
                ":b", n("1")), "Query condition missed key schema element: sk"));
        c.add(new Case("KeyConditions on the partition key and another attribute", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ, s("x")), "c", condition(ComparisonOperator.NULL)),
                "Query condition missed key schema element: sk"));

        for (ComparisonOperator operator : List.of(ComparisonOperator.NULL, ComparisonOperator.NOT_NULL,
                ComparisonOperator.NE, ComparisonOperator.CONTAINS, ComparisonOperator.NOT_CONTAINS, ComparisonOperator.IN)) {
            AttributeValue[] arguments = operator == ComparisonOperator.NULL || operator == ComparisonOperator.NOT_NULL
                    ? new AttributeValue[0] : new AttributeValue[] {s("x")};
            c.add(new Case("KeyConditions pk " + operator, HASH, keyConditions("pk", condition(operator, arguments)),
                    NOT_INDEXABLE));
            c.add(new Case("KeyConditions sk " + operator, RANGE, keyConditions("pk", condition(ComparisonOperator.EQ,
                    s("x")), "sk", condition(operator, arguments)).andThen(startKey(item("pk", s("a"), "sk", s("a")))),
                    NOT_INDEXABLE));
        }

        c.add(new Case("a number for a string partition key, reversed", HASH, keyExpression(":a > pk", ":a", n("1")),
                TYPE_MISMATCH));
        c.add(new Case("a number for a string partition key", RANGE, keyExpression("pk = :a", ":a", n("1")), TYPE_MISMATCH));
        c.add(new Case("binary for a string sort key", RANGE, keyExpression("pk = :a AND sk < :b", ":a", s("x"), ":b", b(1)),
                TYPE_MISMATCH));
        c.add(new Case("KeyConditions of the wrong types", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")),
                "sk", condition(ComparisonOperator.BETWEEN, n("1"), n("2"))), TYPE_MISMATCH));
    }

    private static void filtersAndProjections(List<Case> c) {
        String filter = "Filter Expression can only contain non-primary key attributes: Primary key attribute: ";
        for (String expression : List.of("pk = :b", "attribute_exists(pk.b) AND c = :b", "pk[1] = :b")) {
            c.add(new Case("FilterExpression " + expression, HASH, keyExpression("pk = :a", ":a", s("x"), ":b", n("1"))
                    .andThen(b -> b.filterExpression(expression)), filter + "pk"));
        }
        for (String expression : List.of("sk = :b", "attribute_exists(sk.c) AND c = :b", "size(sk) > :b")) {
            c.add(new Case("FilterExpression " + expression, RANGE, keyExpression("pk = :a", ":a", s("x"), ":b", n("1"))
                    .andThen(b -> b.filterExpression(expression)), filter + "sk"));
        }
        String queryFilter = "QueryFilter can only contain non-primary key attributes: Primary key attribute: ";
        c.add(new Case("QueryFilter on the partition key", HASH, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                .andThen(b -> b.queryFilter(conditions("pk", condition(ComparisonOperator.EQ, s("x"))))), queryFilter + "pk"));
        c.add(new Case("QueryFilter on the sort key", RANGE, keyConditions("pk", condition(ComparisonOperator.EQ, s("x")))
                .andThen(b -> b.queryFilter(conditions("sk", condition(ComparisonOperator.NOT_NULL)))), queryFilter + "sk"));
        String scalars = "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: ";
        c.add(new Case("projecting into the partition key", RANGE, byPartition(b -> b.projectionExpression("a, pk.x")),
                scalars + "pk"));
        c.add(new Case("projecting into the sort key", RANGE, byPartition(b -> b.projectionExpression("sk[0]")), scalars + "sk"));
    }

    private static void exclusiveStartKeys(List<Case> c) {
        // The values themselves, checked before the table: some messages say which parameter, some do not.
        String invalidStart = START_KEY_INVALID + ": ";
        c.add(new Case("a start key value without a type", RANGE,
                byPartition(startKey(item("pk", AttributeValue.builder().build()))),
                invalidStart + "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"));
        c.add(new Case("a start key value of two types, before the key conditions are missed", RANGE,
                startKey(item("pk", bothTypes())),
                invalidStart + "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
                        + "supported datatypes"));
        c.add(new Case("a false NULL in the start key", RANGE, byPartition(startKey(item("pk", AttributeValue.fromNul(false)))),
                invalidStart + INVALID + "Null attribute value types must have the value of true"));
        c.add(new Case("an empty string set in the start key", RANGE,
                byPartition(startKey(item("pk", AttributeValue.fromSs(List.of())))),
                invalidStart + INVALID + "An string set  may not be empty"));
        c.add(new Case("an empty binary set in the start key", RANGE,
                byPartition(startKey(item("pk", AttributeValue.fromBs(List.of())))),
                invalidStart + INVALID + "Binary sets should not be empty"));
        c.add(new Case("an empty number set in the start key", RANGE,
                byPartition(startKey(item("pk", AttributeValue.fromNs(List.of())))), INVALID + "An number set  may not be empty"));
        c.add(new Case("a set with duplicates in the start key", RANGE,
                byPartition(startKey(item("pk", AttributeValue.fromSs(List.of("a", "a"))))),
                INVALID + "Input collection [a, a] contains duplicates."));
        c.add(new Case("a non-number in the start key", RANGE, byPartition(startKey(item("pk", n("b")))),
                "The parameter cannot be converted to a numeric value: b"));
        c.add(new Case("39 digits in the start key", RANGE, byPartition(startKey(item("pk", n("1".repeat(39))))),
                "Attempting to store more than 38 significant digits in a Number"));

        // Against the key schema.
        for (Map<String, AttributeValue> start : List.of(Map.<String, AttributeValue>of(), item("sk", s("a")),
                item("pk", s("x"), "sk", s("a")))) {
            c.add(new Case("start key " + start, HASH, byPartition(startKey(start)), START_KEY_INVALID));
        }
        for (Map<String, AttributeValue> start : List.of(Map.<String, AttributeValue>of(), item("z", n("1")), item("pk", s("x")),
                item("pk", s("x"), "c", n("1")), item("pk", s("x"), "sk", s("a"), "c", s("b")))) {
            c.add(new Case("start key " + start, RANGE, byPartition(startKey(start)), START_KEY_INVALID));
        }
        KeyCases.oneValueOfEachType().forEach((type, value) -> {
            if (!type.equals("S")) {
                c.add(new Case("start key pk of type " + type, HASH, byPartition(startKey(item("pk", value))),
                        KeyCases.DOES_NOT_MATCH));
                c.add(new Case("start key sk of type " + type, RANGE, byPartition(startKey(item("pk", s("x"), "sk", value))),
                        KeyCases.DOES_NOT_MATCH));
            }
        });
        c.add(new Case("start key with the partition key missed by the conditions", RANGE,
                keyConditions("z", condition(ComparisonOperator.NULL)).andThen(startKey(item("pk", s("a"), "sk", n("1")))),
                "Query condition missed key schema element: pk"));
        c.add(new Case("start key in another partition", HASH, byPartition(startKey(item("pk", s("other")))),
                "The provided starting key is outside query boundaries based on provided conditions"));
        c.add(new Case("start key in another partition, no sort key condition", RANGE,
                byPartition(startKey(item("pk", s("other"), "sk", s("a")))),
                "The provided starting key is outside query boundaries based on provided conditions"));
        c.add(new Case("start key outside the sort key condition", RANGE, keyExpression("pk = :a and sk > :a", ":a", s("b"))
                .andThen(startKey(item("pk", s("b"), "sk", s("a")))),
                "The provided starting key does not match the range key predicate"));
        c.add(new Case("KeyConditions, start key outside the sort key condition", RANGE,
                keyConditions("pk", condition(ComparisonOperator.EQ, s("b")), "sk", condition(ComparisonOperator.BEGINS_WITH,
                        s("b"))).andThen(startKey(item("pk", s("b"), "sk", s("a")))),
                "The provided starting key does not match the range key predicate"));
        c.add(new Case("start key outside both conditions", RANGE, keyExpression("pk = :a and sk > :a", ":a", s("b"))
                .andThen(startKey(item("pk", s("a"), "sk", s("a")))),
                "The provided starting key does not match the range key predicate"));
        c.add(new Case("start key in the sort key condition but another partition", RANGE,
                keyExpression("pk = :a and sk < :a", ":a", s("b")).andThen(startKey(item("pk", s("a"), "sk", s("a")))),
                "The query can return at most one row and cannot be restarted"));
    }

    // ---- the test ---------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void queryIsRefusedWithDynamoDbsMessage(Case c) {
        assertValidation(c.toString(), c.message(), () -> db.client().query(b -> {
            b.tableName(db.table(c.shape()));
            c.request().accept(b);
        }));
    }
}
