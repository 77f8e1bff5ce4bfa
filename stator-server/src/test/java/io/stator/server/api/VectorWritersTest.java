package io.stator.server.api;

import static io.stator.server.api.VectorSearchTest.query;
import static io.stator.server.api.VectorSearchTest.vector;
import static io.stator.server.api.VectorSearchTest.vectorIndex;
import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.ErrorAssertions.assertValidation;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.VectorDistanceFunction;

/**
 * Every writer keeps a vector index: TransactWriteItems, PartiQL's INSERT, UPDATE and DELETE, and
 * a restore from a backup (which keeps the backup's vector indexes; choosing among them with
 * VectorIndexOverride is refused as not served).
 */
class VectorWritersTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final String TABLE = StatorTestServer.tableName();

    private static DynamoDbClient db() {
        return server.client();
    }

    @BeforeAll
    static void create() {
        db().createTable(Tables.onDemand(TABLE)
                .vectorIndexes(vectorIndex("byE", "e", 3, VectorDistanceFunction.EUCLIDEAN).build()).build());
    }

    private static String nearest(String table, float... q) {
        var results = db().searchVectors(b -> b.tableName(table).indexName("byE").searchVector(query(q)).topK(1))
                .searchResults();
        return results.isEmpty() ? null : results.get(0).item().get("pk").s();
    }

    @Test
    void transactionsAndPartiqlKeepTheIndex() {
        db().transactWriteItems(b -> b.transactItems(t -> t.put(p -> p.tableName(TABLE)
                .item(item("pk", s("tx"), "e", vector(10, 0, 0))))));
        Eventually.until("a transaction's vector", () -> nearest(TABLE, 10, 0, 0), "tx"::equals);

        db().executeStatement(b -> b.statement("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'ql', 'e': [0, 20, 0]}"));
        Eventually.until("an INSERT's vector", () -> nearest(TABLE, 0, 20, 0), "ql"::equals);
        db().executeStatement(b -> b.statement("UPDATE \"" + TABLE + "\" SET e = [0, 0, 30] WHERE pk = 'ql'"));
        Eventually.until("an UPDATE's vector", () -> nearest(TABLE, 0, 0, 30), "ql"::equals);
        db().executeStatement(b -> b.statement("DELETE FROM \"" + TABLE + "\" WHERE pk = 'ql'"));
        Eventually.until("a DELETE's", () -> nearest(TABLE, 0, 0, 30), key -> !"ql".equals(key));

        assertValidation("One or more parameter values are not valid. One or more parameter values were invalid . "
                        + "Invalid size for parameter e, Expected: 3, Actual: 1. IndexName: byE",
                () -> db().executeStatement(b -> b.statement("INSERT INTO \"" + TABLE + "\" VALUE {'pk': 'bad', 'e': [1]}")));
        // PartiQL naming a vector index: DynamoDB answers with its Scan text (vector-search.md §3.4).
        assertValidation("Scan operation not supported on this index type",
                () -> db().executeStatement(b -> b.statement("SELECT * FROM \"" + TABLE + "\".\"byE\"")));
    }

    @Test
    void aRestoreKeepsTheBackupsVectorIndexes() {
        String source = StatorTestServer.tableName();
        db().createTable(Tables.onDemand(source)
                .vectorIndexes(vectorIndex("byE", "e", 3, VectorDistanceFunction.EUCLIDEAN).build()).build());
        for (int i = 0; i < 20; i++) {
            int n = i;
            db().putItem(b -> b.tableName(source).item(item("pk", s("r" + n), "e", vector(n, n, n))));
        }
        String arn = db().createBackup(b -> b.tableName(source).backupName("vectors")).backupDetails().backupArn();
        assertValidation("VectorIndexOverride is not supported by Stator yet", () -> db().restoreTableFromBackup(b -> b
                .backupArn(arn).targetTableName(StatorTestServer.tableName())
                .vectorIndexOverride(vectorIndex("byE", "e", 3, VectorDistanceFunction.EUCLIDEAN).build())));
        String restored = StatorTestServer.tableName();
        db().restoreTableFromBackup(b -> b.backupArn(arn).targetTableName(restored));
        TableDescription active = Eventually.until("the restore", () -> db().describeTable(b -> b.tableName(restored)).table(),
                t -> t.tableStatus() == TableStatus.ACTIVE);
        assertEquals(List.of("byE"), active.vectorIndexes().stream().map(i -> i.indexName()).toList());
        assertEquals(3L, active.vectorIndexes().get(0).dimensions());
        Eventually.until("the restored items are searchable", () -> nearest(restored, 7, 7, 7), "r7"::equals);
        Eventually.until("all of them", () -> db().describeTable(b -> b.tableName(restored)).table().vectorIndexes().get(0)
                .itemCount(), count -> count == 20L);
    }
}
