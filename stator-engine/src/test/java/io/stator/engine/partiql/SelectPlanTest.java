package io.stator.engine.partiql;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.partiql.SelectPlan.Kind;
import io.stator.engine.read.Page;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which of the engine's reads a PartiQL SELECT becomes, and how its WHERE divides between key
 * condition, filter and key filter (the end-to-end judge is ExecuteStatementTest and
 * PartiqlComparisonTest through the SDK; this makes the planner's choices visible).
 */
class SelectPlanTest {

    @TempDir
    Path directory;

    private TestEngine test;
    private Engine engine;
    private TableDefinition table;

    @BeforeEach
    void open() throws InterruptedException {
        test = TestEngine.open(directory);
        engine = test.engine();
        table = test.createTable("events", true, List.of(TestEngine.globalIndex("byGroup")),
                List.of(TestEngine.localIndex("byLocal")));
        for (String pk : List.of("a", "b", "c")) {
            for (int sk = 1; sk <= 5; sk++) {
                engine.items().write(ItemWrite.put(table, item("pk", pk, "sk", sk, "gpk", "g" + (sk % 2), "gsk", sk,
                        "lsk", 10 - sk, "payload", pk + sk), null, ReturnValues.NONE, false, false));
            }
        }
        test.awaitGlobalIndexes();
    }

    @AfterEach
    void close() {
        test.close();
    }

    @Test
    void anEqualityOnThePartitionKeyIsAQueryWithTheSortKeyTermAsItsKeyCondition() {
        SelectPlan plan = plan("SELECT * FROM events WHERE pk = 'a' AND sk > 2 AND payload <> 'x'");
        assertEquals(Kind.QUERY, plan.kind());
        assertNull(plan.index());
        assertEquals(2, plan.keyTerms().size());
        assertEquals(s("a"), WhereTerms.equality(plan.keyTerms().get(0), "pk"));
        assertNotNull(plan.filter());
        assertNull(plan.keyFilter());
    }

    @Test
    void keyTermsNoKeyConditionTakesAreAKeyFilterAppliedInsideTheReadPlan() {
        SelectPlan plan = plan("SELECT * FROM events WHERE pk = 'a' AND sk <> 3");
        assertEquals(Kind.QUERY, plan.kind());
        assertEquals(1, plan.keyTerms().size());
        assertNull(plan.filter());
        assertNotNull(plan.keyFilter());

        Page page = PartiqlReads.read(engine.items(), plan, null, Integer.MAX_VALUE, false);
        assertEquals(5, page.scannedCount());
        assertEquals(4, page.count());
        assertEquals(4, page.items().size());
        // Read, and billed, as the whole partition's Query is: the filter changes what is returned.
        Page whole = PartiqlReads.read(engine.items(), plan("SELECT * FROM events WHERE pk = 'a'"), null,
                Integer.MAX_VALUE, false);
        assertEquals(whole.consumed().total(), page.consumed().total());
    }

    @Test
    void anInListOrOredEqualitiesIsAQueryOfEachPartitionInTheOrderWritten() {
        SelectPlan in = plan("SELECT * FROM events WHERE pk IN ('c', 'a', 'c') AND sk >= 4");
        assertEquals(Kind.QUERY_EACH_PARTITION, in.kind());
        assertEquals(List.of(s("c"), s("a")), in.partitions());
        assertEquals(1, in.keyTerms().size(), "the sort key term, without the IN");

        Page page = PartiqlReads.read(engine.items(), in, null, Integer.MAX_VALUE, false);
        assertEquals(List.of(s("c"), s("c"), s("a"), s("a")), page.items().stream().map(i -> i.get("pk")).toList());

        SelectPlan ored = plan("SELECT * FROM events WHERE pk = 'b' OR pk = 'a'");
        assertEquals(Kind.QUERY_EACH_PARTITION, ored.kind());
        assertEquals(List.of(s("b"), s("a")), ored.partitions());
    }

    @Test
    void aWhereWithoutThePartitionKeyIsAScanFilteredByAllOfIt() {
        SelectPlan plan = plan("SELECT * FROM events WHERE sk = 3 AND payload = 'b3'");
        assertEquals(Kind.SCAN, plan.kind());
        assertEquals(plan.statement().where(), plan.filter());
        Page page = PartiqlReads.read(engine.items(), plan, null, Integer.MAX_VALUE, false);
        assertEquals(15, page.scannedCount());
        assertEquals(1, page.count());
    }

    @Test
    void aKeyedReadOfALocalIndexSelectingWhatItDoesNotProjectFetchesEachItem() {
        SelectPlan plan = plan("SELECT payload FROM \"events\".\"byLocal\" WHERE pk = 'a' AND lsk < 7");
        assertEquals(Kind.QUERY_FETCHING_ITEMS, plan.kind());
        Page page = PartiqlReads.read(engine.items(), plan, null, Integer.MAX_VALUE, false);
        assertEquals(List.of(Map.of("payload", s("a5")), Map.of("payload", s("a4"))), page.items());
        // The index's Query (half a unit, eventually consistent) and each fetched item as a GetItem
        // (half a unit each), each metered as its own read.
        assertEquals(1.5, page.consumed().total());

        assertEquals(Kind.QUERY, plan("SELECT pk, lsk FROM \"events\".\"byLocal\" WHERE pk = 'a'").kind());
    }

    @Test
    void anUnkeyedReadOfALocalIndexFilteringWhatItDoesNotProjectFiltersItsEntries() {
        SelectPlan plan = plan("SELECT * FROM \"events\".\"byLocal\" WHERE payload = 'a1'");
        assertEquals(Kind.SCAN_FILTERING_INDEX, plan.kind());
        // The entries hold no payload, so nothing matches (as DynamoDB answers it).
        assertEquals(0, PartiqlReads.read(engine.items(), plan, null, Integer.MAX_VALUE, false).count());
        assertEquals(Kind.SCAN, plan("SELECT * FROM \"events\".\"byLocal\" WHERE lsk = 7").kind());
    }

    @Test
    void aGlobalIndexIsQueriedByItsOwnKey() {
        SelectPlan plan = plan("SELECT * FROM \"events\".\"byGroup\" WHERE gpk = 'g1' AND pk = 'a'");
        assertEquals(Kind.QUERY, plan.kind());
        assertEquals("byGroup", plan.index().name());
        assertEquals(1, plan.keyTerms().size());
        assertNotNull(plan.filter(), "pk is no key of the index: a filter term");
        assertEquals(3, PartiqlReads.read(engine.items(), plan, null, Integer.MAX_VALUE, false).count());
    }

    @Test
    void theChecksOfTheTargetAndThePlanUseDynamoDbsWords() {
        assertEquals("Variable reference payload in ORDER BY clause must be part of the primary key",
                refused("SELECT * FROM events WHERE pk = 'a' ORDER BY payload"));
        assertEquals("Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.",
                refused("SELECT * FROM events WHERE sk = 1 ORDER BY sk"));
        assertEquals("One or more parameter values were invalid: Secondary index byLocal does not project one or more filter attributes: [payload]",
                refused("SELECT * FROM \"events\".\"byLocal\" WHERE pk = 'a' AND payload = 'a1'"));
        assertEquals("The table does not have the specified index", refused("SELECT * FROM \"events\".\"nope\""));
        DynamoDbException consistent = assertThrows(DynamoDbException.class,
                () -> SelectPlan.of(table, select("SELECT * FROM \"events\".\"byGroup\" WHERE gpk = 'g1'"), true));
        assertTrue(consistent.getMessage().startsWith("Strongly consistent read is not supported"));
    }

    @Test
    void aNextTokenContinuesOnlyItsOwnStatement() {
        String text = "SELECT * FROM events WHERE pk IN ('a', 'b')";
        PartiqlReads.Result first = PartiqlReads.select(engine, select(text), text, null, 7, false);
        assertEquals(7, first.page().count());
        assertNotNull(first.nextToken());
        PartiqlReads.Result rest = PartiqlReads.select(engine, select(text), text, first.nextToken(), 7, false);
        assertEquals(3, rest.page().count());
        assertNull(rest.nextToken());
        String other = "SELECT * FROM events WHERE pk IN ('b', 'a')";
        assertEquals("Invalid NextToken", assertThrows(DynamoDbException.class,
                () -> PartiqlReads.select(engine, select(other), other, first.nextToken(), 7, false)).getMessage());
    }

    private SelectPlan plan(String text) {
        return SelectPlan.of(table, select(text), false);
    }

    private String refused(String text) {
        return assertThrows(DynamoDbException.class, () -> plan(text)).getMessage();
    }

    private static Statement.Select select(String text) {
        return (Statement.Select) PartiqlParser.parse(text, null);
    }

    private static AttributeValue s(String value) {
        return new AttributeValue.S(value);
    }
}
