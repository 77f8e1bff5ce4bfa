package io.stator.server.api;

import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.DynamoAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * ExecuteStatement and BatchExecuteStatement against behaviour recorded from real DynamoDB by
 * the public conformance suite (nubo-db/dynamodb-conformance, and its fork
 * paritysuite/dynamodb-conformance): each test says what DynamoDB was recorded doing. The
 * tables mirror the suite's fixtures (its hash table and its PartiQL index table, whose index
 * names appear in the recorded messages).
 */
class PartiqlConformanceTest {

    /** The suite's hash table: a string partition key {@code pk}. */
    private static final String HASH = "pq_conf_hash";

    /** The suite's PartiQL index table: pk/sk, three global and three local indexes. */
    private static final String IDX = "pq_conf_idx";

    /** The attribute no non-ALL index of {@link #IDX} projects. */
    private static final String NONPROJ = "nonproj";

    private static final String MALFORMED = "Statement wasn't well formed, can't be processed: ";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static DynamoDbClient client() {
        return server.client();
    }

    @BeforeAll
    static void createTables() {
        client().createTable(Tables.onDemand(HASH).build());
        client().createTable(b -> b.tableName(IDX).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                        Tables.definition("sk", ScalarAttributeType.S),
                        Tables.definition("gsiPk", ScalarAttributeType.S),
                        Tables.definition("gsiPk2", ScalarAttributeType.S),
                        Tables.definition("lsiSk", ScalarAttributeType.S),
                        Tables.definition("lsiSk2", ScalarAttributeType.S),
                        Tables.definition("lsiSk3", ScalarAttributeType.S))
                .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(
                        g -> g.indexName("gsi-all").keySchema(Tables.key("gsiPk", KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.ALL)),
                        g -> g.indexName("gsi-inc").keySchema(Tables.key("gsiPk2", KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("projattr")),
                        g -> g.indexName("gsi-keys").keySchema(Tables.key("gsiPk2", KeyType.HASH))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)))
                .localSecondaryIndexes(
                        l -> l.indexName("lsi-all").keySchema(Tables.key("pk", KeyType.HASH), Tables.key("lsiSk", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.ALL)),
                        l -> l.indexName("lsi-keys").keySchema(Tables.key("pk", KeyType.HASH), Tables.key("lsiSk2", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)),
                        l -> l.indexName("lsi-inc").keySchema(Tables.key("pk", KeyType.HASH), Tables.key("lsiSk3", KeyType.RANGE))
                                .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("projattr"))));
        // The suite's fixture: s3 has no index attribute (no index holds it); s1 and s4 share a
        // gsi-all partition; q/s5 is a second gsi-inc partition outside pk = 'p'.
        put(IDX, Map.of("pk", s("p"), "sk", s("s1"), "gsiPk", s("x"), "gsiPk2", s("y"), "lsiSk", s("l1"),
                "lsiSk2", s("k1"), "lsiSk3", s("m1"), "projattr", s("proj1"), NONPROJ, s("np1")));
        put(IDX, Map.of("pk", s("p"), "sk", s("s2"), "gsiPk", s("z"), "gsiPk2", s("y"), "lsiSk", s("l2"),
                "lsiSk2", s("k2"), "lsiSk3", s("m2"), "projattr", s("proj2"), NONPROJ, s("np2")));
        put(IDX, Map.of("pk", s("p"), "sk", s("s3"), NONPROJ, s("np3")));
        put(IDX, Map.of("pk", s("p"), "sk", s("s4"), "gsiPk", s("x"), "gsiPk2", s("y"), "lsiSk", s("l4"),
                "lsiSk2", s("k4"), "lsiSk3", s("m4"), "projattr", s("proj4"), NONPROJ, s("np4")));
        put(IDX, Map.of("pk", s("q"), "sk", s("s5"), "gsiPk2", s("y2"), "projattr", s("proj5"), NONPROJ, s("np5")));
    }

    private static void put(String table, Map<String, AttributeValue> item) {
        client().putItem(b -> b.tableName(table).item(item));
    }

    private static Map<String, AttributeValue> get(String table, Map<String, AttributeValue> key) {
        var response = client().getItem(b -> b.tableName(table).key(key).consistentRead(true));
        return response.hasItem() ? response.item() : null;
    }

    private static ExecuteStatementResponse execute(String statement, AttributeValue... parameters) {
        return execute(statement, b -> { }, parameters);
    }

    private static ExecuteStatementResponse execute(String statement, Consumer<ExecuteStatementRequest.Builder> options,
                                                    AttributeValue... parameters) {
        return client().executeStatement(b -> {
            b.statement(statement);
            if (parameters.length > 0) b.parameters(parameters);
            options.accept(b);
        });
    }

    /** A SELECT asking for capacity by index, as the suite's index cases do. */
    private static ExecuteStatementResponse indexes(String statement, Consumer<ExecuteStatementRequest.Builder> options) {
        return execute(statement, b -> options.accept(b.returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)));
    }

    private static ExecuteStatementResponse indexes(String statement) {
        return indexes(statement, b -> { });
    }

    private static double tableUnits(ConsumedCapacity c) {
        return c.table() == null || c.table().capacityUnits() == null ? 0 : c.table().capacityUnits();
    }

    private static double gsiUnits(ConsumedCapacity c, String index) {
        var arm = c.globalSecondaryIndexes().get(index);
        return arm == null || arm.capacityUnits() == null ? 0 : arm.capacityUnits();
    }

    private static double lsiUnits(ConsumedCapacity c, String index) {
        var arm = c.localSecondaryIndexes().get(index);
        return arm == null || arm.capacityUnits() == null ? 0 : arm.capacityUnits();
    }

    private static List<String> sks(List<Map<String, AttributeValue>> items) {
        return items.stream().map(i -> i.get("sk").s()).sorted().toList();
    }

    private static List<String> names(Map<String, AttributeValue> item) {
        return List.copyOf(new TreeSet<>(item.keySet()));
    }

    /** A ValidationException whose message contains {@code part}. */
    private static void assertValidationContaining(String part, Executable call) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails().errorCode(), e.getMessage());
        String message = e.awsErrorDetails().errorMessage();
        assertTrue(message.contains(part), message);
    }

    private static BatchExecuteStatementResponse batch(BatchStatementRequest... statements) {
        return client().batchExecuteStatement(b -> b.statements(statements));
    }

    private static BatchStatementRequest member(String statement, AttributeValue... parameters) {
        return BatchStatementRequest.builder().statement(statement)
                .parameters(parameters.length == 0 ? null : List.of(parameters)).build();
    }

    // ---- ExecuteStatement: the basics (tier2/partiql/executeStatement) ---------------------------

    // DynamoDB: INSERT creates the item; a second INSERT of the key fails with DuplicateItemException;
    // after a DELETE the key may be inserted again.
    @Test
    void insertIsNotAnUpsertAndWorksAgainAfterDelete() {
        execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'ins-1', 'data': 'first'}");
        assertEquals(s("first"), get(HASH, Map.of("pk", s("ins-1"))).get("data"));
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'ins-1', 'data': 'second'}"));
        assertEquals("DuplicateItemException", e.awsErrorDetails().errorCode());
        execute("DELETE FROM \"" + HASH + "\" WHERE pk = 'ins-1'");
        assertNull(get(HASH, Map.of("pk", s("ins-1"))));
        execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'ins-1', 'data': 'again'}");
        assertEquals(s("again"), get(HASH, Map.of("pk", s("ins-1"))).get("data"));
    }

    // DynamoDB: ? parameters bind in INSERT and SELECT; a SELECT by key with another term filters;
    // a key that matches nothing gives an empty Items list.
    @Test
    void parametersAndKeyedSelects() {
        execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': ?, 'data': ?}", s("param-1"), s("inserted"));
        assertEquals(s("inserted"), execute("SELECT * FROM \"" + HASH + "\" WHERE pk = ?", s("param-1"))
                .items().get(0).get("data"));
        put(HASH, Map.of("pk", s("cmp-1"), "age", n("30")));
        assertEquals(1, execute("SELECT * FROM \"" + HASH + "\" WHERE pk = 'cmp-1' AND age > 20").items().size());
        assertEquals(List.of(), execute("SELECT * FROM \"" + HASH + "\" WHERE pk = 'no-such-key'").items());
    }

    // DynamoDB: SELECT mymap.nested returns the value under the name of the last path element
    // ("nested"); a list of attributes returns those and no others.
    @Test
    void nestedPathSelectIsNamedByItsLastElement() {
        put(HASH, Map.of("pk", s("nested"), "mymap", AttributeValue.fromM(Map.of("nested", s("deep"))),
                "extra", s("should-not-appear")));
        Map<String, AttributeValue> item = execute("SELECT mymap.nested FROM \"" + HASH + "\" WHERE pk = 'nested'")
                .items().get(0);
        assertEquals(s("deep"), item.get("nested"));
        Map<String, AttributeValue> two = execute("SELECT pk, mymap FROM \"" + HASH + "\" WHERE pk = 'nested'")
                .items().get(0);
        assertEquals(List.of("mymap", "pk"), names(two));
    }

    // DynamoDB: UPDATE SET and UPDATE REMOVE change the item; begins_with on the sort key selects.
    @Test
    void updateSetAndRemoveAndBeginsWith() {
        put(HASH, Map.of("pk", s("upd-1"), "myattr", s("old"), "keep", s("stay")));
        execute("UPDATE \"" + HASH + "\" SET myattr = 'new' WHERE pk = 'upd-1'");
        assertEquals(s("new"), get(HASH, Map.of("pk", s("upd-1"))).get("myattr"));
        execute("UPDATE \"" + HASH + "\" REMOVE myattr WHERE pk = 'upd-1'");
        assertEquals(Map.of("pk", s("upd-1"), "keep", s("stay")), get(HASH, Map.of("pk", s("upd-1"))));
        List<String> found = execute("SELECT * FROM \"" + IDX + "\" WHERE pk = 'p' AND begins_with(\"sk\", 's')")
                .items().stream().map(i -> i.get("sk").s()).toList();
        assertEquals(List.of("s1", "s2", "s3", "s4"), found);
    }

    // DynamoDB: a SELECT asked for TOTAL capacity answers a ConsumedCapacity with units > 0.
    @Test
    void selectReturnsConsumedCapacity() {
        put(HASH, Map.of("pk", s("cc"), "v", n("1")));
        ConsumedCapacity c = execute("SELECT * FROM \"" + HASH + "\" WHERE pk = 'cc'",
                b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();
        assertNotNull(c);
        assertTrue(c.capacityUnits() > 0);
    }

    // DynamoDB: a syntax error is a ValidationException; an unterminated quoted name gets the
    // "wasn't well formed" envelope; a missing table is ResourceNotFoundException ("Requested
    // resource not found").
    @Test
    void syntaxErrorsAndMissingTables() {
        assertValidationContaining(MALFORMED.trim(), () -> execute("SELECTT * FROMM \"" + HASH + "\""));
        assertValidationContaining("Statement wasn't well formed, can't be processed",
                () -> execute("SELECT * FROM \"" + IDX));
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> execute("SELECT * FROM \"no_such_table_pq\" WHERE pk = 'x'"));
        assertEquals("ResourceNotFoundException", e.awsErrorDetails().errorCode());
        assertTrue(e.awsErrorDetails().errorMessage().contains("Requested resource not found"));
    }

    // DynamoDB (paritysuite writeResponses): INSERT, UPDATE and DELETE without RETURNING answer an
    // empty Items list, whether or not the DELETE found an item.
    @Test
    void writesAnswerAnEmptyItemsList() {
        put(HASH, Map.of("pk", s("wr-update"), "a", n("1")));
        put(HASH, Map.of("pk", s("wr-delete"), "a", n("1")));
        assertEquals(List.of(), execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'wr-insert'}").items());
        assertTrue(execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'wr-insert2'}").hasItems());
        assertEquals(List.of(), execute("UPDATE \"" + HASH + "\" SET a = 2 WHERE pk = 'wr-update'").items());
        assertEquals(List.of(), execute("DELETE FROM \"" + HASH + "\" WHERE pk = 'wr-delete'").items());
        assertEquals(List.of(), execute("DELETE FROM \"" + HASH + "\" WHERE pk = 'wr-never-written'").items());
    }

    // ---- RETURNING on DELETE (tier3/error-messages/partiql) ----------------------------------------

    // DynamoDB: DELETE accepts only RETURNING ALL OLD *, refusing the others with these exact messages.
    @Test
    void deleteRefusesReturningOtherThanAllOld() {
        for (String variant : List.of("MODIFIED OLD", "ALL NEW", "MODIFIED NEW")) {
            assertValidation("Invalid returning clause: RETURNING " + variant
                            + " *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
                    () -> execute("DELETE FROM \"" + HASH + "\" WHERE pk = 'x' RETURNING " + variant + " *"));
        }
    }

    // ---- the FROM path (tier3/error-messages/partiql, partiqlIndexQualifier) ------------------------

    // DynamoDB: a qualifier naming no index of the table, or the table itself, is "The table does
    // not have the specified index", with no name appended (Query's wording appends one).
    @Test
    void aQualifierNamingNoIndex() {
        assertValidation("The table does not have the specified index",
                () -> execute("SELECT * FROM \"" + IDX + "\".\"no-such-index\" WHERE pk = 'p'"));
        assertValidation("The table does not have the specified index",
                () -> execute("SELECT * FROM \"" + IDX + "\".\"" + IDX + "\" WHERE pk = 'p'"));
    }

    // DynamoDB: three components, and an empty component (table or index, the table's checked
    // before the table is looked up), with these exact messages.
    @Test
    void pathShapeErrors() {
        assertValidation("A path may contain at most 2 components in the FROM clause",
                () -> execute("SELECT * FROM \"" + IDX + "\".\"gsi-all\".\"extra\" WHERE pk = 'p'"));
        assertValidation("Path component cannot be an empty string",
                () -> execute("SELECT * FROM \"" + IDX + "\".\"\" WHERE pk = 'p'"));
        assertValidation("Path component cannot be an empty string",
                () -> execute("SELECT * FROM \"\" WHERE pk = 'p'"));
    }

    // DynamoDB: ConsistentRead on a GSI qualifier, in words other than Query's; accepted on an LSI.
    @Test
    void consistentReadOnAGlobalIndex() {
        assertValidation("Strongly consistent read is not supported on Global Secondary Indexes",
                () -> execute("SELECT * FROM \"" + IDX + "\".\"gsi-all\" WHERE gsiPk = 'x'", b -> b.consistentRead(true)));
        assertEquals(3, execute("SELECT * FROM \"" + IDX + "\".\"lsi-all\" WHERE pk = 'p'",
                b -> b.consistentRead(true)).items().size());
    }

    // DynamoDB: a qualifier on INSERT is refused at parse ("FROM clause may only contain a single
    // table name"), whether or not it names an index; on UPDATE and DELETE it is refused as "This
    // operation is not supported on an index"; no row is changed.
    @Test
    void writesRefuseTheQualifier() {
        assertValidationContaining("FROM clause may only contain a single table name",
                () -> execute("INSERT INTO \"" + IDX + "\".\"gsi-all\" VALUE {'pk': 'w1', 'sk': 'w1'}"));
        assertValidationContaining("FROM clause may only contain a single table name",
                () -> execute("INSERT INTO \"" + IDX + "\".\"no-such-index\" VALUE {'pk': 'w2', 'sk': 'w2'}"));
        assertValidationContaining("This operation is not supported on an index",
                () -> execute("UPDATE \"" + IDX + "\".\"gsi-all\" SET projattr = 'z' WHERE pk = 'p' AND sk = 's1'"));
        assertValidationContaining("This operation is not supported on an index",
                () -> execute("DELETE FROM \"" + IDX + "\".\"gsi-all\" WHERE pk = 'p' AND sk = 's1'"));
        assertEquals(List.of("s1", "s2", "s3", "s4"), sks(execute("SELECT pk, sk FROM \"" + IDX + "\" WHERE pk = 'p'").items()));
        assertEquals(s("proj1"), get(IDX, Map.of("pk", s("p"), "sk", s("s1"))).get("projattr"));
    }

    // ---- index-qualified reads (tier2/partiql/indexQualifier) -------------------------------------

    // DynamoDB: a qualified SELECT reads the index, so it omits an item the index does not hold.
    @Test
    void aQualifiedSelectReadsTheIndexMembership() {
        assertEquals(List.of("s1", "s4"), sks(indexes("SELECT pk, sk FROM \"" + IDX + "\".\"gsi-all\" WHERE gsiPk = 'x'").items()));
    }

    // DynamoDB: SELECT * on a non-ALL index is the index's projection (KEYS_ONLY: the index key and
    // the table key; INCLUDE: those and the included attribute), served without the table.
    @Test
    void selectStarIsTheIndexProjection() {
        ExecuteStatementResponse keys = indexes("SELECT * FROM \"" + IDX + "\".\"gsi-keys\" WHERE gsiPk2 = 'y'");
        assertEquals(3, keys.items().size());
        for (var item : keys.items()) assertEquals(List.of("gsiPk2", "pk", "sk"), names(item));
        assertEquals(0, tableUnits(keys.consumedCapacity()));
        assertEquals(keys.consumedCapacity().capacityUnits(), gsiUnits(keys.consumedCapacity(), "gsi-keys"));

        ExecuteStatementResponse inc = indexes("SELECT * FROM \"" + IDX + "\".\"gsi-inc\" WHERE gsiPk2 = 'y'");
        assertEquals(3, inc.items().size());
        for (var item : inc.items()) assertEquals(List.of("gsiPk2", "pk", "projattr", "sk"), names(item));

        ExecuteStatementResponse lsi = indexes("SELECT * FROM \"" + IDX + "\".\"lsi-keys\" WHERE pk = 'p'");
        assertEquals(3, lsi.items().size());
        for (var item : lsi.items()) assertEquals(List.of("lsiSk2", "pk", "sk"), names(item));
        assertEquals(0, tableUnits(lsi.consumedCapacity()));
        assertEquals(lsi.consumedCapacity().capacityUnits(), lsiUnits(lsi.consumedCapacity(), "lsi-keys"));
    }

    // DynamoDB: an LSI serves an unprojected attribute from the table, charged on the table arm
    // (on rows walked, not kept; fewer with a Limit); naming only projected ones charges no table arm.
    @Test
    void aLocalIndexReachesBackToTheTable() {
        ExecuteStatementResponse r = indexes("SELECT " + NONPROJ + " FROM \"" + IDX + "\".\"lsi-keys\" WHERE pk = 'p'");
        assertEquals(3, r.items().size());
        for (var item : r.items()) assertNotNull(item.get(NONPROJ));
        assertTrue(tableUnits(r.consumedCapacity()) > 0);
        assertEquals(0, tableUnits(indexes("SELECT lsiSk2 FROM \"" + IDX + "\".\"lsi-keys\" WHERE pk = 'p'").consumedCapacity()));

        ExecuteStatementResponse none = indexes("SELECT " + NONPROJ + " FROM \"" + IDX
                + "\".\"lsi-inc\" WHERE pk = 'p' AND projattr = 'no-such-value'");
        ExecuteStatementResponse all = indexes("SELECT " + NONPROJ + " FROM \"" + IDX + "\".\"lsi-inc\" WHERE pk = 'p'");
        assertEquals(0, none.items().size());
        assertEquals(3, all.items().size());
        assertEquals(tableUnits(all.consumedCapacity()), tableUnits(none.consumedCapacity()));

        ExecuteStatementResponse one = indexes("SELECT " + NONPROJ + " FROM \"" + IDX + "\".\"lsi-keys\" WHERE pk = 'p'",
                b -> b.limit(1));
        assertEquals(1, one.items().size());
        assertTrue(tableUnits(one.consumedCapacity()) < tableUnits(r.consumedCapacity()));
    }

    // DynamoDB: a GSI refuses an unprojected attribute in the projection, listing all of them in
    // statement order (keyed or not): "Global secondary index gsi-inc does not project [...]".
    @Test
    void aGlobalIndexRefusesAnUnprojectedProjection() {
        assertValidation("One or more parameter values were invalid: Global secondary index gsi-inc does not project [" + NONPROJ + "]",
                () -> execute("SELECT " + NONPROJ + " FROM \"" + IDX + "\".\"gsi-inc\" WHERE gsiPk2 = 'y'"));
        assertValidation("One or more parameter values were invalid: Global secondary index gsi-keys does not project [alternate, mymap]",
                () -> execute("SELECT alternate, mymap FROM \"" + IDX + "\".\"gsi-keys\" WHERE gsiPk2 = 'y'"));
        assertValidation("One or more parameter values were invalid: Global secondary index gsi-keys does not project [alternate]",
                () -> execute("SELECT alternate FROM \"" + IDX + "\".\"gsi-keys\""));
    }

    // DynamoDB: a filter on an attribute the index does not project is refused when the read is
    // keyed on the index (=, IN on its partition key; any predicate, negated or not), in the same
    // words for GSI and LSI: "Secondary index X does not project one or more filter attributes: [...]".
    @Test
    void aKeyedIndexReadRefusesAnUnprojectedFilter() {
        String gsi = "One or more parameter values were invalid: Secondary index gsi-inc does not project one or more filter attributes: [" + NONPROJ + "]";
        String lsi = "One or more parameter values were invalid: Secondary index lsi-keys does not project one or more filter attributes: [" + NONPROJ + "]";
        String from = "SELECT pk FROM \"" + IDX + "\".";
        assertValidation(gsi, () -> execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND " + NONPROJ + " = 'np1'"));
        assertValidation(lsi, () -> execute(from + "\"lsi-keys\" WHERE pk = 'p' AND " + NONPROJ + " = 'np1'"));
        assertValidation(gsi, () -> execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND " + NONPROJ + " IS MISSING"));
        assertValidation(gsi, () -> execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND " + NONPROJ + " IS NOT MISSING"));
        assertValidation(gsi, () -> execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND begins_with(" + NONPROJ + ", 'np')"));
        assertValidation(gsi, () -> execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND NOT " + NONPROJ + " = 'np1'"));
        assertValidation(gsi, () -> execute(from + "\"gsi-inc\" WHERE gsiPk2 IN ['y', 'z'] AND " + NONPROJ + " = 'np1'"));
        assertValidation(lsi, () -> execute(from + "\"lsi-keys\" WHERE pk = 'p' AND lsiSk2 BETWEEN 'k1' AND 'k4' AND "
                + NONPROJ + " = 'np1'"));
    }

    // DynamoDB: unkeyed, the same read is a scan of the index, where the attribute is absent: it
    // matches nothing, a negation of it matches every index row; in an OR branch it is accepted;
    // a filter on a projected attribute is accepted keyed.
    @Test
    void anUnkeyedIndexReadFiltersWhatTheIndexHolds() {
        String from = "SELECT pk, sk FROM \"" + IDX + "\".";
        assertEquals(0, execute(from + "\"gsi-inc\" WHERE " + NONPROJ + " = 'np1'").items().size());
        assertEquals(0, execute(from + "\"lsi-keys\" WHERE " + NONPROJ + " = 'np1'").items().size());
        assertEquals(0, execute(from + "\"gsi-inc\" WHERE " + NONPROJ + " = 'np1' AND " + NONPROJ + " = 'np2'").items().size());
        assertEquals(1, execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND projattr = 'proj1'").items().size());
        assertEquals(3, execute(from + "\"gsi-inc\" WHERE gsiPk2 = 'y' AND projattr IS NOT MISSING").items().size());
        assertEquals(List.of("s1", "s2", "s4", "s5"),
                sks(execute(from + "\"gsi-keys\" WHERE NOT " + NONPROJ + " = 'np1'").items()));
        assertEquals(List.of("s5"), sks(execute(from + "\"gsi-inc\" WHERE (gsiPk2 = 'y' AND " + NONPROJ
                + " = 'np1') OR (gsiPk2 = 'y2')").items()));
    }

    // DynamoDB: a bounded qualified read mints a NextToken that continues to the other row; a token
    // minted against one index is refused (ValidationException) when replayed against another.
    @Test
    void nextTokenContinuesItsOwnStatementOnly() {
        String statement = "SELECT pk, sk FROM \"" + IDX + "\".\"gsi-all\" WHERE gsiPk = 'x'";
        ExecuteStatementResponse first = execute(statement, b -> b.limit(1));
        assertEquals(1, first.items().size());
        assertNotNull(first.nextToken());
        ExecuteStatementResponse second = execute(statement, b -> b.nextToken(first.nextToken()));
        List<Map<String, AttributeValue>> seen = new ArrayList<>(first.items());
        seen.addAll(second.items());
        assertEquals(List.of("s1", "s4"), sks(seen));

        ExecuteStatementResponse inc = execute("SELECT pk, sk FROM \"" + IDX + "\".\"gsi-inc\" WHERE gsiPk2 = 'y'",
                b -> b.limit(1));
        assertNotNull(inc.nextToken());
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> execute("SELECT pk, sk FROM \"" + IDX + "\".\"gsi-keys\" WHERE gsiPk2 = 'y'",
                        b -> b.nextToken(inc.nextToken())));
        assertEquals("ValidationException", e.awsErrorDetails().errorCode());
    }

    // DynamoDB: a keyed index read charges the index arm and a zero table arm; ConsistentRead
    // doubles an LSI arm, and both arms of a reach-back.
    @Test
    void capacityLandsOnTheIndexArm() {
        ConsumedCapacity gsi = indexes("SELECT pk FROM \"" + IDX + "\".\"gsi-all\" WHERE gsiPk = 'x'").consumedCapacity();
        assertEquals(0, tableUnits(gsi));
        assertTrue(gsiUnits(gsi, "gsi-all") > 0);
        assertEquals(gsi.capacityUnits(), gsiUnits(gsi, "gsi-all"));

        String lsiRead = "SELECT pk FROM \"" + IDX + "\".\"lsi-all\" WHERE pk = 'p'";
        ConsumedCapacity eventual = indexes(lsiRead).consumedCapacity();
        assertEquals(0, tableUnits(eventual));
        assertTrue(lsiUnits(eventual, "lsi-all") > 0);
        assertEquals(eventual.capacityUnits(), lsiUnits(eventual, "lsi-all"));
        ConsumedCapacity consistent = indexes(lsiRead, b -> b.consistentRead(true)).consumedCapacity();
        assertEquals(lsiUnits(eventual, "lsi-all") * 2, lsiUnits(consistent, "lsi-all"));
        assertEquals(eventual.capacityUnits() * 2, consistent.capacityUnits());

        String reachBack = "SELECT " + NONPROJ + " FROM \"" + IDX + "\".\"lsi-keys\" WHERE pk = 'p'";
        ConsumedCapacity e2 = indexes(reachBack).consumedCapacity();
        ConsumedCapacity c2 = indexes(reachBack, b -> b.consistentRead(true)).consumedCapacity();
        assertEquals(tableUnits(e2) * 2, tableUnits(c2));
        assertEquals(lsiUnits(e2, "lsi-keys") * 2, lsiUnits(c2, "lsi-keys"));
    }

    // paritysuite executeStatementIndex: without the index partition key a qualified read scans
    // the index (GSI) and filters; an LSI read reaches a column outside its projection.
    @Test
    void aQualifiedReadWithoutTheIndexKeyScansTheIndex() {
        assertEquals(List.of("s1", "s2", "s4"), sks(execute("SELECT * FROM \"" + IDX + "\".\"gsi-all\" WHERE pk = 'p'").items()));
        Map<String, AttributeValue> item = execute("SELECT " + NONPROJ + " FROM \"" + IDX
                + "\".\"lsi-inc\" WHERE pk = 'p' AND lsiSk3 = 'm2'").items().get(0);
        assertEquals(Map.of(NONPROJ, s("np2")), item);
    }

    // ---- ordering operators (tier2/partiql/comparison, tier3/error-messages/partiql) ----------------

    // DynamoDB: <, <=, >, >= and BETWEEN refuse an operand of a type with no ordering (BOOL, NULL,
    // L, M, SS, NS, BS), naming the operator as written; = and <> accept them; S against N is fine.
    @Test
    void orderingOperatorsRefuseUnorderedOperands() {
        put(HASH, Map.of("pk", s("pq-cmp-B"), "val", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1, 2, 3}))));
        String where = "SELECT pk FROM \"" + HASH + "\" WHERE pk = 'pq-cmp-B' AND ";
        for (String op : List.of("<", "<=", ">", ">=")) {
            assertValidation("Incorrect operand type for operator or function; operator or function: " + op
                    + ", operand type: BOOL", () -> execute(where + "val " + op + " ?", AttributeValue.fromBool(true)));
        }
        assertValidationContaining("operator or function: BETWEEN",
                () -> execute(where + "val BETWEEN ? AND ?", AttributeValue.fromBool(true), AttributeValue.fromBool(false)));
        List<AttributeValue> unordered = List.of(AttributeValue.fromBool(true), AttributeValue.fromNul(true),
                AttributeValue.fromL(List.of(s("a"))), AttributeValue.fromM(Map.of("a", s("b"))),
                AttributeValue.fromSs(List.of("a")), AttributeValue.fromNs(List.of("1")),
                AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[] {1}))));
        for (AttributeValue v : unordered) {
            DynamoDbException e = assertThrows(DynamoDbException.class, () -> execute(where + "val < ?", v));
            assertEquals("ValidationException", e.awsErrorDetails().errorCode());
            assertEquals(0, execute(where + "val = ?", v).items().size());
            assertEquals(1, execute(where + "val <> ?", v).items().size());
        }
        assertEquals(List.of(), execute(where + "val < ?", n("5")).items());
        assertEquals(1, execute(where + "val < ?", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1, 2, 4})))
                .items().size());
        assertEquals(0, execute(where + "val > ?", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1, 2, 4})))
                .items().size());
    }

    // ---- grammar (paritysuite tier3/error-messages/partiqlGrammar) --------------------------------

    // DynamoDB: a token left over after a complete statement is "Unexpected token after expression".
    @Test
    void aLeftoverTokenAfterTheStatement() {
        String leftover = MALFORMED + "Unexpected token after expression";
        assertValidation(leftover, () -> execute("SELECT * FROM \"" + HASH + "\" WHERE pk = 'a' foo"));
        assertValidation(leftover, () -> execute("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'lo-1'} foo"));
        assertValidation(leftover, () -> execute("UPDATE \"" + HASH + "\" SET a = 9 WHERE pk = 'lo-2' foo"));
        assertValidation(leftover, () -> execute("DELETE FROM \"" + HASH + "\" WHERE pk = 'lo-3' foo"));
        assertValidation(leftover, () -> execute("SELECT * FROM \"" + HASH + "\" WHERE pk = 'a')"));
        assertValidation(leftover, () -> execute("DELETE FROM \"" + HASH + "\" WHERE pk = 'lo-4' ORDER BY pk"));
        assertValidation(leftover, () -> execute("SELECT * FROM \"" + HASH + "\" ORDER BY pk WHERE pk = 'a'"));
        // An alias on INSERT is a leftover token too.
        assertValidation(leftover, () -> execute("INSERT INTO \"" + HASH + "\" t VALUE {'pk': 'x'}"));
        assertNull(get(HASH, Map.of("pk", s("lo-1"))));
    }

    // DynamoDB: a table alias on SELECT, UPDATE or DELETE is "Aliasing is not supported".
    @Test
    void tableAliases() {
        assertValidation("Aliasing is not supported", () -> execute("SELECT * FROM \"" + HASH + "\" t WHERE pk = 'x'"));
        assertValidation("Aliasing is not supported", () -> execute("SELECT * FROM \"" + HASH + "\" AS t WHERE pk = 'x'"));
        assertValidation("Aliasing is not supported", () -> execute("UPDATE \"" + HASH + "\" t SET a = 3 WHERE pk = 'x'"));
        assertValidation("Aliasing is not supported", () -> execute("DELETE FROM \"" + HASH + "\" t WHERE pk = 'x'"));
    }

    // ---- BatchExecuteStatement (tier2/partiql/batchExecuteStatement) ------------------------------

    // DynamoDB: a batch of SELECTs answers each in its place; a batch of an INSERT and an UPDATE
    // applies both.
    @Test
    void batchReadsAndBatchWrites() {
        put(HASH, Map.of("pk", s("batch-sel-1"), "data", s("one")));
        put(HASH, Map.of("pk", s("batch-sel-2"), "data", s("two")));
        BatchExecuteStatementResponse reads = batch(member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-sel-1'"),
                member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-sel-2'"));
        assertEquals(List.of("batch-sel-1", "batch-sel-2"),
                reads.responses().stream().map(r -> r.item().get("pk").s()).toList());

        put(HASH, Map.of("pk", s("batch-upd-1"), "data", s("before")));
        BatchExecuteStatementResponse writes = batch(
                member("INSERT INTO \"" + HASH + "\" VALUE {'pk': 'batch-ins-1', 'data': 'new'}"),
                member("UPDATE \"" + HASH + "\" SET data = 'after' WHERE pk = 'batch-upd-1'"));
        assertEquals(2, writes.responses().size());
        assertEquals(s("new"), get(HASH, Map.of("pk", s("batch-ins-1"))).get("data"));
        assertEquals(s("after"), get(HASH, Map.of("pk", s("batch-upd-1"))).get("data"));
    }

    // DynamoDB: a member naming a missing table fails alone, with Code ResourceNotFound.
    @Test
    void batchMemberOnAMissingTable() {
        put(HASH, Map.of("pk", s("batch-partial-1"), "data", s("exists")));
        BatchExecuteStatementResponse r = batch(member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-partial-1'"),
                member("SELECT * FROM \"no_such_table_pq\" WHERE pk = 'x'"));
        assertNull(r.responses().get(0).error());
        assertEquals(s("exists"), r.responses().get(0).item().get("data"));
        assertEquals("ResourceNotFound", r.responses().get(1).error().codeAsString());
    }

    // DynamoDB: BatchExecuteStatement honours RETURNING: ALL OLD on DELETE and ALL NEW on UPDATE put
    // the item on Responses[i].Item; MODIFIED NEW only the changed attribute; an empty MODIFIED
    // projection omits Item (TableName still echoed).
    @Test
    void batchHonoursReturning() {
        put(HASH, Map.of("pk", s("batch-ret-allold"), "data", s("batchgone")));
        BatchStatementResponse deleted = batch(member("DELETE FROM \"" + HASH
                + "\" WHERE pk = 'batch-ret-allold' RETURNING ALL OLD *")).responses().get(0);
        assertEquals(Map.of("pk", s("batch-ret-allold"), "data", s("batchgone")), deleted.item());
        assertNull(get(HASH, Map.of("pk", s("batch-ret-allold"))));

        put(HASH, Map.of("pk", s("batch-ret-allnew"), "data", s("old")));
        assertEquals(Map.of("pk", s("batch-ret-allnew"), "data", s("new")), batch(member("UPDATE \"" + HASH
                + "\" SET data = 'new' WHERE pk = 'batch-ret-allnew' RETURNING ALL NEW *")).responses().get(0).item());

        put(HASH, Map.of("pk", s("batch-ret-modnew"), "data", s("old")));
        assertEquals(Map.of("data", s("new")), batch(member("UPDATE \"" + HASH
                + "\" SET data = 'new' WHERE pk = 'batch-ret-modnew' RETURNING MODIFIED NEW *")).responses().get(0).item());

        put(HASH, Map.of("pk", s("batch-ret-modempty"), "data", s("old")));
        BatchStatementResponse empty = batch(member("UPDATE \"" + HASH
                + "\" REMOVE data WHERE pk = 'batch-ret-modempty' RETURNING MODIFIED NEW *")).responses().get(0);
        assertNull(empty.error());
        assertTrue(empty.item() == null || !empty.hasItem());
        assertEquals(HASH, empty.tableName());
        assertNull(get(HASH, Map.of("pk", s("batch-ret-modempty"))).get("data"));
    }

    // DynamoDB: an invalid RETURNING variant, and a member that does not parse, are per-statement
    // errors with Code ValidationError and the single-statement message; the batch succeeds and a
    // valid sibling still runs.
    @Test
    void batchMemberValidationErrors() {
        BatchStatementResponse bad = batch(member("DELETE FROM \"" + HASH
                + "\" WHERE pk = 'batch-ret-badvariant' RETURNING MODIFIED OLD *")).responses().get(0);
        assertEquals("ValidationError", bad.error().codeAsString());
        assertEquals("Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
                bad.error().message());

        put(HASH, Map.of("pk", s("batch-parse-ok"), "data", s("valid")));
        BatchExecuteStatementResponse r = batch(member("SLECT * FROM \"" + HASH + "\" WHERE pk = 'batch-parse-ok'"),
                member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-parse-ok'"));
        assertEquals("ValidationError", r.responses().get(0).error().codeAsString());
        assertEquals(MALFORMED + "Expected data manipulation", r.responses().get(0).error().message());
        assertNull(r.responses().get(1).error());
        assertEquals(s("valid"), r.responses().get(1).item().get("data"));
    }

    // DynamoDB: an empty Statements list is a ValidationException.
    @Test
    void batchOfNoStatements() {
        DynamoDbException e = assertThrows(DynamoDbException.class,
                () -> client().batchExecuteStatement(b -> b.statements(List.of())));
        assertEquals("ValidationException", e.awsErrorDetails().errorCode());
    }

    // DynamoDB: ConsistentRead is per member: a small eventual read costs 0.5, a consistent one
    // twice that, false is as omitted, and a mixed batch is the sum of the two rates.
    @Test
    void batchConsistentReadIsPerMember() {
        put(HASH, Map.of("pk", s("batch-cr-a"), "val", s("a")));
        put(HASH, Map.of("pk", s("batch-cr-b"), "val", s("b")));
        String select = "SELECT * FROM \"" + HASH + "\" WHERE pk = ?";
        BatchStatementRequest eventualA = member(select, s("batch-cr-a"));
        BatchStatementRequest consistentA = eventualA.toBuilder().consistentRead(true).build();
        BatchStatementRequest explicitFalseA = eventualA.toBuilder().consistentRead(false).build();
        BatchStatementRequest eventualB = member(select, s("batch-cr-b"));
        assertEquals(0.5, total(eventualA));
        assertEquals(1.0, total(consistentA));
        assertEquals(0.5, total(explicitFalseA));
        assertEquals(1.5, total(consistentA, eventualB));
    }

    private static double total(BatchStatementRequest... statements) {
        BatchExecuteStatementResponse r = client().batchExecuteStatement(b -> b.statements(statements)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertNotNull(r.responses().get(0).item());
        return r.consumedCapacity().stream().mapToDouble(ConsumedCapacity::capacityUnits).sum();
    }

    // DynamoDB: a batch SELECT must give the table's primary key; an index-qualified one is refused
    // in the same words even when it does. Each is a per-member ValidationError, without TableName,
    // and the rest of the batch runs.
    @Test
    void batchSelectMustNameThePrimaryKey() {
        String message = "Select statements within BatchExecuteStatement must specify the primary key in the where clause.";
        put(HASH, Map.of("pk", s("batch-pk-ok"), "val", s("here")));
        BatchExecuteStatementResponse r = batch(
                member("SELECT * FROM \"" + HASH + "\" WHERE val = 'nope'"),
                member("SELECT * FROM \"" + IDX + "\".\"gsi-all\" WHERE gsiPk = 'x'"),
                member("SELECT * FROM \"" + IDX + "\".\"gsi-all\" WHERE pk = 'p' AND sk = 's1' AND gsiPk = 'x'"),
                member("SELECT * FROM \"" + IDX + "\" WHERE pk = 'p'"),
                member("SELECT * FROM \"" + HASH + "\" WHERE pk = 'batch-pk-ok'"));
        for (int i = 0; i < 4; i++) {
            BatchStatementResponse failed = r.responses().get(i);
            assertEquals("ValidationError", failed.error().codeAsString());
            assertEquals(message, failed.error().message());
            assertNull(failed.tableName());
        }
        assertEquals(s("here"), r.responses().get(4).item().get("val"));
    }

    // DynamoDB: a member that ran and failed (ConditionalCheckFailed, DuplicateItem) echoes its
    // TableName; ReturnValuesOnConditionCheckFailure returns no Item on the member, whatever it is.
    @Test
    void batchFailedMembersEchoTheirTable() {
        put(HASH, Map.of("pk", s("batch-tn-cond"), "val", s("here")));
        for (String setting : new String[] {"ALL_OLD", "NONE", null}) {
            BatchStatementResponse cond = batch(member("UPDATE \"" + HASH + "\" SET touched = 'yes' WHERE pk = ? AND val = ?",
                    s("batch-tn-cond"), s("wrong")).toBuilder().returnValuesOnConditionCheckFailure(setting).build())
                    .responses().get(0);
            assertEquals("ConditionalCheckFailed", cond.error().codeAsString());
            assertEquals(HASH, cond.tableName());
            assertTrue(cond.item() == null || !cond.hasItem());
        }
        put(HASH, Map.of("pk", s("batch-tn-dup")));
        BatchStatementResponse dup = batch(member("INSERT INTO \"" + HASH + "\" VALUE {'pk': ?}", s("batch-tn-dup")))
                .responses().get(0);
        assertEquals("DuplicateItem", dup.error().codeAsString());
        assertEquals(HASH, dup.tableName());
    }
}
