package io.stator.engine.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.table.TableArns;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** What the legacy (2017.11.29) global tables' operations answer, and the ARNs they are authorized on. */
class LegacyGlobalTablesTest {

    private final LegacyGlobalTables legacy = new LegacyGlobalTables(new TableArns("us-east-1", "123456789012"));

    private static void assertRefused(ErrorType type, String message, Executable call) {
        DynamoDbException e = assertThrows(DynamoDbException.class, call);
        assertEquals(type, e.type());
        assertEquals(message, e.getMessage());
    }

    @Test
    void aGlobalTableArnHasNoRegionAndAReplicaIsTheTableOfItsRegion() {
        assertEquals("arn:aws:dynamodb::123456789012:global-table/Music", legacy.globalTableArn("Music"));
        assertEquals("arn:aws:dynamodb:us-east-1:123456789012:table/Music", legacy.replicaTableArn("us-east-1", "Music"));
        assertEquals("arn:aws:dynamodb:eu-west-1:123456789012:table/Music", legacy.replicaTableArn("eu-west-1", "Music"));
    }

    @Test
    void creatingOrAddingAReplicaIsUnsupported() {
        String unsupported = "One or more parameter values were invalid: " + LegacyGlobalTables.NOT_SUPPORTED;
        assertRefused(ErrorType.VALIDATION, unsupported, () -> legacy.create("Music", List.of("us-east-1")));
        assertRefused(ErrorType.VALIDATION, "One or more parameter values were invalid: Global table must have atleast"
                + " one replica", () -> legacy.create("Music", List.of()));
        assertRefused(ErrorType.VALIDATION, unsupported, () -> legacy.update("Music",
                List.of(new LegacyGlobalTables.ReplicaUpdate(null, "us-west-2"), new LegacyGlobalTables.ReplicaUpdate("us-east-2", null))));
        assertRefused(ErrorType.VALIDATION, "One or more parameter values were invalid",
                () -> legacy.update("Music", List.of()));
        assertRefused(ErrorType.VALIDATION, "One or more parameter values were invalid",
                () -> legacy.update("Music", List.of(new LegacyGlobalTables.ReplicaUpdate(null, null))));
    }

    @Test
    void noGlobalTableIsFoundAndNoneListed() {
        String notFound = "Global table not found: Global table with name: 'Music' does not exist.";
        assertRefused(ErrorType.GLOBAL_TABLE_NOT_FOUND, notFound, () -> legacy.describe("Music"));
        assertRefused(ErrorType.GLOBAL_TABLE_NOT_FOUND, notFound,
                () -> legacy.update("Music", List.of(new LegacyGlobalTables.ReplicaUpdate(null, "us-west-2"))));
        String settings = "Global table with name: 'Music' does not exist.";
        assertRefused(ErrorType.GLOBAL_TABLE_NOT_FOUND, settings, () -> legacy.describeSettings("Music"));
        assertRefused(ErrorType.GLOBAL_TABLE_NOT_FOUND, settings, () -> legacy.updateSettings("Music"));
        assertEquals(List.of(), legacy.list(null));
        assertEquals(List.of(), legacy.list("us-west-2"));
    }
}
