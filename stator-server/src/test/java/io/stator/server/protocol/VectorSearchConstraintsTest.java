package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.server.protocol.request.CreateTableInput;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.ReturnConsumedCapacity;
import io.stator.server.protocol.request.SearchVectorsInput;
import io.stator.server.protocol.request.UpdateTableInput;
import io.stator.server.protocol.request.VectorIndex;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The vector search shapes of the bundled model as the request reader and {@link Constraints}
 * see them: SearchVectors' input, and the vector indexes of CreateTable and UpdateTable. The
 * bodies are read and checked as the endpoint does ({@link RequestReader#parse}, then
 * {@link Constraints#check}), which it does for a served operation only; so SearchVectors' texts,
 * whose action is not served yet, are held here (and through a server by
 * {@code VectorSearchShapesTest} once it is).
 *
 * <p>Texts: docs/dynamodb/vector-search.md. SearchVectors' IndexName and SearchVector are worded
 * without the value and capitalised, its TopK with the value (dynoxide's captures of 2026-08-13,
 * section 5.1 steps 2-3); the 255 and 4096 upper bounds in that same form are not captured
 * (dynoxide's 255 "uncaptured beyond the captured no-echo form", 4096 a PROPOSAL). CreateTable's
 * null projection and DistanceFunction's value set: ExtendDB's captures of 2026-08-06 (section
 * 3.2 rules 1 and 4). A missing SearchVectors member has no capture: the generic text.
 */
class VectorSearchConstraintsTest {

    private static final String SEARCH_VECTORS = "SearchVectors";

    private static String search(String indexName, String searchVector, int topK) {
        return "{\"TableName\": \"tbl\", \"IndexName\": \"" + indexName + "\", \"SearchVector\": " + searchVector
                + ", \"TopK\": " + topK + "}";
    }

    private static String vector(int dimensions) {
        return "[" + String.join(", ", Collections.nCopies(dimensions, "{\"N\": \"0.5\"}")) + "]";
    }

    // ---- SearchVectors ------------------------------------------------------------------------

    @Test
    void searchVectorsIsReadIntoItsRecord() {
        ModelStructure read = check(SEARCH_VECTORS, "{\"TableName\": \"tbl\", \"IndexName\": \"vix\", "
                + "\"ReturnConsumedCapacity\": \"TOTAL\", \"ExpressionAttributeNames\": {\"#t\": \"tenant\"}, "
                + "\"ExpressionAttributeValues\": {\":t\": {\"S\": \"a\"}}, \"ProjectionExpression\": \"pk\", "
                + "\"SearchVector\": [{\"N\": \"1\"}, {\"N\": \"-0.25\"}], \"SearchConditionExpression\": \"#t = :t\", "
                + "\"TopK\": 7}");

        SearchVectorsInput input = assertInstanceOf(SearchVectorsInput.class, read);
        assertEquals("tbl", input.tableName());
        assertEquals("vix", input.indexName());
        assertEquals(ReturnConsumedCapacity.TOTAL, input.returnConsumedCapacity());
        assertEquals("tenant", input.expressionAttributeNames().get("#t"));
        List<AttributeValue> searchVector = input.searchVector().validated();
        assertEquals(List.of(new AttributeValue.N(DynamoNumber.parse("1")), new AttributeValue.N(DynamoNumber.parse("-0.25"))),
                searchVector);
        assertEquals("#t = :t", input.searchConditionExpression());
        assertEquals(7, input.topK());
    }

    @Test
    void indexNameIsThreeTo255CharactersWordedWithoutItsValue() {
        check(SEARCH_VECTORS, search("abc", vector(1), 1));
        check(SEARCH_VECTORS, search("x".repeat(255), vector(1), 1));

        assertRefused("1 validation error detected: Value at 'IndexName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3", SEARCH_VECTORS, search("ab", vector(1), 1));
        assertRefused("1 validation error detected: Value at 'IndexName' failed to satisfy constraint: "
                + "Member must have length less than or equal to 255", SEARCH_VECTORS,
                search("x".repeat(256), vector(1), 1));
    }

    @Test
    void searchVectorHasOneTo4096ElementsWordedWithoutItsValue() {
        check(SEARCH_VECTORS, search("vix", vector(4096), 1));

        assertRefused("1 validation error detected: Value at 'SearchVector' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 1", SEARCH_VECTORS, search("vix", "[]", 1));
        assertRefused("1 validation error detected: Value at 'SearchVector' failed to satisfy constraint: "
                + "Member must have length less than or equal to 4096", SEARCH_VECTORS, search("vix", vector(4097), 1));
    }

    @Test
    void topKBelowOneIsWordedWithItsValueAndTheModelSetsNoMaximum() {
        // Above 100 is the action's own check, with its own text (section 5.1 step 7).
        check(SEARCH_VECTORS, search("vix", vector(1), 1));
        check(SEARCH_VECTORS, search("vix", vector(1), 101));

        assertRefused("1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", SEARCH_VECTORS, search("vix", vector(1), 0));
    }

    @Test
    void bothFormsAreReportedTogetherInTheModelsOrder() {
        assertRefused("3 validation errors detected: "
                + "Value at 'IndexName' failed to satisfy constraint: Member must have length greater than or equal to 3; "
                + "Value at 'SearchVector' failed to satisfy constraint: Member must have length greater than or equal to 1; "
                + "Value '-1' at 'topK' failed to satisfy constraint: Member must have value greater than or equal to 1",
                SEARCH_VECTORS, search("ab", "[]", -1));
    }

    @Test
    void missingMembersAreTheGenericNotNullViolations() {
        assertRefused("4 validation errors detected: "
                + "Value null at 'tableName' failed to satisfy constraint: Member must not be null; "
                + "Value null at 'indexName' failed to satisfy constraint: Member must not be null; "
                + "Value null at 'searchVector' failed to satisfy constraint: Member must not be null; "
                + "Value null at 'topK' failed to satisfy constraint: Member must not be null", SEARCH_VECTORS, "{}");
    }

    @Test
    void queryLimitKeepsItsOwnWording() {
        // The same departure, for Query's Limit (QueryErrorsTest holds it through a server).
        assertRefused("1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", "Query",
                "{\"TableName\": \"tbl\", \"KeyConditionExpression\": \"pk = :p\", \"Limit\": 0}");
        assertRefused("1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", "Scan", "{\"TableName\": \"tbl\", \"Limit\": 0}");
    }

    // ---- CreateTable and UpdateTable ------------------------------------------------------------

    private static String createTable(String vectorIndex) {
        return "{\"TableName\": \"tbl\", \"BillingMode\": \"PAY_PER_REQUEST\", "
                + "\"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}], "
                + "\"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}], "
                + "\"VectorIndexes\": [" + vectorIndex + "]}";
    }

    private static final String INDEX = "\"IndexName\": \"vix\", \"VectorAttribute\": {\"AttributeName\": \"embedding\"}, "
            + "\"Dimensions\": 3, \"DistanceFunction\": \"COSINE\", \"Projection\": {\"ProjectionType\": \"ALL\"}";

    @Test
    void createTableReadsItsVectorIndexes() {
        CreateTableInput input = assertInstanceOf(CreateTableInput.class, check("CreateTable", createTable("{" + INDEX
                + ", \"SearchSchema\": [{\"AttributeName\": \"tenant\", \"SearchSchemaElementType\": \"HASH\"}]}")));

        VectorIndex index = input.vectorIndexes().getFirst();
        assertEquals(List.of("vix", "embedding", 3L, "COSINE", "ALL", "tenant", "HASH"), List.of(index.indexName(),
                index.vectorAttribute().attributeName(), index.dimensions(), index.distanceFunction(),
                index.projection().projectionType(), index.searchSchema().getFirst().attributeName(),
                index.searchSchema().getFirst().searchSchemaElementType()));
    }

    @Test
    void aVectorIndexWithoutProjectionIsANullViolationAtItsPosition() {
        String withoutProjection = "{\"IndexName\": \"vix\", \"VectorAttribute\": {\"AttributeName\": \"embedding\"}, "
                + "\"Dimensions\": 3, \"DistanceFunction\": \"COSINE\"}";

        assertRefused("1 validation error detected: Value null at 'vectorIndexes.2.member.projection' failed to "
                + "satisfy constraint: Member must not be null", "CreateTable",
                createTable("{" + INDEX + "}, " + withoutProjection));
    }

    @Test
    void distanceFunctionsAreListedInDynamoDbsOrder() {
        assertRefused("1 validation error detected: Value 'HAMMING' at 'vectorIndexes.1.member.distanceFunction' failed "
                + "to satisfy constraint: Member must satisfy enum value set: [DOT_PRODUCT, COSINE, EUCLIDEAN]",
                "CreateTable", createTable("{" + INDEX.replace("COSINE", "HAMMING") + "}"));
    }

    @Test
    void aSearchSchemaHasAtLeastOneElementOfAKnownType() {
        assertRefused("1 validation error detected: Value '[]' at 'vectorIndexes.1.member.searchSchema' failed to "
                + "satisfy constraint: Member must have length greater than or equal to 1", "CreateTable",
                createTable("{" + INDEX + ", \"SearchSchema\": []}"));
        assertRefused("1 validation error detected: Value 'RANGE' at "
                + "'vectorIndexes.1.member.searchSchema.1.member.searchSchemaElementType' failed to satisfy constraint: "
                + "Member must satisfy enum value set: [HASH, INLINE_FILTER]", "CreateTable",
                createTable("{" + INDEX + ", \"SearchSchema\": [{\"AttributeName\": \"tenant\", "
                        + "\"SearchSchemaElementType\": \"RANGE\"}]}"));
    }

    @Test
    void aVectorAttributeNameIsOneTo255Characters() {
        check("CreateTable", createTable("{" + INDEX.replace("embedding", "e".repeat(255)) + "}"));

        assertRefused("1 validation error detected: Value '' at 'vectorIndexes.1.member.vectorAttribute.attributeName' "
                + "failed to satisfy constraint: Member must have length greater than or equal to 1", "CreateTable",
                createTable("{" + INDEX.replace("embedding", "") + "}"));
        assertRefused("1 validation error detected: Value '" + "e".repeat(256) + "' at "
                + "'vectorIndexes.1.member.vectorAttribute.attributeName' failed to satisfy constraint: "
                + "Member must have length less than or equal to 255", "CreateTable",
                createTable("{" + INDEX.replace("embedding", "e".repeat(256)) + "}"));
    }

    @Test
    void updateTableReadsVectorIndexCreatesAndDeletes() {
        UpdateTableInput input = assertInstanceOf(UpdateTableInput.class, check("UpdateTable",
                "{\"TableName\": \"tbl\", \"VectorIndexUpdates\": [{\"Create\": {" + INDEX + "}}, "
                        + "{\"Delete\": {\"IndexName\": \"old\"}}]}"));

        assertEquals("vix", input.vectorIndexUpdates().get(0).create().indexName());
        assertEquals("old", input.vectorIndexUpdates().get(1).delete().indexName());
        assertRefused("1 validation error detected: Value null at 'vectorIndexUpdates.1.member.delete.indexName' "
                + "failed to satisfy constraint: Member must not be null", "UpdateTable",
                "{\"TableName\": \"tbl\", \"VectorIndexUpdates\": [{\"Delete\": {}}]}");
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** Reads and checks the body as the endpoint does; returns the request read. */
    private static ModelStructure check(String operation, String body) {
        Shape.StructureShape shape = ServiceModel.get().operation(operation).input();
        RequestReader.Parsed parsed = RequestReader.parse(body.getBytes(StandardCharsets.UTF_8), shape);
        ModelStructure read = parsed.request();
        Constraints.check(parsed, shape);
        return read;
    }

    private static void assertRefused(String message, String operation, String body) {
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> check(operation, body));
        assertEquals(ErrorType.VALIDATION, e.type(), e::getMessage);
        assertEquals(message, e.getMessage());
    }
}
