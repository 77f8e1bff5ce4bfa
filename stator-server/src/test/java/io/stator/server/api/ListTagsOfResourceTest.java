package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.server.testing.RawResponses;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ListTagsOfResourceResponse;
import software.amazon.awssdk.services.dynamodb.model.Tag;

class ListTagsOfResourceTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static String newTable(List<Tag> tags) {
        return server.client().createTable(Tables.onDemand(StatorTestServer.tableName()).tags(tags).build())
                .tableDescription().tableArn();
    }

    @Test
    void listTagsOfResourceGivesAnEmptyListForAnUntaggedTable() {
        String arn = newTable(List.of());
        RawResponses raw = new RawResponses();
        try (DynamoDbClient recorded = server.newClient(raw)) {
            recorded.listTagsOfResource(b -> b.resourceArn(arn));
        }
        assertEquals("{\"Tags\":[]}", new String(raw.lastBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void listTagsOfResourceGivesAllFiftyTagsInOnePage() {
        List<Tag> tags = new ArrayList<>();
        for (int i = 0; i < 50; i++) tags.add(Tag.builder().key("key" + i).value("value" + i).build());
        String arn = newTable(tags);
        ListTagsOfResourceResponse page = server.client().listTagsOfResource(b -> b.resourceArn(arn));
        assertEquals(new HashSet<>(tags), new HashSet<>(page.tags()));
        assertEquals(50, page.tags().size());
        assertNull(page.nextToken());
    }

    @Test
    void listTagsOfResourceShowsAnEmptyValue() {
        Tag empty = Tag.builder().key("flag").value("").build();
        String arn = newTable(List.of(empty));
        assertEquals(List.of(empty), server.client().listTagsOfResource(b -> b.resourceArn(arn)).tags());
    }

    @Test
    void listTagsOfResourceRejectsATableName() {
        String arn = newTable(List.of());
        String name = arn.substring(arn.indexOf('/') + 1);
        assertValidation("One or more parameter values were invalid: ARNs must start with 'arn:': " + name,
                () -> server.client().listTagsOfResource(b -> b.resourceArn(name)));
    }

    @Test
    void listTagsOfResourceRejectsArnsItCannotAnswerFor() {
        String arn = newTable(List.of());
        String missing = "arn:aws:dynamodb:us-east-1:000000000000:table/" + StatorTestServer.tableName();
        assertError("ResourceNotFoundException", "Requested resource not found: ResourceArn: " + missing + " not found",
                () -> server.client().listTagsOfResource(b -> b.resourceArn(missing)));
        String otherRegion = arn.replace(":us-east-1:", ":us-east-2:");
        assertValidation("Invalid TableArn: Invalid ResourceArn provided as input " + otherRegion,
                () -> server.client().listTagsOfResource(b -> b.resourceArn(otherRegion)));
        assertError("AccessDeniedException", "Access is denied",
                () -> server.client().listTagsOfResource(b -> b.resourceArn(arn.replace(":000000000000:", ":999999999999:"))));
        assertValidation("One or more parameter values were invalid: Invalid resource arn provided, only table or stream "
                + "is accepted. Provided resource arn: " + arn + "/index/i1",
                () -> server.client().listTagsOfResource(b -> b.resourceArn(arn + "/index/i1")));
        String backup = arn + "/backup/01489173575360-b308cd7d";
        assertValidation("One or more parameter values were invalid: Provided Arn is not a DynamoDB resource arn: " + backup,
                () -> server.client().listTagsOfResource(b -> b.resourceArn(backup)));
    }

    @Test
    void listTagsOfResourceRequiresResourceArn() {
        assertValidation("1 validation error detected: Value null at 'resourceArn' failed to satisfy constraint: Member "
                + "must not be null", () -> server.client().listTagsOfResource(b -> { }));
    }
}
