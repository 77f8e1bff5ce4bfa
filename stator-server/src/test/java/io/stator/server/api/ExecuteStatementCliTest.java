package io.stator.server.api;

import static io.stator.server.testing.AwsCli.requireOnPath;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.AwsCli;
import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.CommandProcess.Result;
import io.stator.server.testing.SharedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * PartiQL from other clients and at its limits: the AWS CLI's {@code execute-statement} (botocore
 * signs and parses on its own) inserts, selects and deletes, its {@code execute-transaction}
 * commits or cancels; BatchExecuteStatement takes 25
 * statements and refuses 26 with the service model's constraint message. The AWS CLI must be on
 * PATH: without it this test fails, saying so, as BinStatorAndAwsCliIT does.
 */
class ExecuteStatementCliTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    @TempDir
    Path dir;

    @Test
    void theAwsCliRunsStatements() throws Exception {
        String table = "cli-" + System.nanoTime();
        onDemandTable(table);
        String aws = requireOnPath("aws", "install the AWS CLI");
        Map<String, String> environment = AwsCli.environment(dir);
        cli(aws, environment, "INSERT INTO \"" + table + "\" VALUE {'pk': 'a', 'n': 1}");
        cli(aws, environment, "INSERT INTO \"" + table + "\" VALUE {'pk': 'b', 'n': 2}");
        String selected = cli(aws, environment, "SELECT n FROM \"" + table + "\" WHERE pk = 'b'");
        assertTrue(selected.contains("\"N\": \"2\""), selected);
        assertTrue(!selected.contains("\"pk\""), () -> "only the projected attribute: " + selected);
        cli(aws, environment, "DELETE FROM \"" + table + "\" WHERE pk = 'a'");
        String all = cli(aws, environment, "SELECT * FROM \"" + table + "\"");
        assertTrue(all.contains("\"S\": \"b\"") && !all.contains("\"S\": \"a\""), all);
    }

    @Test
    void theAwsCliRunsATransaction() throws Exception {
        String table = "cli-txn-" + System.nanoTime();
        onDemandTable(table);
        String aws = requireOnPath("aws", "install the AWS CLI");
        Map<String, String> environment = AwsCli.environment(dir);
        cli(aws, environment, "INSERT INTO \"" + table + "\" VALUE {'pk': 'a', 'n': 1}");
        String statements = "[{\"Statement\": \"EXISTS(SELECT * FROM \\\"" + table + "\\\" WHERE pk = 'a' AND n = 1)\"},"
                + " {\"Statement\": \"INSERT INTO \\\"" + table + "\\\" VALUE {'pk': 'b', 'n': 2}\"}]";
        Result r = CommandProcess.run(List.of(aws, "dynamodb", "execute-transaction", "--endpoint-url",
                server.endpoint().toString(), "--transact-statements", statements, "--output", "json"), dir,
                environment, Duration.ofSeconds(120));
        assertEquals(0, r.exit(), () -> "aws dynamodb execute-transaction failed: " + r.stderr());
        String b = cli(aws, environment, "SELECT n FROM \"" + table + "\" WHERE pk = 'b'");
        assertTrue(b.contains("\"N\": \"2\""), b);

        Result cancelled = CommandProcess.run(List.of(aws, "dynamodb", "execute-transaction", "--endpoint-url",
                server.endpoint().toString(), "--transact-statements", statements.replace("'b'", "'c'")
                        .replace("n = 1", "n = 5"), "--output", "json"), dir, environment, Duration.ofSeconds(120));
        assertTrue(cancelled.exit() != 0 && cancelled.stderr().contains("TransactionCanceledException")
                && cancelled.stderr().contains("[ConditionalCheckFailed, None]"), cancelled.stderr());
        String c = cli(aws, environment, "SELECT * FROM \"" + table + "\" WHERE pk = 'c'");
        assertTrue(!c.contains("\"S\": \"c\""), () -> "nothing of a cancelled transaction: " + c);
    }

    @Test
    void aBatchTakesTwentyFiveStatementsAndRefusesTwentySix() {
        String table = "batch-limit-" + System.nanoTime();
        onDemandTable(table);
        DynamoDbClient dynamo = server.client();
        List<BatchStatementRequest> statements = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            statements.add(BatchStatementRequest.builder()
                    .statement("INSERT INTO \"" + table + "\" VALUE {'pk': '" + i + "'}").build());
        }
        DynamoDbException refused = assertThrows(DynamoDbException.class,
                () -> dynamo.batchExecuteStatement(b -> b.statements(statements)));
        assertEquals("ValidationException", refused.awsErrorDetails().errorCode());
        assertTrue(refused.getMessage().contains("failed to satisfy constraint: Member must have length less than or "
                + "equal to 25"), refused.getMessage());
        assertEquals(0, dynamo.scan(b -> b.tableName(table)).count(), "nothing written");
        assertEquals(25, dynamo.batchExecuteStatement(b -> b.statements(statements.subList(0, 25))).responses().size());
        assertEquals(25, dynamo.scan(b -> b.tableName(table)).count());
    }

    private static void onDemandTable(String table) {
        server.client().createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH")));
    }

    private String cli(String aws, Map<String, String> environment, String statement) throws Exception {
        Result r = CommandProcess.run(List.of(aws, "dynamodb", "execute-statement", "--endpoint-url",
                server.endpoint().toString(), "--statement", statement, "--output", "json"), dir, environment,
                Duration.ofSeconds(120));
        assertEquals(0, r.exit(), () -> "aws dynamodb execute-statement failed: " + r.stderr());
        return r.stdout();
    }
}
