package io.stator.engine.write;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TransactWriteItems' ClientRequestToken while the first request with it is still running. */
class TransactionsTest {

    @Test
    void everyRetryWhileTheFirstRunsIsRefusedNotOnlyTheFirstRetry(@TempDir Path directory) throws Exception {
        try (TestEngine test = TestEngine.open(directory)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("t", false, null, null);
            Transactions.ClientToken token = new Transactions.ClientToken("token", new byte[] {1});
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Map<String, AttributeValue> held = item("pk", "held");
            ItemWrite holding = new ItemWrite(table, RowKeys.of(table, held), null, old -> {
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return held;
            }, false, ReturnValues.NONE, List.of());
            Thread first = Thread.ofPlatform().start(() -> engine.items().transactWrite(List.of(holding), token));
            try {
                assertTrue(inside.await(30, TimeUnit.SECONDS));
                for (int retry = 0; retry < 3; retry++) {
                    ItemWrite other = ItemWrite.put(table, item("pk", "retry" + retry), null, ReturnValues.NONE, false,
                            true);
                    DynamoDbException refused = assertThrows(DynamoDbException.class,
                            () -> engine.items().transactWrite(List.of(other), token));
                    assertEquals(ErrorType.TRANSACTION_IN_PROGRESS, refused.type(), "retry " + retry);
                }
            } finally {
                release.countDown();
                first.join();
            }
            for (int retry = 0; retry < 3; retry++) {
                assertNull(engine.items().get(table, item("pk", "retry" + retry), true, null).item());
            }
            assertEquals(held, engine.items().get(table, held, true, null).item());
        }
    }
}
