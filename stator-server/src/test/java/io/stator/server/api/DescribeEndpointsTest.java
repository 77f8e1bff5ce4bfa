package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DescribeEndpointsResponse;
import software.amazon.awssdk.services.dynamodb.model.Endpoint;

/**
 * DescribeEndpoints. DynamoDB gives its regional address ("dynamodb.us-east-1.amazonaws.com");
 * Stator gives its own, so that clients with endpoint discovery keep talking to it.
 */
class DescribeEndpointsTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @Test
    void describeEndpointsGivesThisServersAddressForADay() {
        DescribeEndpointsResponse response = server.client().describeEndpoints(b -> { });
        assertEquals(List.of(Endpoint.builder().address(server.endpoint().getAuthority()).cachePeriodInMinutes(1440L).build()),
                response.endpoints());
    }

    @Test
    void describeEndpointsAnswersWithOnlyAddressAndCachePeriod() {
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.describeEndpoints(b -> { });
        }
        JsonNode body = raw.lastJson();
        assertEquals(Set.of("Endpoints"), body.asObject().keySet());
        List<JsonNode> endpoints = body.field("Endpoints").orElseThrow().asArray();
        assertEquals(1, endpoints.size());
        assertEquals(Set.of("Address", "CachePeriodInMinutes"), endpoints.get(0).asObject().keySet());
        assertEquals("1440", endpoints.get(0).field("CachePeriodInMinutes").orElseThrow().asNumber());
    }

    @Test
    void describeEndpointsGivesTheAddressOfTheRestartedServer() {
        server.restart();
        assertEquals(server.endpoint().getAuthority(),
                server.client().describeEndpoints(b -> { }).endpoints().get(0).address());
    }
}
