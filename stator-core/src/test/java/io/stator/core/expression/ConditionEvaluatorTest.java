package io.stator.core.expression;

import static io.stator.core.expression.ExpressionTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.core.model.AttributeValue;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConditionEvaluatorTest {

    private static final Map<String, AttributeValue> ITEM = map(
            "s", s("abc"), "n", n("10"), "b", b(1, 2, 3), "ss", ss("x", "y"), "ns", ns("1", "2"),
            "l", l(s("a"), n("1"), m("k", s("v"))), "m", m("inr", m("deep", n("5")), "lst", l(n("7"))),
            "t", bool(true), "z", nul(), "u", s("\uD83D\uDE00"), "e", s("\uFFFF"));

    private static final Map<String, AttributeValue> VALUES = map(
            ":abc", s("abc"), ":ab", s("ab"), ":b", s("b"), ":n5", n("5"), ":n10", n("10"), ":n20", n("20"),
            ":x", s("x"), ":one", n("1"), ":bin", b(1, 2), ":S", s("S"), ":SS", s("SS"), ":M", s("M"),
            ":three", n("3"), ":list", l(s("a"), n("1"), m("k", s("v"))), ":set", ss("y", "x"), ":true", bool(true),
            ":n7", n("7"), ":va", m("k", s("v")));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "s = :abc|true", "s <> :abc|false", "s < :b|true", "s > :ab|true", "s = :n10|false", "s <> :n10|true",
        "n = :n10|true", "n >= :n10|true", "n > :n5|true", "n < :n5|false", "n BETWEEN :n5 AND :n20|true",
        "n BETWEEN :n20 AND :n20|false", "s < :n10|false", "nothere = :abc|false", "nothere <> :abc|true",
        "nothere < :abc|false", "n IN (:n5, :n10)|true", "n IN (:abc, :n20)|false",
        "attribute_exists(s)|true", "attribute_exists(nothere)|false", "attribute_not_exists(nothere)|true",
        "attribute_exists(m.inr.deep)|true", "attribute_exists(m.inr.nope)|false", "attribute_exists(l[2].k)|true",
        "attribute_exists(l[3])|false", "attribute_exists(s.x)|false", "attribute_exists(s[0])|false",
        "attribute_type(s, :S)|true", "attribute_type(ss, :SS)|true", "attribute_type(m, :M)|true",
        "attribute_type(s, :SS)|false", "attribute_type(nothere, :S)|false",
        "begins_with(s, :ab)|true", "begins_with(s, :b)|false", "begins_with(b, :bin)|true", "begins_with(n, :ab)|false",
        "contains(s, :b)|true", "contains(ss, :x)|true", "contains(ns, :one)|true", "contains(ns, :x)|false",
        "contains(l, :one)|true", "contains(l, :va)|true", "contains(n, :one)|false", "contains(b, :bin)|true",
        "size(s) = :three|true", "size(b) = :three|true", "size(ss) < :three|true", "size(l) = :three|true",
        "size(m) = :n5|false", "size(n) = :one|false", "size(n) <> :one|true", "size(nothere) = :one|false",
        "ss = :set|true", "l = :list|true", "m.lst[0] = :n7|true", "m.inr.deep = :n5|true",
        "NOT s = :abc|false", "s = :abc AND n = :n10|true", "s = :b OR n = :n10|true", "s = :b OR n = :n5|false",
        "t = :true|true", "u > e|true",
    })
    void evaluatesAsDynamoDbDoes(String expression, boolean expected) {
        ExpressionContext context = new ExpressionContext(null, VALUES);
        Condition condition = context.condition(ExpressionKind.CONDITION, expression);
        assertEquals(expected, ConditionEvaluator.matches(condition, ITEM));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"attribute_not_exists(a)|true", "a <> :v|true", "a = :v|false"})
    void anAbsentItemHasNoAttributes(String expression, boolean expected) {
        ExpressionContext context = new ExpressionContext(null, map(":v", n("1")));
        assertEquals(expected, ConditionEvaluator.matches(context.condition(ExpressionKind.CONDITION, expression), null));
    }
}
