package io.stator.server.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.access.Evaluation.Decision;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * IAM's policy language as the IAM User Guide states it: grammar, wildcards, the condition
 * operators and set qualifiers, policy variables, and the evaluation of identity-based and
 * resource-based policies within one account.
 */
class PolicyEvaluationTest {

    private static final String ACCOUNT = "123456789012";
    private static final String TABLE = "arn:aws:dynamodb:us-east-1:123456789012:table/Music";
    private static final Principal ALICE = Principal.user(ACCOUNT, "alice", "AKIDALICE");
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

    private static Policy identity(String statements) throws PolicyException {
        return Policy.parse("{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}", Policy.Kind.IDENTITY);
    }

    private static Policy resource(String statements) throws PolicyException {
        return Policy.parse("{\"Version\":\"2012-10-17\",\"Statement\":[" + statements + "]}", Policy.Kind.RESOURCE);
    }

    private static AccessRequest request(String action, String resource, Map<String, List<String>> keys) {
        return new AccessRequest(action, resource, keys);
    }

    private static Decision decide(List<Policy> identity, Policy resource, AccessRequest request) {
        return Evaluation.decide(ALICE, request, identity, resource, NOW);
    }

    private static Decision decide(Policy identity, AccessRequest request) {
        return decide(List.of(identity), null, request);
    }

    @Test
    void actionsMatchWithWildcardsWithoutRegardToCase() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:Get*\",\"Resource\":\"*\"}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:GetItem", TABLE, Map.of())));
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:getitem", TABLE, Map.of())));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:PutItem", TABLE, Map.of())));
        Policy q = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:?etItem\",\"Resource\":\"*\"}");
        assertEquals(Decision.ALLOW, decide(q, request("dynamodb:GetItem", TABLE, Map.of())));
    }

    @Test
    void resourcesMatchPartByPartAndAWildcardInTheResourceSpansSlashes() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:Query\","
                + "\"Resource\":\"arn:aws:dynamodb:*:123456789012:table/Music/index/*\"}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:Query", TABLE + "/index/ByYear", Map.of())));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:Query", TABLE, Map.of())));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:Query",
                "arn:aws:dynamodb:us-east-1:999999999999:table/Music/index/ByYear", Map.of())));
        Policy table = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"" + TABLE + "*\"}");
        assertEquals(Decision.ALLOW, decide(table, request("dynamodb:Query", TABLE + "/index/ByYear", Map.of())));
        assertEquals(Decision.ALLOW, decide(table, request("dynamodb:Query", TABLE + "Archive", Map.of())));
    }

    @Test
    void notActionAndNotResourceMatchWhatTheyDoNotList() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"NotAction\":\"dynamodb:Delete*\",\"NotResource\":\"" + TABLE + "\"}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:GetItem", TABLE + "2", Map.of())));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:DeleteItem", TABLE + "2", Map.of())));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:GetItem", TABLE, Map.of())));
    }

    @Test
    void anExplicitDenyWinsOverAnyAllowAndNothingAllowedIsDenied() throws Exception {
        Policy allowAll = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\"}");
        Policy denyDelete = identity("{\"Effect\":\"Deny\",\"Action\":\"dynamodb:DeleteItem\",\"Resource\":\"*\"}");
        AccessRequest delete = request("dynamodb:DeleteItem", TABLE, Map.of());
        assertEquals(Decision.IDENTITY_DENY, decide(List.of(allowAll, denyDelete), null, delete));
        assertEquals(Decision.IMPLICIT_DENY, decide(List.of(), null, delete));
        Policy resourceDeny = resource("{\"Effect\":\"Deny\",\"Principal\":{\"AWS\":\"" + ALICE.arn() + "\"},"
                + "\"Action\":\"dynamodb:DeleteItem\",\"Resource\":\"" + TABLE + "\"}");
        assertEquals(Decision.RESOURCE_DENY, decide(List.of(allowAll), resourceDeny, delete));
    }

    @Test
    void aResourcePolicyAllowsAUserItNamesWithoutAnIdentityPolicy() throws Exception {
        AccessRequest get = request("dynamodb:GetItem", TABLE, Map.of());
        Policy namesAlice = resource("{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":[\"" + ALICE.arn() + "\"]},"
                + "\"Action\":\"dynamodb:GetItem\",\"Resource\":\"" + TABLE + "\"}");
        assertEquals(Decision.ALLOW, decide(List.of(), namesAlice, get));
        Policy namesBob = resource("{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::123456789012:user/bob\"},"
                + "\"Action\":\"dynamodb:GetItem\",\"Resource\":\"" + TABLE + "\"}");
        assertEquals(Decision.IMPLICIT_DENY, decide(List.of(), namesBob, get));
    }

    @Test
    void theAccountAsPrincipalDelegatesAnAllowButItsDenyAppliesToEveryone() throws Exception {
        AccessRequest get = request("dynamodb:GetItem", TABLE, Map.of());
        Policy allowAccount = resource("{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + ACCOUNT + "\"},"
                + "\"Action\":\"dynamodb:GetItem\",\"Resource\":\"" + TABLE + "\"}");
        assertEquals(Decision.IMPLICIT_DENY, decide(List.of(), allowAccount, get));
        Policy denyAccount = resource("{\"Effect\":\"Deny\",\"Principal\":{\"AWS\":\"arn:aws:iam::" + ACCOUNT + ":root\"},"
                + "\"Action\":\"dynamodb:GetItem\",\"Resource\":\"" + TABLE + "\"}");
        Policy allowAll = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\"}");
        assertEquals(Decision.RESOURCE_DENY, decide(List.of(allowAll), denyAccount, get));
    }

    @Test
    void forAllValuesHoldsWhenEveryValueMatchesAndForAnEmptyOrAbsentKey() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\",\"Condition\":"
                + "{\"ForAllValues:StringEquals\":{\"dynamodb:LeadingKeys\":[\"alice\",\"shared\"]}}}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:Query", TABLE,
                Map.of("dynamodb:leadingkeys", List.of("alice", "shared")))));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:Query", TABLE,
                Map.of("dynamodb:leadingkeys", List.of("alice", "bob")))));
        // IAM's documented pitfall, why DynamoDB's guide leaves Scan out of such policies.
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:Scan", TABLE, Map.of())));
    }

    @Test
    void forAnyValueHoldsWhenOneValueMatchesAndNotForAnAbsentKey() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\",\"Condition\":"
                + "{\"ForAnyValue:StringEquals\":{\"dynamodb:EnclosingOperation\":[\"TransactWriteItems\"]}}}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:PutItem", TABLE,
                Map.of("dynamodb:enclosingoperation", List.of("TransactWriteItems")))));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:PutItem", TABLE, Map.of())));
    }

    @Test
    void anAbsentKeyFailsPositiveOperatorsAndSatisfiesNegatedOnesAndIfExists() throws Exception {
        Policy equals = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\","
                + "\"Condition\":{\"StringEquals\":{\"dynamodb:Select\":\"SPECIFIC_ATTRIBUTES\"}}}");
        Policy notEquals = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\","
                + "\"Condition\":{\"StringNotEquals\":{\"dynamodb:Select\":\"ALL_ATTRIBUTES\"}}}");
        Policy ifExists = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\","
                + "\"Condition\":{\"StringEqualsIfExists\":{\"dynamodb:Select\":\"SPECIFIC_ATTRIBUTES\"}}}");
        AccessRequest none = request("dynamodb:PutItem", TABLE, Map.of());
        AccessRequest all = request("dynamodb:Scan", TABLE, Map.of("dynamodb:select", List.of("ALL_ATTRIBUTES")));
        assertEquals(Decision.IMPLICIT_DENY, decide(equals, none));
        assertEquals(Decision.ALLOW, decide(notEquals, none));
        assertEquals(Decision.IMPLICIT_DENY, decide(notEquals, all));
        assertEquals(Decision.ALLOW, decide(ifExists, none));
        assertEquals(Decision.IMPLICIT_DENY, decide(ifExists, all));
    }

    @Test
    void nullTestsWhetherTheKeyIsAbsent() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\","
                + "\"Condition\":{\"Null\":{\"dynamodb:EnclosingOperation\":\"true\"}}}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:PutItem", TABLE, Map.of())));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:PutItem", TABLE,
                Map.of("dynamodb:enclosingoperation", List.of("TransactWriteItems")))));
    }

    @Test
    void everyConditionMustHoldAndAnyValueOfOneMay() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\",\"Condition\":{"
                + "\"StringLike\":{\"dynamodb:Select\":[\"SPECIFIC_*\",\"COUNT\"]},"
                + "\"StringEquals\":{\"dynamodb:ReturnConsumedCapacity\":\"NONE\"}}}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:Query", TABLE, Map.of("dynamodb:select",
                List.of("COUNT"), "dynamodb:returnconsumedcapacity", List.of("NONE")))));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:Query", TABLE, Map.of("dynamodb:select",
                List.of("COUNT"), "dynamodb:returnconsumedcapacity", List.of("TOTAL")))));
    }

    @Test
    void numericDateAndBoolOperatorsCompareTheirKindOfValue() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\",\"Condition\":{"
                + "\"NumericLessThan\":{\"aws:EpochTime\":\"1767323046\"},"
                + "\"DateGreaterThan\":{\"aws:CurrentTime\":\"2026-01-01T00:00:00Z\"}}}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:GetItem", TABLE, Map.of())));
        Policy q = identity("{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\",\"Condition\":{"
                + "\"NumericGreaterThanEquals\":{\"aws:EpochTime\":1767323046}}}");
        assertEquals(Decision.IMPLICIT_DENY, decide(q, request("dynamodb:GetItem", TABLE, Map.of())));
    }

    @Test
    void policyVariablesAreSubstitutedInVersion2012Documents() throws Exception {
        Policy p = identity("{\"Effect\":\"Allow\",\"Action\":\"dynamodb:*\",\"Resource\":\"*\",\"Condition\":"
                + "{\"ForAllValues:StringEquals\":{\"dynamodb:LeadingKeys\":[\"${aws:username}\"]}}}");
        assertEquals(Decision.ALLOW, decide(p, request("dynamodb:GetItem", TABLE,
                Map.of("dynamodb:leadingkeys", List.of("alice")))));
        assertEquals(Decision.IMPLICIT_DENY, decide(p, request("dynamodb:GetItem", TABLE,
                Map.of("dynamodb:leadingkeys", List.of("bob")))));
        Policy old = Policy.parse("{\"Version\":\"2008-10-17\",\"Statement\":{\"Effect\":\"Allow\",\"Action\":\"*\","
                + "\"Resource\":\"arn:aws:dynamodb:*:*:table/${aws:username}\"}}", Policy.Kind.IDENTITY);
        assertEquals(Decision.IMPLICIT_DENY, decide(old, request("dynamodb:GetItem",
                "arn:aws:dynamodb:us-east-1:123456789012:table/alice", Map.of())));
        assertEquals("t/alice/x", Evaluation.substitute("t/${aws:username}/${missing, 'x'}",
                new Evaluation.Keys(ALICE, request("a", "*", Map.of()), NOW)));
    }

    @Test
    void theDeniedCallerIsToldAsAwsTellsIt() {
        AccessRequest put = request("dynamodb:PutItem", TABLE, Map.of());
        assertEquals("User: arn:aws:iam::123456789012:user/alice is not authorized to perform: dynamodb:PutItem on "
                + "resource: " + TABLE + " because no identity-based policy allows the dynamodb:PutItem action",
                AccessControl.accessDenied(ALICE, put, Decision.IMPLICIT_DENY).getMessage());
        assertEquals("User: arn:aws:iam::123456789012:user/alice is not authorized to perform: dynamodb:PutItem on "
                + "resource: " + TABLE + " with an explicit deny in an identity-based policy",
                AccessControl.accessDenied(ALICE, put, Decision.IDENTITY_DENY).getMessage());
        assertEquals("User: arn:aws:iam::123456789012:user/alice is not authorized to perform: dynamodb:PutItem on "
                + "resource: " + TABLE + " with an explicit deny in a resource-based policy",
                AccessControl.accessDenied(ALICE, put, Decision.RESOURCE_DENY).getMessage());
    }

    @Test
    void aMalformedPolicySaysWhereAndWhy() {
        PolicyException missing = assertThrows(PolicyException.class, () -> Policy.parse(
                "{\"Statement\": [\n  {\"Action\": \"dynamodb:*\", \"Resource\": \"*\"}]}", Policy.Kind.IDENTITY));
        assertEquals("line 2, column 3: Missing required field Effect", missing.detail());
        PolicyException operator = assertThrows(PolicyException.class, () -> identity(
                "{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\",\"Condition\":{\"StringEqualz\":{\"a:b\":\"c\"}}}"));
        assertTrue(operator.reason().contains("StringEqualz"), operator.reason());
        PolicyException principal = assertThrows(PolicyException.class, () -> identity(
                "{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\"}"));
        assertEquals("Has prohibited field Principal", principal.reason());
        PolicyException sids = assertThrows(PolicyException.class, () -> identity(
                "{\"Sid\":\"A\",\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"},"
                        + "{\"Sid\":\"A\",\"Effect\":\"Deny\",\"Action\":\"*\",\"Resource\":\"*\"}"));
        assertEquals("The Statement Ids in the policy are not unique", sids.reason());
        PolicyException json = assertThrows(PolicyException.class, () -> Policy.parse("{\"Statement\": [", Policy.Kind.IDENTITY));
        assertEquals(PolicyException.Kind.INVALID_JSON, json.kind());
        PolicyException noResource = assertThrows(PolicyException.class, () -> resource(
                "{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + ACCOUNT + "\"},\"Action\":\"*\"}"));
        assertEquals("Missing required field Resource", noResource.reason());
        assertFalse(Wildcards.matches("a*b", "ac", false));
        assertTrue(Wildcards.matches("a*b*", "axxbyy", false));
    }

    @Test
    void theIdentityPoliciesFileNamesEachKeysUserAndPolicies() {
        IdentityPolicies file = IdentityPolicies.parse("{\"AKID1\": {\"Statement\": {\"Effect\": \"Allow\", "
                + "\"Action\": \"*\", \"Resource\": \"*\"}}, \"AKID2\": {\"UserName\": \"bob\", \"Policies\": []}}", "p.json");
        assertEquals("AKID1", file.identity("AKID1").userName());
        assertEquals(1, file.identity("AKID1").policies().size());
        assertEquals("bob", file.identity("AKID2").userName());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IdentityPolicies.parse(
                "{\"AKID1\": {\"Statement\": {\"Effect\": \"Permit\", \"Action\": \"*\", \"Resource\": \"*\"}}}", "p.json"));
        assertEquals("p.json, line 1, column 36: access key 'AKID1': Effect must be Allow or Deny", e.getMessage());
    }
}
