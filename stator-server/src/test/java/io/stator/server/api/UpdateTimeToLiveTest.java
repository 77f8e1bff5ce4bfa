package io.stator.server.api;

import static io.stator.server.testing.ErrorAssertions.assertError;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveSpecification;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

/**
 * UpdateTimeToLive's answers and refusals, with DynamoDB's texts (docs/dynamodb/ttl.md): the
 * settings are checked before the hour between two changes, on the server's (test) clock.
 */
class UpdateTimeToLiveTest {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    private static final String DIFFERENT = "TimeToLive is active on a different AttributeName: current AttributeName is ";
    private static final String ALREADY_ENABLED = "TimeToLive is already enabled";
    private static final String ALREADY_DISABLED = "TimeToLive is already disabled";
    private static final String TOO_OFTEN = "Time to live has been modified multiple times within a fixed interval";

    private String table;

    @BeforeEach
    void createTable() {
        CLOCK.set(Instant.parse("2026-06-01T12:00:00Z"));
        table = StatorTestServer.tableName();
        StatorTestServer.createTable(client(), table);
    }

    @AfterEach
    void followSystemTime() {
        CLOCK.useSystemTime();
    }

    private static DynamoDbClient client() {
        return server.client();
    }

    private UpdateTimeToLiveResponse update(boolean enabled, String attribute) {
        return client().updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(s -> s.enabled(enabled).attributeName(attribute)));
    }

    private TimeToLiveDescription describe() {
        return client().describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
    }

    @Test
    void enablingAnswersWithTheSpecificationItWasSent() {
        UpdateTimeToLiveResponse response = update(true, "expiresAt");
        assertEquals(TimeToLiveSpecification.builder().enabled(true).attributeName("expiresAt").build(),
                response.timeToLiveSpecification());
    }

    @Test
    void disablingAnswersWithTheSpecificationItWasSent() {
        update(true, "expiresAt");
        CLOCK.advance(Duration.ofHours(1));
        UpdateTimeToLiveResponse response = update(false, "expiresAt");
        assertEquals(TimeToLiveSpecification.builder().enabled(false).attributeName("expiresAt").build(),
                response.timeToLiveSpecification());
    }

    @Test
    void enablingTwiceIsRefusedEvenAfterTheHour() {
        update(true, "ttl");
        assertValidation(ALREADY_ENABLED, () -> update(true, "ttl"));
        CLOCK.advance(Duration.ofHours(2));
        assertValidation(ALREADY_ENABLED, () -> update(true, "ttl"));
    }

    @Test
    void disablingATableThatNeverHadTimeToLiveIsRefused() {
        assertValidation(ALREADY_DISABLED, () -> update(false, "ttl"));
    }

    @Test
    void disablingTwiceIsRefused() {
        update(true, "ttl");
        CLOCK.advance(Duration.ofHours(1));
        update(false, "ttl");
        CLOCK.advance(Duration.ofHours(1));
        assertValidation(ALREADY_DISABLED, () -> update(false, "ttl"));
    }

    @Test
    void anotherAttributeIsRefusedWhileTimeToLiveIsActiveToEnableAndToDisable() {
        update(true, "ttl_a");
        CLOCK.advance(Duration.ofHours(1));
        assertValidation(DIFFERENT + "ttl_a", () -> update(true, "ttl_b"));
        assertValidation(DIFFERENT + "ttl_a", () -> update(false, "ttl_b"));
        assertEquals("ttl_a", describe().attributeName());
    }

    @Test
    void theSettingsAreCheckedBeforeTheInterval() {
        update(true, "ttl_a");
        assertValidation(ALREADY_ENABLED, () -> update(true, "ttl_a"));
        assertValidation(DIFFERENT + "ttl_a", () -> update(false, "ttl_b"));
        assertValidation(TOO_OFTEN, () -> update(false, "ttl_a"));
    }

    @Test
    void aSecondChangeWithinTheHourIsRefusedAndOneAfterItIsAccepted() {
        update(true, "ttl");
        CLOCK.advance(Duration.ofMinutes(59).plusSeconds(59));
        assertValidation(TOO_OFTEN, () -> update(false, "ttl"));
        assertEquals(TimeToLiveStatus.ENABLED, awaitSettled());
        CLOCK.advance(Duration.ofSeconds(1));
        update(false, "ttl");
        // Settled first (DISABLING would answer that ttl is still the attribute, checked first).
        assertEquals(TimeToLiveStatus.DISABLED, awaitSettled());
        // The disable starts an hour of its own; the refused attempt did not.
        CLOCK.advance(Duration.ofMinutes(30));
        assertValidation(TOO_OFTEN, () -> update(true, "other"));
        CLOCK.advance(Duration.ofMinutes(30));
        assertEquals(TimeToLiveStatus.DISABLED, awaitSettled());
        update(true, "other");
        assertEquals("other", describe().attributeName());
    }

    @Test
    void aRefusedChangeChangesNothing() {
        update(true, "ttl");
        awaitSettled();
        TimeToLiveDescription before = describe();
        assertValidation(TOO_OFTEN, () -> update(false, "ttl"));
        assertValidation(DIFFERENT + "ttl", () -> update(false, "x"));
        assertEquals(before, describe());
    }

    @Test
    void theAttributeMayBeAKeyAttribute() {
        update(true, "id");
        assertEquals("id", describe().attributeName());
    }

    @Test
    void aMissingTableIsNotFound() {
        assertError("ResourceNotFoundException", "Requested resource not found: Table: no-such-table not found",
                () -> client().updateTimeToLive(b -> b.tableName("no-such-table")
                        .timeToLiveSpecification(s -> s.enabled(true).attributeName("ttl"))));
    }

    @Test
    void theTableMayBeNamedByItsArn() {
        String arn = client().describeTable(b -> b.tableName(table)).table().tableArn();
        client().updateTimeToLive(b -> b.tableName(arn).timeToLiveSpecification(s -> s.enabled(true).attributeName("t")));
        assertEquals("t", describe().attributeName());
    }

    @Test
    void theSpecificationAndItsMembersAreRequired() {
        assertValidation("1 validation error detected: Value null at 'timeToLiveSpecification' failed to satisfy "
                + "constraint: Member must not be null", () -> client().updateTimeToLive(b -> b.tableName(table)));
        assertValidation("1 validation error detected: Value null at 'timeToLiveSpecification.enabled' failed to "
                + "satisfy constraint: Member must not be null", () -> client().updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(s -> s.attributeName("ttl"))));
        assertValidation("1 validation error detected: Value null at 'timeToLiveSpecification.attributeName' failed "
                + "to satisfy constraint: Member must not be null", () -> client().updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(s -> s.enabled(false))));
        assertNull(describe().attributeName(), "nothing changed");
    }

    @Test
    void theAttributeNameHasOneTo255Characters() {
        String longest = "a".repeat(255);
        assertValidation("1 validation error detected: Value '" + longest + "b' at 'timeToLiveSpecification.attributeName' "
                + "failed to satisfy constraint: Member must have length less than or equal to 255",
                () -> update(true, longest + "b"));
        assertValidation("1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' "
                + "failed to satisfy constraint: Member must have length greater than or equal to 1",
                () -> update(true, ""));
        update(true, longest);
        assertEquals(longest, describe().attributeName());
    }

    @Test
    void theConstraintsComeBeforeTheTableLookup() {
        assertValidation("1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' "
                + "failed to satisfy constraint: Member must have length greater than or equal to 1",
                () -> client().updateTimeToLive(b -> b.tableName("no-such-table")
                        .timeToLiveSpecification(s -> s.enabled(true).attributeName(""))));
    }

    @Test
    void aBadTableNameIsRefusedAsDescribeTableRefusesIt() {
        for (String name : new String[] {"", "a".repeat(1025), "bad;name"}) {
            AwsServiceException described = assertThrows(AwsServiceException.class,
                    () -> client().describeTable(b -> b.tableName(name)));
            AwsServiceException updated = assertThrows(AwsServiceException.class,
                    () -> client().updateTimeToLive(b -> b.tableName(name)
                            .timeToLiveSpecification(s -> s.enabled(true).attributeName("ttl"))));
            assertEquals(described.awsErrorDetails().errorCode(), updated.awsErrorDetails().errorCode(), name);
            assertEquals(described.awsErrorDetails().errorMessage(), updated.awsErrorDetails().errorMessage(), name);
        }
    }

    /** Waits for the status to leave ENABLING or DISABLING. */
    private TimeToLiveStatus awaitSettled() {
        return io.stator.server.testing.Eventually.until("Time to Live settled", () -> describe().timeToLiveStatus(),
                s -> s == TimeToLiveStatus.ENABLED || s == TimeToLiveStatus.DISABLED);
    }
}
