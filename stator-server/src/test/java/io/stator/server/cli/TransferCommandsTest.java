package io.stator.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.Tables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@code stator export} and {@code stator import} on a data directory no server has open: a
 * table exported to a directory in DynamoDB's layout, then imported into a new table of another
 * data directory, which a server then serves with the same items; the progress line and the
 * throughput on stderr.
 */
class TransferCommandsTest {

    @TempDir
    Path tmp;

    @Test
    void aTableExportedOfflineImportsIntoAnotherDataDirectory() throws Exception {
        Path source = tmp.resolve("source");
        Path target = tmp.resolve("target");
        Path files = tmp.resolve("files");
        String table = StatorTestServer.tableName();
        Set<Map<String, AttributeValue>> items;
        try (StatorTestServer server = StatorTestServer.start(o -> o.with(m -> m.dataDirectory = source))) {
            server.client().createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(Tables.definition("pk", ScalarAttributeType.S),
                            Tables.definition("sk", ScalarAttributeType.N))
                    .keySchema(Tables.key("pk", KeyType.HASH), Tables.key("sk", KeyType.RANGE)));
            for (int i = 0; i < 300; i++) {
                int n = i;
                server.client().putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("p" + n % 7),
                        "sk", AttributeValue.fromN(Integer.toString(n)), "v", AttributeValue.fromS("value " + n))));
            }
            items = server.client().scanPaginator(b -> b.tableName(table)).items().stream().collect(Collectors.toSet());
        }

        CommandRun export = run("export", "--data-dir", source.toString(), "--table", table, "--to", files.toString());
        assertEquals(0, export.code(), export.err());
        Path summary = Path.of(export.out().trim());
        assertTrue(Files.exists(summary) && summary.endsWith("manifest-summary.json"), export.out());
        assertTrue(export.err().contains("exported 300 items"), export.err());
        String dataPrefix = files.resolve("export").relativize(summary.getParent()).toString() + "/data/";

        Files.createDirectories(target);
        CommandRun load = run("import", "--data-dir", target.toString(), "--from", files.toString(), "--bucket", "export",
                "--prefix", dataPrefix, "--table", "copy", "--key", "pk:S,sk:N");
        assertEquals(0, load.code(), load.err() + load.out());
        assertTrue(load.out().contains("COMPLETED: 300 items imported, 0 errors"), load.out());
        assertTrue(load.err().contains("imported 300 items"), load.err());

        try (StatorTestServer server = StatorTestServer.start(o -> o.with(m -> m.dataDirectory = target))) {
            assertEquals(items, server.client().scanPaginator(b -> b.tableName("copy")).items().stream()
                    .collect(Collectors.toSet()));
        }
        CommandRun bad = run("import", "--data-dir", target.toString(), "--from", files.toString(), "--bucket", "export",
                "--table", "other", "--key", "pk");
        assertEquals(2, bad.code(), bad.err());
    }

    private static CommandRun run(String... args) {
        return CommandRun.run(args);
    }
}
