package io.stator.engine.write;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.changes.ChangeRecord.EventName;
import io.stator.engine.item.RowKeys;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import io.stator.storage.Counters;
import io.stator.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every item write, whatever its operation, commits through the {@link WritePipeline} and stages
 * exactly one change record per changed item, in the batch that commits the change: nothing
 * committed without its record, no record without its change.
 */
class WritePipelineTest {

    private static final byte[] RECORDS_COUNTER = "test:change-records".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path directory;

    private TestEngine test;
    private Engine engine;
    private TableDefinition table;
    private final List<Staged> staged = new ArrayList<>();

    /** A record as the change log received it, and what a reader saw of its item at that moment. */
    private record Staged(ChangeRecord change, WriteBatch batch, Map<String, AttributeValue> visibleWhenStaged) {}

    @BeforeEach
    void open() {
        test = TestEngine.open(directory);
        engine = test.engine();
        table = test.createTable("orders", true, null, null);
        engine.changeLog().register((batch, change) -> {
            // Staged in the change's own batch: a row added here commits with the change.
            batch.addToCounter(Keyspaces.COUNTERS, RECORDS_COUNTER, 1);
            staged.add(new Staged(change, batch, read(keyOf(change.oldItem() != null ? change.oldItem() : change.newItem()))));
        });
    }

    @AfterEach
    void close() {
        test.close();
    }

    @Test
    void putItemUpdateItemAndDeleteItemEachStageOneRecordOfTheirChange() {
        Map<String, AttributeValue> key = item("pk", "a", "sk", 1);
        engine.items().write(ItemWrite.put(table, item("pk", "a", "sk", 1, "n", 1), null, ReturnValues.NONE, false, false));
        engine.items().write(ItemWrite.update(table, key, null, ReturnValues.NONE, false, increment()));
        engine.items().write(ItemWrite.delete(table, key, null, ReturnValues.NONE, false));

        assertEquals(List.of(EventName.INSERT, EventName.MODIFY, EventName.REMOVE), events());
        assertEquals(item("pk", "a", "sk", 1, "n", 1), staged.get(0).change().newItem());
        assertEquals(item("pk", "a", "sk", 1, "n", 1), staged.get(1).change().oldItem());
        assertEquals(item("pk", "a", "sk", 1, "n", 2), staged.get(1).change().newItem());
        assertEquals(item("pk", "a", "sk", 1, "n", 2), staged.get(2).change().oldItem());
        assertNull(staged.get(2).change().newItem());
        for (Staged s : staged) {
            assertTrue(Arrays.equals(RowKeys.of(table, key), s.change().rowKey()));
            assertEquals(table.id(), s.change().table().id());
            // Staged before its commit: a reader still saw the item as it was.
            assertEquals(s.change().oldItem(), s.visibleWhenStaged());
        }
        assertEquals(3, recordsCommitted());
    }

    @Test
    void aWriteThatChangesNothingOrFailsItsConditionStagesNoRecord() {
        engine.items().write(ItemWrite.delete(table, item("pk", "absent", "sk", 1), null, ReturnValues.NONE, false));
        engine.items().write(ItemWrite.put(table, item("pk", "a", "sk", 1), null, ReturnValues.NONE, false, false));
        staged.clear();
        assertThrows(ConditionalCheckFailedException.class, () -> engine.items().write(ItemWrite.put(table,
                item("pk", "a", "sk", 1, "x", "y"), condition("attribute_not_exists(pk)"), ReturnValues.NONE, false,
                false)));
        assertEquals(List.of(), events());
        assertEquals(item("pk", "a", "sk", 1), read(item("pk", "a", "sk", 1)));
        assertEquals(1, recordsCommitted());
    }

    @Test
    void batchWritesStageOneRecordPerWriteEachInItsOwnCommit() {
        engine.items().batchWrite(List.of(
                ItemWrite.put(table, item("pk", "a", "sk", 1), null, ReturnValues.NONE, false, false),
                ItemWrite.put(table, item("pk", "b", "sk", 1), null, ReturnValues.NONE, false, false),
                ItemWrite.delete(table, item("pk", "c", "sk", 1), null, ReturnValues.NONE, false)));
        assertEquals(List.of(EventName.INSERT, EventName.INSERT), events());
        assertNotSame(staged.get(0).batch(), staged.get(1).batch());
        assertEquals(2, recordsCommitted());
    }

    @Test
    void aTransactionStagesOneRecordPerChangedItemAllInItsOneCommit() {
        engine.items().write(ItemWrite.put(table, item("pk", "u", "sk", 1, "n", 1), null, ReturnValues.NONE, false, false));
        engine.items().write(ItemWrite.put(table, item("pk", "d", "sk", 1), null, ReturnValues.NONE, false, false));
        engine.items().write(ItemWrite.put(table, item("pk", "c", "sk", 1), null, ReturnValues.NONE, false, false));
        staged.clear();

        engine.items().transactWrite(List.of(
                ItemWrite.put(table, item("pk", "p", "sk", 1), null, ReturnValues.NONE, false, true),
                ItemWrite.update(table, item("pk", "u", "sk", 1), null, ReturnValues.NONE, false, increment()),
                ItemWrite.delete(table, item("pk", "d", "sk", 1), null, ReturnValues.NONE, false),
                ItemWrite.conditionCheck(table, item("pk", "c", "sk", 1), condition("attribute_exists(pk)"), false)),
                null);

        // The ConditionCheck changes nothing and leaves no record.
        assertEquals(List.of(EventName.INSERT, EventName.MODIFY, EventName.REMOVE), events());
        for (Staged s : staged) {
            assertSame(staged.get(0).batch(), s.batch(), "one batch commits the whole transaction");
            assertEquals(s.change().oldItem(), s.visibleWhenStaged());
        }
        assertEquals(6, recordsCommitted());
    }

    @Test
    void aCancelledTransactionCommitsNothingAndNoRecord() {
        engine.items().write(ItemWrite.put(table, item("pk", "c", "sk", 1), null, ReturnValues.NONE, false, false));
        assertThrows(TransactionCanceledException.class, () -> engine.items().transactWrite(List.of(
                ItemWrite.put(table, item("pk", "p", "sk", 1), null, ReturnValues.NONE, false, true),
                ItemWrite.conditionCheck(table, item("pk", "c", "sk", 1), condition("attribute_not_exists(pk)"), false)),
                null));
        assertNull(read(item("pk", "p", "sk", 1)));
        assertEquals(1, recordsCommitted());
    }

    @Test
    void aChangeWhoseRecordCannotBeStagedIsNotCommitted() {
        engine.changeLog().register((batch, change) -> {
            throw new IllegalStateException("the change log refused the record");
        });
        assertThrows(IllegalStateException.class, () -> engine.items().write(
                ItemWrite.put(table, item("pk", "a", "sk", 1), null, ReturnValues.NONE, false, false)));
        assertNull(read(item("pk", "a", "sk", 1)));
        assertEquals(0, recordsCommitted());
    }

    @Test
    void aWriteReturnsWhatItsReturnValuesAskFor() {
        Map<String, AttributeValue> key = item("pk", "a", "sk", 1);
        engine.items().write(ItemWrite.put(table, item("pk", "a", "sk", 1, "n", 1, "m", "x"), null, ReturnValues.NONE,
                false, false));
        WriteResult updated = engine.items().write(ItemWrite.update(table, key, null, ReturnValues.UPDATED_OLD, false,
                increment()));
        assertEquals(item("n", 1), updated.returnedAttributes());
        WriteResult deleted = engine.items().write(ItemWrite.delete(table, key, null, ReturnValues.ALL_OLD, false));
        assertEquals(item("pk", "a", "sk", 1, "n", 2, "m", "x"), deleted.returnedAttributes());
    }

    private ItemUpdate increment() {
        ExpressionContext expressions = new ExpressionContext(null, item(":one", 1));
        return new ItemUpdate.Expression(expressions.update("SET n = n + :one"));
    }

    private static Condition condition(String text) {
        return new ExpressionContext(null, null).condition(ExpressionKind.CONDITION, text);
    }

    private Map<String, AttributeValue> read(Map<String, AttributeValue> key) {
        return engine.items().get(table, key, true, null).item();
    }

    private Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        return RowKeys.keyOf(table.keySchema(), item);
    }

    private List<EventName> events() {
        return staged.stream().map(s -> s.change().eventName()).toList();
    }

    private long recordsCommitted() {
        return Counters.decode(test.storage().get(Keyspaces.COUNTERS, RECORDS_COUNTER));
    }
}
