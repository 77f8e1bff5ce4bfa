package io.stator.server.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import org.junit.jupiter.api.Test;

/**
 * PutResourcePolicy's checks of a document and its canonical form, as DynamoDB answers them
 * (ack-api-quirks findings DDB-TABLE-207/208/211/351-356, recorded against DynamoDB in 2026).
 */
class ResourcePolicyDocumentsTest {

    private static final String ACCOUNT = "123456789012";
    private static final String TABLE = "arn:aws:dynamodb:us-east-1:123456789012:table/Music";
    private static final String INVALID = "One or more parameter values were invalid: ";

    private static String refused(String document) {
        return assertThrows(DynamoDbException.class, () -> ResourcePolicyDocuments.check(document, ACCOUNT)).getMessage();
    }

    @Test
    void theCanonicalFormIsMinifiedInIamsOrderWithOneElementListsAsStrings() {
        String pretty = "{\n  \"Statement\": {\n    \"Resource\": [\"" + TABLE + "\"],\n    \"Action\": [\"dynamodb:GetItem\"],\n"
                + "    \"Principal\": {\"AWS\": [\"" + ACCOUNT + "\", \"arn:aws:iam::" + ACCOUNT + ":root\"]},\n"
                + "    \"Effect\": \"allow\", \"Sid\": \"Read\",\n"
                + "    \"Condition\": {\"StringEquals\": {\"aws:PrincipalAccount\": [\"" + ACCOUNT + "\"]}}\n  },\n"
                + "  \"Version\": \"2012-10-17\"\n}";
        assertEquals("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"Read\",\"Effect\":\"Allow\","
                + "\"Principal\":{\"AWS\":\"arn:aws:iam::123456789012:root\"},\"Action\":\"dynamodb:GetItem\","
                + "\"Resource\":\"" + TABLE + "\",\"Condition\":{\"StringEquals\":{\"aws:PrincipalAccount\":"
                + "\"123456789012\"}}}]}", ResourcePolicyDocuments.check(pretty, ACCOUNT).canonical());
    }

    @Test
    void multiElementListsAreKeptAsWrittenAndAMissingVersionReadsAs2008() {
        String doc = "{\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":[\"dynamodb:Query\","
                + "\"dynamodb:GetItem\",\"dynamodb:GetItem\"],\"Resource\":[\"" + TABLE + "/index/*\",\"" + TABLE + "\"]}]}";
        String canonical = ResourcePolicyDocuments.check(doc, ACCOUNT).canonical();
        assertEquals(doc, canonical);
        assertEquals("{\"Version\":\"2008-10-17\"," + doc.substring(1), ResourcePolicyDocuments.asReturned(canonical));
    }

    @Test
    void aDocumentOver20480BytesIsRefusedWhitespaceIncluded() {
        String base = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\","
                + "\"Action\":\"dynamodb:DeleteTable\",\"Resource\":\"" + TABLE + "\"}]}";
        String atLimit = base + " ".repeat(ResourcePolicyDocuments.MAX_BYTES - base.length());
        ResourcePolicyDocuments.check(atLimit, ACCOUNT);
        assertEquals(INVALID + "Maximum policy size of 20480 bytes exceeded", refused(atLimit + " "));
    }

    @Test
    void malformedDocumentsAreRefusedWithIamsReasons() {
        assertEquals(INVALID + "Invalid policy document: This policy contains invalid Json", refused("{not json"));
        assertEquals(INVALID + "Invalid policy document: This policy contains invalid Json", refused(""));
        assertEquals(INVALID + "Invalid policy document: Could not parse the policy: Statement is empty!",
                refused("{\"Version\":\"2012-10-17\",\"Statement\":[]}"));
        assertEquals(INVALID + "Invalid policy document: Missing required field Resource",
                refused("{\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"dynamodb:GetItem\"}]}"));
        assertEquals(INVALID + "Invalid policy document: The Statement Ids in the policy are not unique",
                refused("{\"Statement\":[{\"Sid\":\"A\",\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\"},"
                        + "{\"Sid\":\"A\",\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"*\",\"Resource\":\"*\"}]}"));
        assertEquals(INVALID + "Invalid policy document: Syntax error at position (1,45)",
                refused("{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"" + ACCOUNT
                        + "\",\"Action\":\"dynamodb:GetItem\",\"Resource\":\"*\"}]}"));
        assertEquals(INVALID + "Invalid policy document: The following action names are invalid: "
                + "\"dynamodb:GetRecords\", \"dynamodb:DescribeStream\"",
                refused("{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + ACCOUNT + "\"},"
                        + "\"Action\":[\"dynamodb:GetRecords\",\"dynamodb:DescribeStream\"],\"Resource\":\"*\"}]}"));
    }

    @Test
    void anAllowToEveryoneAndAPrincipalOfNoKnownAccountAreRefused() {
        assertEquals("Resource-based policy grants unbounded access in one or more elements. Please revise the policy "
                + "to ensure least-privilege form of access", refused("{\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":{\"AWS\":\"*\"},\"Action\":\"dynamodb:GetItem\",\"Resource\":\"" + TABLE + "\"}]}"));
        assertEquals(INVALID + "Invalid principal in policy document.", refused("{\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":{\"AWS\":\"arn:aws:iam::999999999999:root\"},\"Action\":\"dynamodb:GetItem\","
                + "\"Resource\":\"" + TABLE + "\"}]}"));
    }
}
