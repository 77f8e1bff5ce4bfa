package io.stator.core.expression;

import static io.stator.core.expression.ExpressionTestSupport.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpdateApplierTest {

    private static Map<String, AttributeValue> update(Map<String, AttributeValue> item, String expression,
                                                      Object... values) {
        ExpressionContext context = new ExpressionContext(null, values.length == 0 ? null : map(values));
        List<UpdateAction> actions = context.update(expression);
        return UpdateApplier.apply(actions, item);
    }

    @Test
    void setComputesEveryValueFromTheOldItem() {
        Map<String, AttributeValue> out = update(map("k", s("1"), "a", n("1"), "b", n("2")), "SET a = b, b = a");
        assertEquals(n("2"), out.get("a"));
        assertEquals(n("1"), out.get("b"));
    }

    @Test
    void arithmeticIfNotExistsAndListAppend() {
        Map<String, AttributeValue> out = update(map("k", s("1"), "n", n("5"), "l", l(n("1"))),
                "SET n = n + :d, c = if_not_exists(c, :zero) - :d, l = list_append(l, :more), p = list_append(:more, l)",
                ":d", n("1.5"), ":zero", n("0"), ":more", l(n("2")));
        assertEquals(n("6.5"), out.get("n"));
        assertEquals(n("-1.5"), out.get("c"));
        assertEquals(l(n("1"), n("2")), out.get("l"));
        assertEquals(l(n("2"), n("1")), out.get("p"));
    }

    /** PartiQL's set_add and set_delete (parsed by PartiqlParser, not by UpdateExpression's parser). */
    @Test
    void partiqlSetAddAndSetDelete() {
        java.util.function.Function<String, Operand> path = name -> new Operand.PathOperand(Path.of(name));
        java.util.function.BiFunction<String, AttributeValue, UpdateAction> call = (function, v) -> new UpdateAction.Set(
                Path.of("s"), new Operand.FunctionCall(function, List.of(path.apply("s"), new Operand.Constant(v))));
        Map<String, AttributeValue> item = map("k", s("1"), "s", ss("a", "b"));
        assertEquals(ss("a", "b", "c"), UpdateApplier.apply(List.of(call.apply("set_add", ss("c", "a"))), item).get("s"));
        assertEquals(ss("b"), UpdateApplier.apply(List.of(call.apply("set_delete", ss("a", "z"))), item).get("s"));
        // Emptied, the set is removed (as DELETE removes it).
        assertEquals(map("k", s("1")), UpdateApplier.apply(List.of(call.apply("set_delete", ss("a", "b"))), item));
        DynamoDbException wrongType = assertThrows(DynamoDbException.class,
                () -> UpdateApplier.apply(List.of(call.apply("set_add", n("1"))), item));
        assertEquals("An operand in the update expression has an incorrect data type", wrongType.getMessage());
        DynamoDbException missing = assertThrows(DynamoDbException.class,
                () -> UpdateApplier.apply(List.of(call.apply("set_add", ss("x"))), map("k", s("1"))));
        assertEquals("The provided expression refers to an attribute that does not exist in the item", missing.getMessage());
    }

    @Test
    void setPastTheEndOfAListAppendsInIndexOrder() {
        Map<String, AttributeValue> out = update(map("a", l(n("0"))),
                "SET a[84] = :a1, a[37] = :a2, a[17] = :a3, a[50] = :a4",
                ":a1", s("1"), ":a2", s("2"), ":a3", s("3"), ":a4", s("4"));
        assertEquals(l(n("0"), s("3"), s("2"), s("4"), s("1")), out.get("a"));
    }

    @Test
    void removeUsesPositionsBeforeTheUpdate() {
        Map<String, AttributeValue> out = update(map("a", l(n("2"), n("3"), n("4"), n("5"), n("6"), n("7"))),
                "REMOVE a[1] SET a[3] = :v", ":v", n("17"));
        assertEquals(l(n("2"), n("4"), n("17"), n("6"), n("7")), out.get("a"));
        out = update(map("a", l(n("1"), n("2"), n("3"), n("4"))), "REMOVE a[1], a[3], a[9]");
        assertEquals(l(n("1"), n("3")), out.get("a"));
    }

    @Test
    void addAndDeleteOnNumbersAndSets() {
        Map<String, AttributeValue> out = update(map("c", n("1"), "s", ss("a", "b")),
                "ADD c :one, s :more, fresh :one DELETE gone :del", ":one", n("1"), ":more", ss("b", "c"),
                ":del", ss("x"));
        assertEquals(n("2"), out.get("c"));
        assertEquals(ss("a", "b", "c"), out.get("s"));
        assertEquals(n("1"), out.get("fresh"));
        out = update(map("s", ss("a", "b")), "DELETE s :all", ":all", ss("a", "b"));
        assertEquals(null, out.get("s"));
    }

    @Test
    void nestedPathsNeedTheirParent() {
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> update(map("k", s("1")), "SET a.b = :v", ":v", n("1")));
        assertEquals("The document path provided in the update expression is invalid for update", e.getMessage());
        assertThrows(DynamoDbException.class, () -> update(map("a", s("x")), "SET a[0] = :v", ":v", n("1")));
        // REMOVE needs the parent too; only a missing last step does nothing.
        assertThrows(DynamoDbException.class, () -> update(map("k", s("1")), "REMOVE a.b.c"));
        assertEquals(map("z", l(n("1"))), update(map("z", l(n("1"))), "REMOVE z[3], y"));
        Map<String, AttributeValue> out = update(map("a", m("b", m("c", n("1")))), "SET a.b.d = :v REMOVE a.b.c",
                ":v", n("2"));
        assertEquals(m("b", m("d", n("2"))), out.get("a"));
    }

    @Test
    void runtimeErrorsUseDynamoDbsWords() {
        DynamoDbException missing = assertThrows(DynamoDbException.class,
                () -> update(map("k", s("1")), "SET a = nothere"));
        assertEquals("The provided expression refers to an attribute that does not exist in the item", missing.getMessage());
        DynamoDbException type = assertThrows(DynamoDbException.class,
                () -> update(map("a", s("x")), "SET a = a + :one", ":one", n("1")));
        assertEquals("An operand in the update expression has an incorrect data type", type.getMessage());
        assertThrows(DynamoDbException.class, () -> update(map("a", s("x")), "ADD a :one", ":one", n("1")));
    }
}
