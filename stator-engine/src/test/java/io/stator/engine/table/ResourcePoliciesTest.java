package io.stator.engine.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.key.PartitionHash;
import io.stator.core.error.ErrorType;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's resource-based policy in the engine: RevisionIds (later with every change, even on a
 * clock that stands still), ExpectedRevisionId, the policy's place in the catalog (version 3 of
 * the stored form, version 2 still read), and its end with the table.
 */
class ResourcePoliciesTest {

    @TempDir
    Path directory;

    private TestEngine test;
    private ResourcePolicies policies;
    private String arn;

    @BeforeEach
    void open() {
        test = TestEngine.open(directory);
        test.createTable("music", true, List.of(TestEngine.globalIndex("byGroup")), List.of(TestEngine.localIndex("byLocal")));
        policies = test.engine().tables().resourcePolicies();
        arn = test.engine().catalog().arns().tableArn("music");
    }

    @AfterEach
    void close() {
        test.close();
    }

    @Test
    void everyChangeGetsALaterRevisionAndTheSameDocumentNone() {
        ResourcePolicy first = policies.put(arn, "{\"a\":1}", null);
        assertEquals(first, policies.put(arn, "{\"a\":1}", null));
        ResourcePolicy second = policies.put(arn, "{\"a\":2}", first.revisionId());
        assertTrue(Long.parseLong(second.revisionId()) > Long.parseLong(first.revisionId()));
        assertEquals(second, policies.get(arn));
        assertEquals(second.revisionId(), policies.delete(arn, null));
        assertNull(policies.delete(arn, null));
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> policies.get(arn));
        assertEquals(ErrorType.POLICY_NOT_FOUND, e.type());
    }

    @Test
    void aStaleExpectedRevisionIdChangesNothing() {
        ResourcePolicy first = policies.put(arn, "{\"a\":1}", ResourcePolicies.NO_POLICY);
        ResourcePolicy second = policies.put(arn, "{\"a\":2}", null);
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> policies.put(arn, "{\"a\":3}", first.revisionId()));
        assertEquals(ErrorType.POLICY_NOT_FOUND, e.type());
        assertThrows(DynamoDbException.class, () -> policies.delete(arn, first.revisionId()));
        assertEquals(second, policies.get(arn));
    }

    @Test
    void thePolicyIsStoredWithTheTableAndGoesWithIt() {
        ResourcePolicy put = policies.put(arn, "{\"Statement\":[\"\u00e9\"]}", null);
        TableDefinition stored = test.engine().catalog().find("music");
        assertEquals(put, TableCodec.decode(TableCodec.encode(stored)).resourcePolicy());
        test.engine().tables().delete("music");
        test.createTable("music", true, List.of(TestEngine.globalIndex("byGroup")), List.of(TestEngine.localIndex("byLocal")));
        assertThrows(DynamoDbException.class, () -> policies.get(arn));
    }

    @Test
    void aVersion2EntryIsReadWithoutAPolicy() {
        TableDefinition table = test.engine().catalog().find("music");
        byte[] encoded = TableCodec.encode(table);
        // Without version 10's partition hash (an older entry has key layout 1), version 11's transition
        // and version 12's Kinesis destinations (a count of 4 bytes).
        byte[] latest = Arrays.copyOf(encoded, encoded.length - 2 - PartitionHash.DYNAMODB.name().length() - 1 - 4);
        assertEquals(0, latest[latest.length - 2], "a table without a policy ends with its absence,");
        assertEquals(0, latest[latest.length - 1], "then that of Time to Live");
        byte[] v2 = Arrays.copyOf(latest, latest.length - 2);
        v2[0] = 2;
        TableDefinition.Builder layoutOne = table.toBuilder();
        layoutOne.partitionHash = PartitionHash.XXH64;
        assertEquals(layoutOne.build(), TableCodec.decode(v2));
    }
}
