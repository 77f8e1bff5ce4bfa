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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class TagResourceTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    /** A new table's ARN. */
    private static String newTable() {
        return server.client().createTable(Tables.onDemand(StatorTestServer.tableName()).build()).tableDescription().tableArn();
    }

    private static Tag tag(String key, String value) {
        return Tag.builder().key(key).value(value).build();
    }

    private static List<Tag> tags(String prefix, int count) {
        List<Tag> tags = new ArrayList<>();
        for (int i = 0; i < count; i++) tags.add(tag(prefix + i, "value" + i));
        return tags;
    }

    private static void tagResource(String arn, Tag... tags) {
        tagResource(arn, List.of(tags));
    }

    private static void tagResource(String arn, List<Tag> tags) {
        server.client().tagResource(b -> b.resourceArn(arn).tags(tags));
    }

    private static Set<Tag> tagsOf(String arn) {
        return new HashSet<>(server.client().listTagsOfResource(b -> b.resourceArn(arn)).tags());
    }

    @Test
    void tagResourceAddsTagsAndAnswersWithAnEmptyBody() {
        String arn = newTable();
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.tagResource(b -> b.resourceArn(arn).tags(tag("team", "db"), tag("env", "")));
        }
        assertEquals(0, raw.lastBytes().length);
        assertEquals(Set.of(tag("team", "db"), tag("env", "")), tagsOf(arn));
    }

    @Test
    void tagResourceReplacesTheValueOfAnExistingKey() {
        String arn = newTable();
        tagResource(arn, tag("team", "db"), tag("env", "prod"));
        tagResource(arn, tag("team", "storage"));
        assertEquals(Set.of(tag("team", "storage"), tag("env", "prod")), tagsOf(arn));
    }

    @Test
    void tagResourceTagsStaySetAfterRestart() {
        String arn = newTable();
        tagResource(arn, tag("team", "db"));
        server.restart();
        assertEquals(Set.of(tag("team", "db")), tagsOf(arn));
    }

    @Test
    void tagResourceAcceptsFiftyTagsOnATable() {
        String arn = newTable();
        tagResource(arn, tags("a", 30));
        tagResource(arn, tags("b", 20));
        assertEquals(50, tagsOf(arn).size());
        tagResource(arn, tag("a0", "replaced"));
        assertEquals(50, tagsOf(arn).size());
    }

    @Test
    void tagResourceRejectsAFiftyFirstTagAndAddsNone() {
        String arn = newTable();
        tagResource(arn, tags("a", 49));
        assertValidation("Number of Tags exceed the current limit for the provided ResourceArn",
                () -> tagResource(arn, tag("b0", "x"), tag("b1", "y")));
        assertEquals(new HashSet<>(tags("a", 49)), tagsOf(arn));
        assertValidation("Number of Tags exceed the current limit for the provided ResourceArn",
                () -> tagResource(newTable(), tags("c", 51)));
    }

    @Test
    void tagResourceAcceptsKeyOf128AndValueOf256Characters() {
        String arn = newTable();
        tagResource(arn, tag("k".repeat(128), "v".repeat(256)));
        assertEquals(Set.of(tag("k".repeat(128), "v".repeat(256))), tagsOf(arn));
    }

    @Test
    void tagResourceRejectsKeyOf129Characters() {
        String key = "k".repeat(129);
        assertValidation("The Tag Key provided is invalid, Key: " + key, () -> tagResource(newTable(), tag(key, "v")));
    }

    @Test
    void tagResourceRejectsValueOf257Characters() {
        String value = "v".repeat(257);
        assertValidation("The Tag Value provided is invalid, Value: " + value, () -> tagResource(newTable(), tag("k", value)));
    }

    @Test
    void tagResourceRejectsAnEmptyOrMissingKey() {
        String arn = newTable();
        assertValidation("The Tag Key provided is invalid, Key: ", () -> tagResource(arn, tag("", "v")));
        assertValidation("The Tag Key provided is invalid, Key: null", () -> tagResource(arn, Tag.builder().value("v").build()));
        assertValidation("The Tag Key provided is invalid, Key: null", () -> tagResource(arn, Tag.builder().build()));
    }

    @Test
    void tagResourceRejectsAMissingValue() {
        assertValidation("The Tag Value provided is invalid, Value: null",
                () -> tagResource(newTable(), Tag.builder().key("k").build()));
    }

    @Test
    void tagResourceAcceptsLettersDigitsSpacesAndTheAllowedPunctuation() {
        String arn = newTable();
        Tag tag = tag("Schlüssel 1 +-=._:/@", "値 2 +-=._:/@");
        tagResource(arn, tag);
        assertEquals(Set.of(tag), tagsOf(arn));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a#b", "a,b", "100%", "smile\uD83D\uDE00", "semi;colon"})
    void tagResourceRejectsOtherCharacters(String text) {
        String arn = newTable();
        assertValidation("The Tag Key provided is invalid, Key: " + text, () -> tagResource(arn, tag(text, "v")));
        assertValidation("The Tag Value provided is invalid, Value: " + text, () -> tagResource(arn, tag("k", text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"aws:owner", "AWS:owner", "Aws:x"})
    void tagResourceRejectsKeysPrefixedWithAws(String key) {
        assertValidation("Tag Key cannot be prefixed with aws:, Key: " + key, () -> tagResource(newTable(), tag(key, "v")));
    }

    @Test
    void tagResourceRejectsDuplicateKeysAndAddsNone() {
        String arn = newTable();
        assertValidation("Duplicate Tag Keys provided as input: Duplicate Tag Key found k",
                () -> tagResource(arn, tag("ok", "1"), tag("k", "1"), tag("k", "2")));
        assertEquals(Set.of(), tagsOf(arn));
    }

    @Test
    void tagResourceTreatsKeysCaseSensitively() {
        String arn = newTable();
        tagResource(arn, tag("Team", "a"), tag("team", "b"));
        assertEquals(Set.of(tag("Team", "a"), tag("team", "b")), tagsOf(arn));
    }

    @Test
    void tagResourceRequiresAtLeastOneTag() {
        assertValidation("Atleast one Tag needs to be provided as Input.", () -> tagResource(newTable(), List.of()));
    }

    @Test
    void tagResourceRequiresTags() {
        String arn = newTable();
        assertValidation("1 validation error detected: Value null at 'tags' failed to satisfy constraint: Member must "
                + "not be null", () -> server.client().tagResource(b -> b.resourceArn(arn)));
    }

    // ---- the resource ARN -------------------------------------------------------------------

    @Test
    void tagResourceRejectsWhatIsNotAnArn() {
        String arn = newTable();
        String name = arn.substring(arn.indexOf('/') + 1);
        assertValidation("One or more parameter values were invalid: ARNs must start with 'arn:': " + name,
                () -> tagResource(name, tag("k", "v")));
        assertValidation("1 validation error detected: Value '' at 'resourceArn' failed to satisfy constraint: Member "
                + "must have length greater than or equal to 1", () -> tagResource("", tag("k", "v")));
    }

    @Test
    void tagResourceRejectsArnsOfOtherResources() {
        String arn = newTable();
        for (String other : List.of(arn + "/backup/01489173575360-b308cd7d", "arn:aws:s3:::bucket",
                "arn:aws:dynamodb:us-east-1:000000000000:global-table/g")) {
            assertValidation("One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: "
                    + other, () -> tagResource(other, tag("k", "v")));
        }
        assertValidation("One or more parameter values were invalid: Invalid resource arn provided, only table or "
                + "stream is accepted. Provided resource arn: " + arn + "/index/gsi",
                () -> tagResource(arn + "/index/gsi", tag("k", "v")));
    }

    @Test
    void tagResourceAcceptsAnArnOf1283CharactersAndRejectsOneOf1284() {
        String arn = ("arn:aws:dynamodb:us-east-1:000000000000:table/" + "n".repeat(1283)).substring(0, 1283);
        assertError("ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arn + " not found",
                () -> tagResource(arn, tag("k", "v")));
        String tooLong = arn + "n";
        assertValidation("1 validation error detected: Value '" + tooLong + "' at 'resourceArn' failed to satisfy "
                + "constraint: Member must have length less than or equal to 1283", () -> tagResource(tooLong, tag("k", "v")));
    }

    @Test
    void tagResourceRejectsArnOfAnotherRegion() {
        String arn = newTable().replace(":us-east-1:", ":eu-central-1:");
        assertValidation("Invalid TableArn: Invalid ResourceArn provided as input " + arn, () -> tagResource(arn, tag("k", "v")));
    }

    @Test
    void tagResourceRejectsArnOfAnotherAccount() {
        String arn = newTable().replace(":000000000000:", ":123456789012:");
        assertError("AccessDeniedException", "Access is denied", () -> tagResource(arn, tag("k", "v")));
    }

    @Test
    void tagResourceRejectsArnOfAMissingTable() {
        String arn = "arn:aws:dynamodb:us-east-1:000000000000:table/" + StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arn + " not found",
                () -> tagResource(arn, tag("k", "v")));
    }

    @Test
    void tagResourceTagsOnlyTheTableNotItsStream() {
        String arn = server.client().createTable(Tables.onDemand(StatorTestServer.tableName())
                .streamSpecification(s -> s.streamEnabled(true).streamViewType("KEYS_ONLY")).build())
                .tableDescription().latestStreamArn();
        assertError("ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arn + " not found",
                () -> tagResource(arn, tag("k", "v")));
    }

    @Test
    void tagResourceTagsOfADeletedTableDoNotCarryOverToANewOneOfTheSameName() {
        String arn = newTable();
        String name = arn.substring(arn.indexOf('/') + 1);
        tagResource(arn, tag("k", "v"));
        server.client().deleteTable(b -> b.tableName(name));
        assertError("ResourceNotFoundException", "Requested resource not found: ResourceArn: " + arn + " not found",
                () -> tagsOf(arn));
        server.client().createTable(Tables.onDemand(name).build());
        assertEquals(Set.of(), tagsOf(arn));
    }
}
