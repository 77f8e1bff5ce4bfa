package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.StatorTestServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportStatus;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.InputCompressionType;
import software.amazon.awssdk.services.dynamodb.model.InputFormat;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Exports to and imports from a real S3-compatible server (--s3-endpoint): S3Proxy on its
 * filesystem backend, started as a process of its own from the jar Maven copied to
 * target/s3proxy, with signatures checked. The export's objects are read back through the AWS
 * SDK's S3 client, and the export imports into a table that then holds the same items.
 */
class S3EndpointTest {

    private static final String ACCESS_KEY = "stator-s3-test";
    private static final String SECRET_KEY = "stator-s3-test-secret";

    @TempDir
    Path tmp;

    @Test
    void anExportToS3ImportsBackTheSameItems() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path data = Files.createDirectories(tmp.resolve("s3-data"));
        Path conf = tmp.resolve("s3proxy.conf");
        Files.writeString(conf, String.join("\n", "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=aws-v2-or-v4", "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY, "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + data) + "\n");
        Path jar = Path.of("target/s3proxy/s3proxy.jar").toAbsolutePath();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        URI endpoint = URI.create("http://127.0.0.1:" + port);
        String previousKey = System.getProperty("aws.accessKeyId");
        String previousSecret = System.getProperty("aws.secretAccessKey");
        // The server's S3 client takes its credentials from the SDK's default chain.
        System.setProperty("aws.accessKeyId", ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", SECRET_KEY);
        try (CommandProcess s3proxy = CommandProcess.start(List.of(java, "-jar", jar.toString(), "--properties",
                conf.toString()), tmp, Map.of());
             S3Client s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                     .httpClient(UrlConnectionHttpClient.create())
                     // S3Proxy does not implement the SDK's default checksum headers.
                     .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
                     .responseChecksumValidation(software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                     .build();
             StatorTestServer server = StatorTestServer.start(o -> o.withS3Endpoint(endpoint))) {
            awaitListening(port, s3proxy);
            s3.createBucket(b -> b.bucket("exports"));
            DynamoDbClient client = server.client();
            String table = StatorTestServer.tableName();
            client.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(io.stator.server.testing.Tables.definition("pk", ScalarAttributeType.S))
                    .keySchema(io.stator.server.testing.Tables.key("pk", KeyType.HASH)));
            for (int i = 0; i < 500; i++) {
                int n = i;
                client.putItem(b -> b.tableName(table).item(Map.of("pk", AttributeValue.fromS("k" + n),
                        "n", AttributeValue.fromN(Integer.toString(n)), "s", AttributeValue.fromSs(List.of("a", "b" + n)))));
            }
            client.updateContinuousBackups(b -> b.tableName(table)
                    .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
            server.engine().backups().awaitIdle();
            String arn = client.describeTable(b -> b.tableName(table)).table().tableArn();
            String exportArn = client.exportTableToPointInTime(b -> b.tableArn(arn).s3Bucket("exports").s3Prefix("p"))
                    .exportDescription().exportArn();
            server.transfers().awaitIdle();
            ExportDescription done = client.describeExport(b -> b.exportArn(exportArn)).exportDescription();
            assertEquals(ExportStatus.COMPLETED, done.exportStatus(), done.toString());
            assertEquals(500L, done.itemCount());
            List<String> keys = s3.listObjectsV2Paginator(b -> b.bucket("exports").prefix("p/AWSDynamoDB/"))
                    .contents().stream().map(o -> o.key()).toList();
            String base = done.exportManifest().replace("manifest-summary.json", "");
            assertTrue(keys.containsAll(List.of(base + "_started", base + "manifest-summary.json",
                    base + "manifest-summary.md5", base + "manifest-files.json", base + "manifest-files.md5")), keys.toString());
            assertTrue(keys.stream().anyMatch(k -> k.startsWith(base + "data/") && k.endsWith(".json.gz")), keys.toString());
            String summary = s3.getObjectAsBytes(b -> b.bucket("exports").key(done.exportManifest())).asUtf8String();
            assertTrue(summary.contains("\"itemCount\":500"), summary);

            String imported = StatorTestServer.tableName();
            String importArn = client.importTable(b -> b.s3BucketSource(s -> s.s3Bucket("exports").s3KeyPrefix(base + "data/"))
                    .inputFormat(InputFormat.DYNAMODB_JSON).inputCompressionType(InputCompressionType.GZIP)
                    .tableCreationParameters(t -> t.tableName(imported).billingMode("PAY_PER_REQUEST")
                            .attributeDefinitions(io.stator.server.testing.Tables.definition("pk", ScalarAttributeType.S))
                            .keySchema(io.stator.server.testing.Tables.key("pk", KeyType.HASH))))
                    .importTableDescription().importArn();
            server.transfers().awaitIdle();
            ImportTableDescription importDone = client.describeImport(b -> b.importArn(importArn)).importTableDescription();
            assertEquals(ImportStatus.COMPLETED, importDone.importStatus(), importDone.toString());
            assertEquals(500L, importDone.importedItemCount());
            Set<Map<String, AttributeValue>> source = client.scanPaginator(b -> b.tableName(table)).items().stream()
                    .collect(Collectors.toSet());
            Set<Map<String, AttributeValue>> copy = client.scanPaginator(b -> b.tableName(imported)).items().stream()
                    .collect(Collectors.toSet());
            assertEquals(source, copy);
        } finally {
            restore("aws.accessKeyId", previousKey);
            restore("aws.secretAccessKey", previousSecret);
        }
    }

    private static void awaitListening(int port, CommandProcess s3proxy) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            try (java.net.Socket ignored = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (java.io.IOException notYet) {
                assertTrue(s3proxy.process().isAlive(), "S3Proxy exited");
                Thread.sleep(100);
            }
        }
        throw new AssertionError("S3Proxy did not listen on " + port + " within 90 s");
    }

    private static void restore(String property, String previous) {
        if (previous == null) System.clearProperty(property);
        else System.setProperty(property, previous);
    }
}
