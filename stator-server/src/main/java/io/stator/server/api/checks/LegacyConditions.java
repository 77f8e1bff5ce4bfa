package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition.Comparator;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.Values;
import io.stator.core.model.AttributeValue;
import io.stator.engine.read.ComparisonOperator;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.server.protocol.request.ConditionalOperator;
import io.stator.server.protocol.request.ExpectedAttributeValue;
import io.stator.server.protocol.request.Unvalidated;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The legacy conditional parameters ({@code Expected} with {@code ConditionalOperator},
 * QueryFilter, ScanFilter, KeyConditions), checked with DynamoDB's messages and translated into
 * the same condition tree an expression parses to, so that one evaluator serves both. Each entry
 * names a top-level attribute (dots in its name are part of the name).
 */
public final class LegacyConditions {

    private LegacyConditions() {}

    /** The Expected parameter as a condition, or null when the request has none. */
    public static Condition expected(Map<String, ExpectedAttributeValue> expected, ConditionalOperator operator) {
        if (expected == null) {
            if (operator != null) {
                throw DynamoDbException.validation("ConditionalOperator cannot be used without Filter or Expected");
            }
            return null;
        }
        List<Condition> conditions = new ArrayList<>(expected.size());
        for (Map.Entry<String, ExpectedAttributeValue> e : expected.entrySet()) {
            conditions.add(entry(e.getKey(), e.getValue()));
        }
        if (conditions.isEmpty()) {
            // An empty Expected is valid (test_expected.py::test_update_expected_empty), but not
            // with a ConditionalOperator (ibid.; the text is DynamoDB Local's).
            if (operator != null) {
                throw DynamoDbException.validation("ConditionalOperator cannot be used without Filter or Expected");
            }
            return null;
        }
        Condition result = conditions.get(0);
        boolean or = operator == ConditionalOperator.OR;
        for (int i = 1; i < conditions.size(); i++) {
            result = or ? new Condition.Or(result, conditions.get(i)) : new Condition.And(result, conditions.get(i));
        }
        return result;
    }

    private static Condition entry(String attribute, ExpectedAttributeValue entry) {
        AttributeValue value = validated(entry.value());
        List<AttributeValue> list = validated(entry.attributeValueList());
        String comparison = entry.comparisonOperator();
        Boolean exists = entry.exists();
        if (list != null && value != null) {
            throw DynamoDbException.invalidParameter(
                    "Value and AttributeValueList cannot be used together for Attribute: " + attribute);
        }
        Operand.PathOperand path = new Operand.PathOperand(Path.of(attribute));
        if (comparison != null) {
            if (exists != null) {
                throw DynamoDbException.invalidParameter(
                        "Exists and ComparisonOperator cannot be used together for Attribute: " + attribute);
            }
            if (!comparison.equals("NULL") && !comparison.equals("NOT_NULL") && list == null && value == null) {
                throw DynamoDbException.invalidParameter("Value or AttributeValueList must be used with "
                        + "ComparisonOperator: " + comparison + " for Attribute: " + attribute);
            }
            List<AttributeValue> arguments = list != null ? list : value != null ? List.of(value) : List.of();
            return comparison(path, comparison, arguments);
        }
        if (list != null) {
            throw DynamoDbException.invalidParameter(
                    "AttributeValueList can only be used with a ComparisonOperator for Attribute: " + attribute);
        }
        boolean mustExist = exists == null || exists;
        if (mustExist && value == null) {
            throw DynamoDbException.invalidParameter("Value must be provided when Exists is "
                    + (exists == null ? "null" : "true") + " for Attribute: " + attribute);
        }
        if (!mustExist && value != null) {
            throw DynamoDbException.invalidParameter("Value cannot be used when Exists is false for Attribute: " + attribute);
        }
        return mustExist ? new Condition.Comparison(Comparator.EQ, path, new Operand.Constant(value))
                : function("attribute_not_exists", path);
    }

    /**
     * A QueryFilter or ScanFilter as a condition, or null when the request has none; its entries
     * combine with ConditionalOperator (AND when absent).
     */
    public static Condition filter(Map<String, io.stator.server.protocol.request.Condition> filter,
                            ConditionalOperator operator) {
        if (filter == null) return null;
        Condition result = null;
        boolean or = operator == ConditionalOperator.OR;
        for (Map.Entry<String, io.stator.server.protocol.request.Condition> e : filter.entrySet()) {
            List<AttributeValue> values = validated(e.getValue().attributeValueList());
            Condition c = comparison(new Operand.PathOperand(Path.of(e.getKey())),
                    e.getValue().comparisonOperator(), values == null ? List.of() : values);
            result = result == null ? c : or ? new Condition.Or(result, c) : new Condition.And(result, c);
        }
        return result;
    }

    /**
     * The legacy KeyConditions as the engine's key conditions (attribute to ComparisonOperator
     * and values), their arguments checked as a filter's are.
     */
    public static Map<String, KeyCondition> keyConditions(Map<String, io.stator.server.protocol.request.Condition> conditions) {
        Map<String, KeyCondition> result = new LinkedHashMap<>();
        for (Map.Entry<String, io.stator.server.protocol.request.Condition> e : conditions.entrySet()) {
            List<AttributeValue> values = validated(e.getValue().attributeValueList());
            String operator = e.getValue().comparisonOperator();
            values = values == null ? List.of() : values;
            checkArguments(operator, values, KEY_OPERATOR_TYPES);
            // The model's ComparisonOperator values, checked as an enum before the action runs.
            result.put(e.getKey(), new KeyCondition(ComparisonOperator.valueOf(operator), values));
        }
        return result;
    }

    private static <T> T validated(Unvalidated<T> values) {
        return values == null ? null : values.validated();
    }

    /** The value types each ComparisonOperator takes in KeyConditions. */
    private static final Map<String, Set<AttributeValue.Type>> KEY_OPERATOR_TYPES;

    /**
     * The value types each ComparisonOperator takes in Expected, QueryFilter and ScanFilter. EQ
     * and NE take every type: lists, maps, sets and booleans compare by equality (scylladb
     * test/alternator/test_query_filter.py, test_query_filter_eq and _ne, run against DynamoDB;
     * dynalite's narrower table is contradicted there); CONTAINS and NOT_CONTAINS take a scalar, a
     * boolean or NULL (AWS's DAX client checks requests so); a type an operator does not take is a
     * ValidationException in Expected too (test_expected.py: BEGINS_WITH with a number, CONTAINS
     * with a list, IN with lists, BETWEEN with sets), checked before any item is read.
     */
    private static final Map<String, Set<AttributeValue.Type>> CONDITION_OPERATOR_TYPES;
    static {
        Set<AttributeValue.Type> scalars = EnumSet.of(AttributeValue.Type.S, AttributeValue.Type.N, AttributeValue.Type.B);
        Set<AttributeValue.Type> scalarsAndSets = EnumSet.of(AttributeValue.Type.S, AttributeValue.Type.N,
                AttributeValue.Type.B, AttributeValue.Type.SS, AttributeValue.Type.NS, AttributeValue.Type.BS);
        Set<AttributeValue.Type> contained = EnumSet.of(AttributeValue.Type.S, AttributeValue.Type.N,
                AttributeValue.Type.B, AttributeValue.Type.BOOL, AttributeValue.Type.NULL);
        Set<AttributeValue.Type> prefixes = EnumSet.of(AttributeValue.Type.S, AttributeValue.Type.B);
        KEY_OPERATOR_TYPES = Map.ofEntries(Map.entry("EQ", scalarsAndSets), Map.entry("NE", scalarsAndSets),
                Map.entry("LE", scalars), Map.entry("LT", scalars), Map.entry("GE", scalars), Map.entry("GT", scalars),
                Map.entry("CONTAINS", scalars), Map.entry("NOT_CONTAINS", scalars), Map.entry("IN", scalars),
                Map.entry("BETWEEN", scalars), Map.entry("BEGINS_WITH", prefixes));
        CONDITION_OPERATOR_TYPES = Map.ofEntries(Map.entry("EQ", EnumSet.allOf(AttributeValue.Type.class)),
                Map.entry("NE", EnumSet.allOf(AttributeValue.Type.class)),
                Map.entry("LE", scalars), Map.entry("LT", scalars), Map.entry("GE", scalars), Map.entry("GT", scalars),
                Map.entry("CONTAINS", contained), Map.entry("NOT_CONTAINS", contained), Map.entry("IN", scalars),
                Map.entry("BETWEEN", scalars), Map.entry("BEGINS_WITH", prefixes));
    }

    /**
     * Checks a ComparisonOperator's arguments with DynamoDB's messages: their count, their
     * sharing one type, the types the operator takes ({@code operatorTypes}), and BETWEEN's order.
     */
    private static void checkArguments(String operator, List<AttributeValue> arguments,
                                       Map<String, Set<AttributeValue.Type>> operatorTypes) {
        int expected = switch (operator) {
            case "NULL", "NOT_NULL" -> 0;
            case "BETWEEN" -> 2;
            case "IN" -> -1;
            default -> 1;
        };
        if (expected >= 0 ? arguments.size() != expected : arguments.isEmpty()) {
            throw DynamoDbException.invalidParameter("Invalid number of argument(s) for the " + operator
                    + " ComparisonOperator");
        }
        for (AttributeValue a : arguments) {
            if (a.type() != arguments.get(0).type()) {
                throw DynamoDbException.invalidParameter("AttributeValues inside AttributeValueList must be of same type");
            }
        }
        if (operatorTypes.containsKey(operator)) {
            for (AttributeValue a : arguments) {
                if (!operatorTypes.get(operator).contains(a.type())) {
                    throw DynamoDbException.invalidParameter("ComparisonOperator " + operator + " is not valid for "
                            + a.type() + " AttributeValue type");
                }
            }
        }
        if (operator.equals("BETWEEN") && Values.isOrderable(arguments.get(0))
                && Values.compare(arguments.get(0), arguments.get(1)) > 0) {
            throw DynamoDbException.validation(
                    "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
        }
    }

    /**
     * One ComparisonOperator condition (Expected, QueryFilter, ScanFilter), after DynamoDB's
     * checks of its arguments.
     */
    private static Condition comparison(Operand.PathOperand path, String operator, List<AttributeValue> arguments) {
        checkArguments(operator, arguments, CONDITION_OPERATOR_TYPES);
        List<Operand> constants = new ArrayList<>(arguments.size());
        for (AttributeValue a : arguments) constants.add(new Operand.Constant(a));
        return switch (operator) {
            case "EQ" -> new Condition.Comparison(Comparator.EQ, path, constants.get(0));
            case "NE" -> new Condition.Comparison(Comparator.NE, path, constants.get(0));
            case "LT" -> new Condition.Comparison(Comparator.LT, path, constants.get(0));
            case "LE" -> new Condition.Comparison(Comparator.LE, path, constants.get(0));
            case "GT" -> new Condition.Comparison(Comparator.GT, path, constants.get(0));
            case "GE" -> new Condition.Comparison(Comparator.GE, path, constants.get(0));
            case "NULL" -> function("attribute_not_exists", path);
            case "NOT_NULL" -> function("attribute_exists", path);
            case "CONTAINS" -> function("contains", path, constants.get(0));
            // A missing attribute does not "not contain" anything (DynamoDB answers false).
            case "NOT_CONTAINS" -> new Condition.And(function("attribute_exists", path),
                    new Condition.Not(function("contains", path, constants.get(0))));
            case "BEGINS_WITH" -> function("begins_with", path, constants.get(0));
            case "IN" -> new Condition.In(path, constants);
            case "BETWEEN" -> new Condition.Between(path, constants.get(0), constants.get(1));
            default -> throw new IllegalArgumentException("unknown ComparisonOperator " + operator);
        };
    }

    private static Condition function(String name, Operand... arguments) {
        return new Condition.Function(new Operand.FunctionCall(name, List.of(arguments)));
    }
}
