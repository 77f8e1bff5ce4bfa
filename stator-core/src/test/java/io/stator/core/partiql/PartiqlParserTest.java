package io.stator.core.partiql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.UpdateAction;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartiqlParserTest {

    private static AttributeValue s(String v) { return new AttributeValue.S(v); }

    private static AttributeValue n(String v) { return new AttributeValue.N(DynamoNumber.parse(v)); }

    private static Statement parse(String text, AttributeValue... parameters) {
        return PartiqlParser.parse(text, List.of(parameters));
    }

    private static final Map<String, AttributeValue> ITEM = Map.of(
            "pk", s("a"), "sk", n("5"), "name", s("Widget"), "tags", new AttributeValue.SS(List.of("x", "y")),
            "nested", new AttributeValue.M(Map.of("list", new AttributeValue.L(List.of(n("1"), n("2"))))),
            "nothing", AttributeValue.NULL.INSTANCE);

    private static boolean where(String condition, AttributeValue... parameters) {
        Statement.Select select = (Statement.Select) parse("SELECT * FROM \"t\" WHERE " + condition, parameters);
        return ConditionEvaluator.matches(select.where(), ITEM);
    }

    @Test
    void selectStarFromTable() {
        Statement.Select s = (Statement.Select) parse("SELECT * FROM \"Music\"");
        assertNull(s.projection());
        assertEquals("Music", s.tableName());
        assertNull(s.indexName());
        assertNull(s.where());
    }

    @Test
    void selectProjectionFromIndexOrderedDescending() {
        Statement.Select s = (Statement.Select) parse(
                "select a, \"b\".c[2], d.\"e f\" from \"T\".\"GSI-1\" where pk = 'x' order by sk desc;");
        assertEquals("GSI-1", s.indexName());
        assertEquals(3, s.projection().size());
        assertEquals(new Path(List.of(new Path.Name("b", false), new Path.Name("c", false), new Path.Index(2))),
                s.projection().get(1));
        assertEquals(Path.of("sk"), s.orderBy());
        assertTrue(s.descending());
        assertEquals(new Condition.Comparison(Condition.Comparator.EQ, new Operand.PathOperand(Path.of("pk")),
                new Operand.Constant(s("x"))), s.where());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "pk = 'a'|true",
        "pk <> 'a'|false",
        "pk != 'b'|true",
        "sk < 6 AND sk >= 5|true",
        "sk <= 4 OR name = 'Widget'|true",
        "NOT (sk > 4)|false",
        "sk BETWEEN 1 AND 5|true",
        "sk NOT BETWEEN 1 AND 5|false",
        "pk IN ('b', 'a')|true",
        "pk IN ['b', 'c']|false",
        "pk NOT IN ('b')|true",
        "missing_one IS MISSING|true",
        "name IS NOT MISSING|true",
        "nothing IS NULL|true",
        "name IS NOT NULL|true",
        "begins_with(name, 'Wid')|true",
        "BEGINS_WITH(\"name\", 'x')|false",
        "contains(tags, 'y')|true",
        "attribute_type(sk, 'N')|true",
        "size(tags) = 2|true",
        "nested.list[1] = 2|true",
        "\"nested\".\"list\"[0] = 1.0|true",
        "sk = -5|false",
        "tags = <<'y', 'x'>>|true",
    })
    void conditionsEvaluateAsTheExpressionLanguageDoes(String condition, boolean expected) {
        assertEquals(expected, where(condition), condition);
    }

    @Test
    void parametersAreBoundInOrder() {
        assertTrue(where("pk = ? AND sk = ?", s("a"), n("5")));
        // Fewer values than ?s, or more, are an error.
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> where("pk = ? AND sk = ?", s("a")));
        assertEquals("Number of parameters in request and statement don't match.", e.getMessage());
        DynamoDbException extra = assertThrows(DynamoDbException.class, () -> where("pk = ?", s("a"), n("5")));
        assertEquals("Number of parameters in request and statement don't match.", extra.getMessage());
        DynamoDbException none = assertThrows(DynamoDbException.class, () -> where("pk = 'a'", s("a")));
        assertEquals("Number of parameters in request and statement don't match.", none.getMessage());
    }

    @Test
    void insertValueBuildsTheItem() {
        Statement.Insert s = (Statement.Insert) parse(
                "INSERT INTO \"T\" VALUE {'pk': 'a', 'n': 1.5, 'b': true, 'z': null, 'l': [1, 'x'], 'm': {'k': ?},"
                        + " 'ss': <<'a', 'b'>>, 'ns': <<1, 2>>}", s("v"));
        assertEquals("T", s.tableName());
        assertEquals(s("a"), s.item().get("pk"));
        assertEquals(n("1.5"), s.item().get("n"));
        assertEquals(AttributeValue.BOOL.TRUE, s.item().get("b"));
        assertEquals(AttributeValue.NULL.INSTANCE, s.item().get("z"));
        assertEquals(new AttributeValue.L(List.of(n("1"), s("x"))), s.item().get("l"));
        assertEquals(new AttributeValue.M(Map.of("k", s("v"))), s.item().get("m"));
        assertEquals(new AttributeValue.SS(List.of("a", "b")), s.item().get("ss"));
        assertInstanceOf(AttributeValue.NS.class, s.item().get("ns"));
    }

    @Test
    void insertOfAParameterItem() {
        AttributeValue item = new AttributeValue.M(Map.of("pk", s("a")));
        assertEquals(Map.of("pk", s("a")), ((Statement.Insert) parse("INSERT INTO t VALUE ?", item)).item());
    }

    @Test
    void updateSetsAndRemovesInOrder() {
        Statement.Update s = (Statement.Update) parse(
                "UPDATE \"T\" SET a = 1, b.c = b.c + ? REMOVE d SET e = list_append(e, [1]) WHERE pk = 'x' AND sk = 2"
                        + " RETURNING ALL NEW *", n("3"));
        assertEquals(4, s.actions().size());
        assertInstanceOf(UpdateAction.Set.class, s.actions().get(0));
        assertInstanceOf(Operand.Arithmetic.class, ((UpdateAction.Set) s.actions().get(1)).value());
        assertInstanceOf(UpdateAction.Remove.class, s.actions().get(2));
        assertInstanceOf(Operand.FunctionCall.class, ((UpdateAction.Set) s.actions().get(3)).value());
        assertEquals(Statement.Returning.ALL_NEW, s.returning());
        assertInstanceOf(Condition.And.class, s.where());
    }

    @Test
    void deleteWithReturningAllOld() {
        Statement.Delete s = (Statement.Delete) parse("DELETE FROM \"T\" WHERE pk = 'x' RETURNING ALL OLD *");
        assertEquals(Statement.Returning.ALL_OLD, s.returning());
        assertEquals(Statement.Returning.NONE, ((Statement.Delete) parse("DELETE FROM T WHERE pk = 'x'")).returning());
    }

    @Test
    void existsWrapsASelect() {
        Statement.Exists s = (Statement.Exists) parse(
                "EXISTS(SELECT * FROM \"Music\" WHERE Artist = 'Acme Band' AND SongTitle = ? AND Awards IS MISSING)",
                s("PartiQL Rocks"));
        assertEquals("Music", s.tableName());
        assertInstanceOf(Condition.And.class, s.select().where());
        assertThrows(DynamoDbException.class, () -> parse("EXISTS SELECT * FROM t WHERE a = 1"));
        assertThrows(DynamoDbException.class, () -> parse("EXISTS(DELETE FROM t WHERE a = 1)"));
        assertThrows(DynamoDbException.class, () -> parse("EXISTS(SELECT * FROM t WHERE a = 1"));
    }

    /** The texts are DynamoDB Local's (see PartiqlParser's class comment). */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '~', quoteCharacter = '`', value = {
        "CREATE TABLE t~Statement wasn't well formed, can't be processed: Expected data manipulation",
        "``~Statement wasn't well formed, can't be processed: Expected data manipulation",
        "SELECT * FROM~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM t WHERE~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM t WHERE a =~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM select~Statement wasn't well formed, can't be processed: Unexpected keyword",
        "SELECT * FROM t t2~Aliasing is not supported",
        "SELECT * FROM t WHERE a = 'x~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM t WHERE a # 1~`Statement wasn't well formed, can't be processed: `",
        "UPDATE t WHERE a = 1~Statement wasn't well formed, can't be processed: Unexpected keyword",
        "SELECT *, a FROM t~Other attributes should not be present in the projection when '*' is used.",
        "SELECT * FROM a.b.c~A path may contain at most 2 components in the FROM clause",
        "SELECT * FROM t ORDER BY a~Must have WHERE clause in the statement when using ORDER BY clause.",
        "INSERT INTO t VALUES {'a': 1}~Unsupported operation: Inserting multiple items in a single statement is not supported, use \"INSERT INTO tableName VALUE item\" instead",
        "INSERT INTO t VALUE [1]~Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.",
        "INSERT INTO t VALUE {'a': 1} RETURNING ALL OLD *~RETURNING is not supported in INSERT",
        "DELETE FROM t WHERE a = 1 RETURNING ALL NEW *~Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
        "DELETE FROM t WHERE a = 1 RETURNING ALL OLD a~Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause",
        "SELECT * FROM t WHERE a = MISSING~MISSING must be compared using IS operator",
        "SELECT * FROM t WHERE a IN 1~IN operator must have a left hand argument of type Variable Reference and right hand argument of type Seq with at least one member",
        "SELECT * FROM t WHERE a = <<>>~Empty bags are not supported",
        "SELECT * FROM t WHERE a = <<1, 'x'>>~Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags",
        "SELECT * FROM t WHERE foo(a)~Unrecognized function: foo",
        "SELECT * FROM t WHERE \"\" = 1~Path component cannot be an empty string",
        "SELECT * FROM t WHERE contains(a, 'x') = TRUE~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM t WHERE a = begins_with(b, 'x')~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM t WHERE begins_with(a)~Statement wasn't well formed, can't be processed: Unexpected token",
        "SELECT * FROM t WHERE size(a)~Statement wasn't well formed, can't be processed: Unexpected token",
        "UPDATE t SET a = size(b) WHERE pk = 1~Unrecognized function: size",
    })
    void refusesWithDynamoDbsWording(String statement, String message) {
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> parse(statement));
        assertEquals(message, e.getMessage());
    }

    @Test
    void nestingPastTheLimitIsASyntaxErrorNotAStackOverflow() {
        String deep = "SELECT * FROM t WHERE " + "(".repeat(PartiqlParser.MAX_DEPTH + 1) + "a = 1"
                + ")".repeat(PartiqlParser.MAX_DEPTH + 1);
        assertThrows(DynamoDbException.class, () -> parse(deep));
        String atLimit = "SELECT * FROM t WHERE " + "(".repeat(PartiqlParser.MAX_DEPTH) + "a = 1"
                + ")".repeat(PartiqlParser.MAX_DEPTH);
        parse(atLimit);
        String deepList = "INSERT INTO t VALUE {'a': " + "[".repeat(PartiqlParser.MAX_DEPTH) + "]".repeat(PartiqlParser.MAX_DEPTH) + "}";
        assertThrows(DynamoDbException.class, () -> parse(deepList));
    }

    /**
     * Statements cut at every token and spliced with each other: the parser refuses with a
     * DynamoDbException or gives a statement whose WHERE the evaluator and whose SET the update
     * applier can run without an internal error.
     */
    @Test
    void anyCutOrSpliceIsRefusedOrRuns() {
        List<String> statements = List.of(
                "SELECT a, b.c[1] FROM \"t\".\"i\" WHERE pk = 'a' AND (sk BETWEEN 1 AND 2 OR NOT contains(tags, 'x'))"
                        + " AND size(name) > 2 AND x IS NOT MISSING AND y IN (1, 2) ORDER BY sk DESC",
                "INSERT INTO t VALUE {'pk': 'a', 'l': [1, {'m': <<'x'>>}], 'n': -1.5e3, 'b': TRUE, 'z': NULL}",
                "UPDATE t SET a = a + 1, b = list_append(b, [1]) REMOVE c WHERE pk = 'a' AND attribute_type(d, 'S')"
                        + " RETURNING MODIFIED OLD *",
                "DELETE FROM t WHERE pk = ? AND sk <> ? RETURNING ALL OLD *");
        List<String> pieces = new ArrayList<>();
        for (String s : statements) pieces.addAll(List.of(s.split("(?<= )")));
        java.util.Random random = new java.util.Random(7);
        List<String> inputs = new ArrayList<>();
        for (String s : statements) {
            for (int cut = 0; cut <= s.length(); cut++) inputs.add(s.substring(0, cut));
        }
        for (int i = 0; i < 5000; i++) {
            StringBuilder b = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int j = 0; j < n; j++) b.append(pieces.get(random.nextInt(pieces.size())));
            inputs.add(b.toString());
        }
        for (String input : inputs) {
            Statement statement;
            try {
                statement = PartiqlParser.parse(input, List.of(s("a"), n("1")));
            } catch (DynamoDbException e) {
                continue;
            }
            Condition where = switch (statement) {
                case Statement.Select sel -> sel.where();
                case Statement.Update u -> u.where();
                case Statement.Delete d -> d.where();
                case Statement.Insert ins -> null;
                case Statement.Exists x -> x.select().where();
            };
            if (where != null) ConditionEvaluator.matches(where, ITEM);
            if (statement instanceof Statement.Update u) {
                try {
                    io.stator.core.expression.UpdateApplier.apply(u.actions(), ITEM);
                } catch (DynamoDbException e) {
                    // a type mismatch at run time, as the JSON API reports it
                }
            }
        }
    }
}
