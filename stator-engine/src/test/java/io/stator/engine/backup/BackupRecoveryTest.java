package io.stator.engine.backup;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup whose copy was cut short (here by a storage fault, then a restart) is copied again at
 * the next start and ends AVAILABLE, holding the table exactly as it was requested though items
 * were changed, deleted and added meanwhile ({@link BeforeImages}); its table cannot be deleted
 * until then; once it is AVAILABLE its before images are gone and writes stage nothing for it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BackupRecoveryTest {

    private static final int ITEMS = 1_200; // three of the copy's commits

    @TempDir
    Path directory;

    @Test
    void aBackupCutShortIsFinishedAtTheNextStartAsItWasRequested() throws Exception {
        Set<Map<String, AttributeValue>> asRequested = new HashSet<>();
        Backup backup;
        try (TestEngine test = TestEngine.open(directory)) {
            TableDefinition table = test.createTable("orders", false, null, null);
            for (int i = 0; i < ITEMS; i++) {
                Map<String, AttributeValue> item = item("pk", key(i), "v", i);
                test.engine().items().write(ItemWrite.put(table, item, null, ReturnValues.NONE, false, false));
                asRequested.add(item);
            }
            test.faults().fail(thread -> thread.getName().equals("stator-backups"), 1); // its second commit fails
            backup = test.engine().backups().create("orders", "cut-short");
            test.engine().backups().awaitIdle();
            test.faults().heal();
            assertEquals(Backup.Status.CREATING, test.engine().backups().describe(backup.arn()).status());
            DynamoDbException refused = assertThrows(DynamoDbException.class, () -> test.engine().tables().delete("orders"));
            assertEquals(ErrorType.RESOURCE_IN_USE, refused.type());

            List<ItemWrite> batch = new ArrayList<>();
            for (int i = 0; i < ITEMS; i += 101) {
                batch.add(ItemWrite.put(table, item("pk", key(i), "v", -i), null, ReturnValues.NONE, false, false));
                if (batch.size() == 10) {
                    test.engine().items().batchWrite(batch);
                    batch.clear();
                }
            }
            test.engine().items().batchWrite(batch);
            for (int i = 7; i < ITEMS; i += 97) {
                test.engine().items().write(ItemWrite.delete(table, item("pk", key(i)), null, ReturnValues.NONE, false));
            }
            test.engine().items().write(ItemWrite.put(table, item("pk", "new", "v", 1), null, ReturnValues.NONE, false,
                    false));
            assertTrue(test.engine().changeLog().wanted(), "the writes keep the backup's before images");
        }

        try (TestEngine test = TestEngine.open(directory)) {
            test.engine().backups().awaitIdle();
            Backup done = test.engine().backups().describe(backup.arn());
            assertEquals(Backup.Status.AVAILABLE, done.status());
            assertEquals(ITEMS, done.itemCount());
            assertEquals(asRequested, itemsOf(test, backup));
            assertFalse(test.engine().changeLog().wanted(), "no backup being created: writes stage nothing for one");
            try (Cursor images = test.storage().range(null, Keyspaces.BACKUPS, new byte[] {'P'}, new byte[] {'Q'}, false)) {
                assertFalse(images.next(), "the before images are dropped once the backup is AVAILABLE");
            }
            test.engine().tables().delete("orders");
        }
    }

    private static Set<Map<String, AttributeValue>> itemsOf(TestEngine test, Backup backup) {
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        try (Snapshot snapshot = test.storage().snapshot();
             Cursor c = new BackupCatalog(test.storage()).items(snapshot, backup.id())) {
            while (c.next()) items.add(ItemCodec.decode(c.value()));
        }
        return items;
    }

    private static String key(int i) {
        return String.format("k%05d", i);
    }
}
