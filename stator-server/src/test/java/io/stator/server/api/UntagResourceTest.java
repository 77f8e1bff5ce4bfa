package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class UntagResourceTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static Tag tag(String key, String value) {
        return Tag.builder().key(key).value(value).build();
    }

    /** A new table's ARN, the table tagged with the tags given. */
    private static String newTable(Tag... tags) {
        return server.client().createTable(Tables.onDemand(StatorTestServer.tableName()).tags(tags).build())
                .tableDescription().tableArn();
    }

    private static void untag(String arn, String... keys) {
        untag(arn, List.of(keys));
    }

    private static void untag(String arn, List<String> keys) {
        server.client().untagResource(b -> b.resourceArn(arn).tagKeys(keys));
    }

    private static Set<Tag> tagsOf(String arn) {
        return new HashSet<>(server.client().listTagsOfResource(b -> b.resourceArn(arn)).tags());
    }

    @Test
    void untagResourceRemovesTagsAndAnswersWithAnEmptyBody() {
        String arn = newTable(tag("team", "db"), tag("env", "prod"), tag("cost", "1"));
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.untagResource(b -> b.resourceArn(arn).tagKeys("team", "cost"));
        }
        assertEquals(0, raw.lastBytes().length);
        assertEquals(Set.of(tag("env", "prod")), tagsOf(arn));
        server.restart();
        assertEquals(Set.of(tag("env", "prod")), tagsOf(arn));
    }

    @Test
    void untagResourceIgnoresKeysNotSet() {
        String arn = newTable(tag("team", "db"));
        untag(arn, "absent", "TEAM");
        assertEquals(Set.of(tag("team", "db")), tagsOf(arn));
    }

    @Test
    void untagResourceRequiresAtLeastOneKey() {
        assertValidation("Atleast one Tag Key needs to be provided as Input.", () -> untag(newTable(), List.of()));
    }

    @Test
    void untagResourceRequiresTagKeys() {
        String arn = newTable();
        assertValidation("1 validation error detected: Value null at 'tagKeys' failed to satisfy constraint: Member "
                + "must not be null", () -> server.client().untagResource(b -> b.resourceArn(arn)));
    }

    @Test
    void untagResourceAcceptsKeyOf128Characters() {
        String key = "k".repeat(128);
        String arn = newTable(tag(key, "v"), tag("other", "v"));
        untag(arn, key);
        assertEquals(Set.of(tag("other", "v")), tagsOf(arn));
    }

    @Test
    void untagResourceRejectsKeysOf129CharactersOrNone() {
        String arn = newTable();
        String key = "k".repeat(129);
        assertValidation("The Tag Key provided is invalid, Key: " + key, () -> untag(arn, key));
        assertValidation("The Tag Key provided is invalid, Key: ", () -> untag(arn, ""));
    }

    @Test
    void untagResourceRejectsKeysPrefixedWithAws() {
        assertValidation("Tag Key cannot be prefixed with aws:, Key: aws:cloudformation:stack-name",
                () -> untag(newTable(), "aws:cloudformation:stack-name"));
    }

    @Test
    void untagResourceRejectsDuplicateKeysAndRemovesNone() {
        String arn = newTable(tag("a", "1"), tag("b", "2"));
        assertValidation("Duplicate Tag Keys provided as input: Duplicate Tag Key found b", () -> untag(arn, "a", "b", "b"));
        assertEquals(Set.of(tag("a", "1"), tag("b", "2")), tagsOf(arn));
    }

    @Test
    void untagResourceAcceptsFiftyKeysAndRejectsFiftyOne() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 51; i++) keys.add("key" + i);
        String arn = newTable(tag("key0", "v"), tag("keep", "v"));
        assertValidation("Number of Tags exceed the current limit for the provided ResourceArn", () -> untag(arn, keys));
        assertEquals(Set.of(tag("key0", "v"), tag("keep", "v")), tagsOf(arn));
        untag(arn, keys.subList(0, 50));
        assertEquals(Set.of(tag("keep", "v")), tagsOf(arn));
    }

    @Test
    void untagResourceChecksTheResourceArnAsTagResourceDoes() {
        String arn = newTable(tag("k", "v"));
        String missing = "arn:aws:dynamodb:us-east-1:000000000000:table/" + StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: ResourceArn: " + missing + " not found",
                () -> untag(missing, "k"));
        assertValidation("One or more parameter values were invalid: ARNs must start with 'arn:': table", () -> untag("table", "k"));
        assertError("AccessDeniedException", "Access is denied", () -> untag(arn.replace(":000000000000:", ":210987654321:"), "k"));
        String otherRegion = arn.replace(":us-east-1:", ":ap-south-1:");
        assertValidation("Invalid TableArn: Invalid ResourceArn provided as input " + otherRegion, () -> untag(otherRegion, "k"));
        assertEquals(Set.of(tag("k", "v")), tagsOf(arn));
    }
}
