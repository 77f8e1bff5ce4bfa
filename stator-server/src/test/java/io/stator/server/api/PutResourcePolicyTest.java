package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.GetResourcePolicyResponse;

/**
 * PutResourcePolicy through the AWS SDK: RevisionIds, ExpectedRevisionId, the document's checks
 * and the ResourceArn's, with DynamoDB's texts (moto's AWS-verified tests; ack-api-quirks
 * findings recorded against DynamoDB, 2026). Without --policies the policy is kept but not
 * enforced (AccessPoliciesTest enforces it).
 */
class PutResourcePolicyTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    static final String ACCOUNT = "000000000000";
    private static final String INVALID = "One or more parameter values were invalid: ";

    static String arn(String table) {
        return "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/" + table;
    }

    /** A policy letting the account's user "reader" perform {@code action} on the table. */
    static String policy(String table, String action) {
        return "{\"Version\": \"2012-10-17\", \"Statement\": [{\"Sid\": \"Read\", \"Effect\": \"Allow\", "
                + "\"Principal\": {\"AWS\": \"arn:aws:iam::" + ACCOUNT + ":user/reader\"}, "
                + "\"Action\": [\"" + action + "\"], \"Resource\": \"" + arn(table) + "\"}]}";
    }

    static String canonical(String table, String action) {
        return "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"Read\",\"Effect\":\"Allow\","
                + "\"Principal\":{\"AWS\":\"arn:aws:iam::" + ACCOUNT + ":user/reader\"},"
                + "\"Action\":\"" + action + "\",\"Resource\":\"" + arn(table) + "\"}]}";
    }

    private static String newTable() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(server.client(), table);
        return table;
    }

    private static String put(String table, String action) {
        return server.client().putResourcePolicy(b -> b.resourceArn(arn(table)).policy(policy(table, action))).revisionId();
    }

    @Test
    void putAnswersARevisionIdAndGetAnswersTheCanonicalPolicyWithIt() {
        String table = newTable();
        String revision = put(table, "dynamodb:GetItem");
        assertTrue(revision.matches("\\d{13}"), revision);
        GetResourcePolicyResponse got = server.client().getResourcePolicy(b -> b.resourceArn(arn(table)));
        assertEquals(revision, got.revisionId());
        assertEquals(canonical(table, "dynamodb:GetItem"), got.policy());
    }

    @Test
    void puttingTheSamePolicyAgainChangesNothingAndAnotherOneGetsALaterRevision() {
        String table = newTable();
        String first = put(table, "dynamodb:GetItem");
        assertEquals(first, put(table, "dynamodb:GetItem"));
        // Formatting is not a change: the canonical form is compared.
        assertEquals(first, server.client().putResourcePolicy(b -> b.resourceArn(arn(table))
                .policy(canonical(table, "dynamodb:GetItem"))).revisionId());
        String second = put(table, "dynamodb:Query");
        assertNotEquals(first, second);
        assertTrue(Long.parseLong(second) > Long.parseLong(first));
    }

    @Test
    void expectedRevisionIdMustBeTheCurrentOne() {
        String table = newTable();
        String first = put(table, "dynamodb:GetItem");
        String second = server.client().putResourcePolicy(b -> b.resourceArn(arn(table))
                .policy(policy(table, "dynamodb:Query")).expectedRevisionId(first)).revisionId();
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: Requested "
                + "update for policy with revision id " + first + ", but the policy associated to target table " + table
                + " has revision id " + second + ".", () -> server.client().putResourcePolicy(b -> b
                .resourceArn(arn(table)).policy(policy(table, "dynamodb:Scan")).expectedRevisionId(first)));
        assertEquals(second, server.client().getResourcePolicy(b -> b.resourceArn(arn(table))).revisionId());
    }

    @Test
    void noPolicyAsExpectedRevisionIdPutsOnlyWhenThereIsNone() {
        String table = newTable();
        String revision = server.client().putResourcePolicy(b -> b.resourceArn(arn(table))
                .policy(policy(table, "dynamodb:GetItem")).expectedRevisionId("NO_POLICY")).revisionId();
        assertError("PolicyNotFoundException", "Resource-based policy not found for the provided ResourceArn: Requested "
                + "policy update expecting none to be present for table " + table + ", but a policy exists with "
                + "revision id " + revision + ".", () -> server.client().putResourcePolicy(b -> b
                .resourceArn(arn(table)).policy(policy(table, "dynamodb:Query")).expectedRevisionId("NO_POLICY")));
    }

    @Test
    void theDocumentIsCheckedAsDynamoDbChecksIt() {
        String table = newTable();
        assertValidation(INVALID + "Invalid policy document: This policy contains invalid Json",
                () -> server.client().putResourcePolicy(b -> b.resourceArn(arn(table)).policy("{not json")));
        assertValidation(INVALID + "Invalid policy document: Missing required field Resource",
                () -> server.client().putResourcePolicy(b -> b.resourceArn(arn(table)).policy("{\"Statement\": "
                        + "[{\"Effect\": \"Deny\", \"Principal\": \"*\", \"Action\": \"dynamodb:GetItem\"}]}")));
        String big = policy(table, "dynamodb:GetItem");
        String tooBig = big + " ".repeat(20481 - big.length());
        assertValidation(INVALID + "Maximum policy size of 20480 bytes exceeded",
                () -> server.client().putResourcePolicy(b -> b.resourceArn(arn(table)).policy(tooBig)));
        assertValidation("Resource-based policy grants unbounded access in one or more elements. Please revise the "
                + "policy to ensure least-privilege form of access", () -> server.client().putResourcePolicy(b -> b
                .resourceArn(arn(table)).policy("{\"Statement\": [{\"Effect\": \"Allow\", \"Principal\": \"*\", "
                        + "\"Action\": \"dynamodb:GetItem\", \"Resource\": \"" + arn(table) + "\"}]}")));
        String atLimit = big + " ".repeat(20480 - big.length());
        server.client().putResourcePolicy(b -> b.resourceArn(arn(table)).policy(atLimit));
    }

    @Test
    void theResourceArnMustNameATableOfThisAccountAndRegion() {
        String table = newTable();
        String p = policy(table, "dynamodb:GetItem");
        assertValidation(INVALID + "ARNs must start with 'arn:': " + table,
                () -> server.client().putResourcePolicy(b -> b.resourceArn(table).policy(p)));
        assertValidation(INVALID + "Invalid resource arn provided, only table or stream is accepted. Provided resource "
                + "arn: " + arn(table) + "/index/byYear",
                () -> server.client().putResourcePolicy(b -> b.resourceArn(arn(table) + "/index/byYear").policy(p)));
        assertValidation(INVALID + "Provided Arn is not a DynamoDB resource arn: " + arn(table) + "/backup/0170",
                () -> server.client().putResourcePolicy(b -> b.resourceArn(arn(table) + "/backup/0170").policy(p)));
        String otherRegion = "arn:aws:dynamodb:eu-west-1:" + ACCOUNT + ":table/" + table;
        assertValidation(INVALID + "Invalid resource Arn: " + otherRegion,
                () -> server.client().putResourcePolicy(b -> b.resourceArn(otherRegion).policy(p)));
        assertValidation("This action is only supported by accounts that match the resource owner\u2019s account.",
                () -> server.client().putResourcePolicy(b -> b
                        .resourceArn("arn:aws:dynamodb:us-east-1:111122223333:table/" + table).policy(p)));
        assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table + "_ not found",
                () -> server.client().putResourcePolicy(b -> b.resourceArn(arn(table) + "_").policy(p)));
    }

    @Test
    void thePolicySurvivesARestart() {
        String table = newTable();
        String revision = put(table, "dynamodb:GetItem");
        server.restart();
        GetResourcePolicyResponse got = server.client().getResourcePolicy(b -> b.resourceArn(arn(table)));
        assertEquals(revision, got.revisionId());
        assertEquals(canonical(table, "dynamodb:GetItem"), got.policy());
    }
}
