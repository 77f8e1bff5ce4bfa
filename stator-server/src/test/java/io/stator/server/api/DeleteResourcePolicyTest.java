package io.stator.server.api;

import static io.stator.server.api.PutResourcePolicyTest.arn;
import static io.stator.server.api.PutResourcePolicyTest.policy;
import static io.stator.server.testing.ErrorAssertions.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** DeleteResourcePolicy, with DynamoDB's texts (moto's AWS-verified tests; ack-api-quirks, 2026). */
class DeleteResourcePolicyTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static String newTableWithPolicy() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        return table;
    }

    @Test
    void deleteAnswersTheRemovedPolicysRevisionId() {
        String table = newTableWithPolicy();
        String revision = server.client().putResourcePolicy(b -> b.resourceArn(arn(table))
                .policy(policy(table, "dynamodb:GetItem"))).revisionId();
        assertEquals(revision, server.client().deleteResourcePolicy(b -> b.resourceArn(arn(table))).revisionId());
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: " + arn(table),
                () -> server.client().getResourcePolicy(b -> b.resourceArn(arn(table))));
    }

    @Test
    void deletingWhenThereIsNoPolicyIsNoError() {
        String table = newTableWithPolicy();
        assertNull(server.client().deleteResourcePolicy(b -> b.resourceArn(arn(table))).revisionId());
    }

    @Test
    void expectedRevisionIdMustBeTheCurrentOne() {
        String table = newTableWithPolicy();
        String first = server.client().putResourcePolicy(b -> b.resourceArn(arn(table))
                .policy(policy(table, "dynamodb:GetItem"))).revisionId();
        String second = server.client().putResourcePolicy(b -> b.resourceArn(arn(table))
                .policy(policy(table, "dynamodb:Query"))).revisionId();
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: Requested "
                + "update for policy with revision id " + first + ", but the policy associated to target table " + table
                + " has revision id " + second + ".", () -> server.client().deleteResourcePolicy(b -> b
                .resourceArn(arn(table)).expectedRevisionId(first)));
        assertEquals(second, server.client().deleteResourcePolicy(b -> b.resourceArn(arn(table))
                .expectedRevisionId(second)).revisionId());
        // With no policy left, an expected revision cannot match. DynamoDB's text is recorded only up
        // to "has no associated"; the rest is Stator's.
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: Requested "
                + "update for policy with revision id " + second + ", but table " + table + " has no associated policy.",
                () -> server.client().deleteResourcePolicy(b -> b.resourceArn(arn(table)).expectedRevisionId(second)));
    }

    @Test
    void anUnknownTableIsAResourceNotFoundException() {
        String table = StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + " not found",
                () -> server.client().deleteResourcePolicy(b -> b.resourceArn(arn(table))));
    }
}
