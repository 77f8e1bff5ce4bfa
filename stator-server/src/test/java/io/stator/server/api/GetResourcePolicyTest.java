package io.stator.server.api;

import static io.stator.server.api.PutResourcePolicyTest.arn;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;

/** GetResourcePolicy, with DynamoDB's texts (moto's AWS-verified tests; ack-api-quirks, 2026). */
class GetResourcePolicyTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @Test
    void aTableWithoutAPolicyIsAPolicyNotFoundException() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: " + arn(table),
                () -> server.client().getResourcePolicy(b -> b.resourceArn(arn(table))));
    }

    @Test
    void anUnknownTableIsAResourceNotFoundException() {
        String table = StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> server.client().getResourcePolicy(b -> b.resourceArn(arn(table))));
    }

    @Test
    void aDocumentSentWithoutVersionIsReturnedWithIamsDefaultVersion() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        String statement = "\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"dynamodb:DeleteTable\","
                + "\"Resource\":\"" + arn(table) + "\"}]";
        server.client().putResourcePolicy(b -> b.resourceArn(arn(table)).policy("{" + statement + "}"));
        assertEquals("{\"Version\":\"2008-10-17\"," + statement + "}",
                server.client().getResourcePolicy(b -> b.resourceArn(arn(table))).policy());
    }

    @Test
    void createTablesResourcePolicyIsTheTablesPolicyAndGoesWithIt() {
        String table = StatorTestServer.tableName();
        String policy = PutResourcePolicyTest.policy(table, "dynamodb:GetItem");
        server.client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("id").keyType("HASH"))
                .attributeDefinitions(a -> a.attributeName("id").attributeType("S")).resourcePolicy(policy));
        assertEquals(PutResourcePolicyTest.canonical(table, "dynamodb:GetItem"),
                server.client().getResourcePolicy(b -> b.resourceArn(arn(table))).policy());

        server.client().deleteTable(b -> b.tableName(table));
        StatorTestServer.createTable(server.client(), table);
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: " + arn(table),
                () -> server.client().getResourcePolicy(b -> b.resourceArn(arn(table))));
    }
}
