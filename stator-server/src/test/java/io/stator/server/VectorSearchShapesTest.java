package io.stator.server;

import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.stator.server.api.Actions;
import io.stator.server.testing.RawHttp;
import io.stator.server.testing.RawHttp.Request;
import io.stator.server.testing.RawHttp.Response;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.VectorIndex;

/**
 * The vector search shapes of the bundled model, through a server: the constraints on
 * CreateTable's and UpdateTable's vector indexes (sent by the AWS SDK, which checks none of them
 * itself), and SearchVectors' request as sent on the wire. Every request here breaks a constraint,
 * so none reaches an action: no table is made or changed.
 *
 * <p>The endpoint checks a request's constraints only for an operation Stator serves. Until the
 * SearchVectors action is registered in {@code api/Actions}, its requests answer
 * UnknownOperationException whatever their body ({@link #searchVectorsAnswersUnknownOperationUntilServed});
 * once it is, {@link #searchVectorsConstraintsAreWordedAsDynamoDbWordsThem} runs instead (each is
 * skipped in the other state). Texts and their sources: {@code protocol/VectorSearchConstraintsTest},
 * which holds them without a server today.
 */
class VectorSearchShapesTest {

    private static final String UNKNOWN_OPERATION = "com.amazon.coral.service#UnknownOperationException";
    private static final String VALIDATION = "com.amazon.coral.validate#ValidationException";

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static boolean searchVectorsServed() {
        return new Actions(null, () -> "").serves("SearchVectors");
    }

    private static void createTable(Consumer<VectorIndex.Builder> index) {
        server.client().createTable(CreateTableRequest.builder()
                .tableName(StatorTestServer.tableName())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH))
                .vectorIndexes(VectorIndex.builder().indexName("vix").vectorAttribute(v -> v.attributeName("embedding"))
                        .dimensions(3L).distanceFunction("COSINE").projection(p -> p.projectionType(ProjectionType.ALL))
                        .applyMutation(index).build())
                .build());
    }

    @Test
    void createTableRefusesADistanceFunctionOutsideTheSetListedInDynamoDbsOrder() {
        assertValidation("1 validation error detected: Value 'HAMMING' at 'vectorIndexes.1.member.distanceFunction' "
                + "failed to satisfy constraint: Member must satisfy enum value set: [DOT_PRODUCT, COSINE, EUCLIDEAN]",
                () -> createTable(i -> i.distanceFunction("HAMMING")));
    }

    @Test
    void createTableRefusesAVectorIndexWithoutProjection() {
        assertValidation("1 validation error detected: Value null at 'vectorIndexes.1.member.projection' failed to "
                + "satisfy constraint: Member must not be null", () -> createTable(i -> i.projection((Projection) null)));
    }

    @Test
    void createTableRefusesAnEmptySearchSchema() {
        assertValidation("1 validation error detected: Value '[]' at 'vectorIndexes.1.member.searchSchema' failed to "
                + "satisfy constraint: Member must have length greater than or equal to 1",
                () -> createTable(i -> i.searchSchema(List.of())));
    }

    @Test
    void updateTableRefusesADeleteWithoutIndexName() {
        assertValidation("1 validation error detected: Value null at 'vectorIndexUpdates.1.member.delete.indexName' "
                + "failed to satisfy constraint: Member must not be null",
                () -> server.client().updateTable(u -> u.tableName(StatorTestServer.tableName())
                        .vectorIndexUpdates(v -> v.delete(d -> { }))));
    }

    @Test
    void searchVectorsAnswersUnknownOperationUntilServed() {
        assumeFalse(searchVectorsServed(), "SearchVectors is served: its constraints are tested instead");

        for (String body : new String[] {search("vix", "[{\"N\": \"1\"}]", 1), search("ab", "[]", 0)}) {
            Response response = send(body);
            assertEquals(400, response.status(), response::toString);
            Map<String, JsonNode> error = JsonNode.parser().parse(response.bodyText()).asObject();
            assertEquals(UNKNOWN_OPERATION, error.get("__type").asString());
            assertEquals("SearchVectors is not supported by Stator yet", error.get("message").asString());
        }
    }

    @Test
    void searchVectorsConstraintsAreWordedAsDynamoDbWordsThem() {
        assumeTrue(searchVectorsServed(), "runs once the SearchVectors action is registered in api/Actions");

        assertRefused("1 validation error detected: Value at 'IndexName' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 3", search("ab", "[{\"N\": \"1\"}]", 1));
        assertRefused("1 validation error detected: Value at 'SearchVector' failed to satisfy constraint: "
                + "Member must have length greater than or equal to 1", search("vix", "[]", 1));
        assertRefused("1 validation error detected: Value '0' at 'topK' failed to satisfy constraint: "
                + "Member must have value greater than or equal to 1", search("vix", "[{\"N\": \"1\"}]", 0));
    }

    /** A search of a table that does not exist: the constraints come before the table's lookup. */
    private static String search(String indexName, String searchVector, int topK) {
        return "{\"TableName\": \"" + StatorTestServer.tableName() + "\", \"IndexName\": \"" + indexName
                + "\", \"SearchVector\": " + searchVector + ", \"TopK\": " + topK + "}";
    }

    private static Response send(String body) {
        return RawHttp.exchange(server.port(), Request.action("SearchVectors", body));
    }

    private static void assertRefused(String message, String body) {
        Response response = send(body);
        assertEquals(400, response.status(), response::toString);
        Map<String, JsonNode> error = JsonNode.parser().parse(response.bodyText()).asObject();
        assertEquals(VALIDATION, error.get("__type").asString(), response::toString);
        assertEquals(message, error.get("message").asString());
    }
}
