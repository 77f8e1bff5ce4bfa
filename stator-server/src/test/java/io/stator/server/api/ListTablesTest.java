package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;

/**
 * ListTables over a fixed set of 105 tables, {@code table-000} to {@code table-104}: one more page
 * than the default limit of 100. The tests only read, so that they can share the set.
 */
class ListTablesTest {

    private static final int TABLES = 105;
    private static final List<String> NAMES = new ArrayList<>();

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @BeforeAll
    static void createTables() {
        for (int i = 0; i < TABLES; i++) NAMES.add(String.format("table-%03d", i));
        // Created out of order: the listing is sorted, not in creation order.
        for (int i = TABLES - 1; i >= 0; i--) server.client().createTable(Tables.onDemand(NAMES.get(i)).build());
    }

    @Test
    void listTablesGivesAtMost100NamesByDefault() {
        ListTablesResponse page = server.client().listTables();
        assertEquals(NAMES.subList(0, 100), page.tableNames());
        assertEquals("table-099", page.lastEvaluatedTableName());
    }

    @Test
    void listTablesContinuesAfterLastEvaluatedTableName() {
        ListTablesResponse first = server.client().listTables();
        ListTablesResponse rest = server.client().listTables(b -> b.exclusiveStartTableName(first.lastEvaluatedTableName()));
        assertEquals(NAMES.subList(100, TABLES), rest.tableNames());
        assertNull(rest.lastEvaluatedTableName());
    }

    @Test
    void listTablesAcceptsLimitOfOne() {
        ListTablesResponse page = server.client().listTables(b -> b.limit(1));
        assertEquals(List.of("table-000"), page.tableNames());
        assertEquals("table-000", page.lastEvaluatedTableName());
    }

    @Test
    void listTablesAcceptsLimitOf100() {
        ListTablesResponse page = server.client().listTables(b -> b.limit(100));
        assertEquals(NAMES.subList(0, 100), page.tableNames());
        assertEquals("table-099", page.lastEvaluatedTableName());
    }

    @Test
    void listTablesRejectsLimitOfZero() {
        assertValidation("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must "
                + "have value greater than or equal to 1", () -> server.client().listTables(b -> b.limit(0)));
    }

    @Test
    void listTablesRejectsLimitOf101() {
        assertValidation("1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member "
                + "must have value less than or equal to 100", () -> server.client().listTables(b -> b.limit(101)));
    }

    @Test
    void listTablesOmitsLastEvaluatedTableNameWhenThePageEndsTheList() {
        ListTablesResponse page = server.client().listTables(b -> b.exclusiveStartTableName("table-099").limit(5));
        assertEquals(NAMES.subList(100, TABLES), page.tableNames());
        assertNull(page.lastEvaluatedTableName());
    }

    @Test
    void listTablesStartsAfterANameThatIsNoTable() {
        ListTablesResponse page = server.client().listTables(b -> b.exclusiveStartTableName("table-0505").limit(2));
        assertEquals(List.of("table-051", "table-052"), page.tableNames());
        assertEquals("table-052", page.lastEvaluatedTableName());
    }

    @Test
    void listTablesStartsAtTheFirstTableAfterANameBeforeAll() {
        assertEquals(List.of("table-000"), server.client().listTables(b -> b.exclusiveStartTableName("TABLE").limit(1)).tableNames());
    }

    @Test
    void listTablesIsEmptyAfterANameAfterAll() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            ListTablesResponse page = recorded.listTables(b -> b.exclusiveStartTableName("zzz"));
            assertEquals(List.of(), page.tableNames());
            assertNull(page.lastEvaluatedTableName());
        }
        assertEquals("{\"TableNames\":[]}", new String(raw.lastBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void listTablesPagesThroughEveryTableInOrder() {
        List<String> seen = new ArrayList<>();
        String start = null;
        do {
            String from = start;
            ListTablesResponse page = server.client().listTables(b -> b.limit(7).exclusiveStartTableName(from));
            seen.addAll(page.tableNames());
            start = page.lastEvaluatedTableName();
        } while (start != null);
        assertEquals(NAMES, seen);
        assertEquals(NAMES, server.client().listTablesPaginator(b -> b.limit(10)).tableNames().stream().toList());
    }

    @Test
    void listTablesListsTheSameTablesAfterRestart() {
        server.restart();
        assertEquals(NAMES, server.client().listTablesPaginator().tableNames().stream().toList());
    }

    @Test
    void listTablesRejectsStartNameOfTwoCharacters() {
        assertValidation("1 validation error detected: Value 'ab' at 'exclusiveStartTableName' failed to satisfy "
                + "constraint: Member must have length greater than or equal to 3",
                () -> server.client().listTables(b -> b.exclusiveStartTableName("ab")));
    }

    @Test
    void listTablesRejectsStartNameOf256Characters() {
        String name = "t".repeat(256);
        assertValidation("1 validation error detected: Value '" + name + "' at 'exclusiveStartTableName' failed to "
                + "satisfy constraint: Member must have length less than or equal to 255",
                () -> server.client().listTables(b -> b.exclusiveStartTableName(name)));
    }

    @Test
    void listTablesAcceptsStartNameOfThreeCharacters() {
        assertEquals(List.of("table-000"), server.client().listTables(b -> b.exclusiveStartTableName("abc").limit(1)).tableNames());
    }

    @Test
    void listTablesAcceptsStartNameOf255Characters() {
        assertEquals(List.of(), server.client().listTables(b -> b.exclusiveStartTableName("z".repeat(255))).tableNames());
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc!", "a b c", "arn:aws:dynamodb:us-east-1:000000000000:table/table-000"})
    void listTablesRejectsStartNameOutsideThePattern(String name) {
        assertValidation("1 validation error detected: Value '" + name + "' at 'exclusiveStartTableName' failed to "
                + "satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
                () -> server.client().listTables(b -> b.exclusiveStartTableName(name)));
    }

    @Test
    void listTablesReportsPatternBeforeLengthOfAnEmptyStartName() {
        assertValidation("2 validation errors detected: Value '' at 'exclusiveStartTableName' failed to satisfy "
                + "constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value '' at "
                + "'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or "
                + "equal to 3", () -> server.client().listTables(b -> b.exclusiveStartTableName("")));
    }
}
