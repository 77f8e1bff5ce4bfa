package io.stator.server.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The run from which bin/lib/aot-cache.sh makes JDK 25's ahead-of-time cache: a server started as
 * {@code bin/stator} starts one (durable, on a fresh data directory), then the requests a first
 * client makes (a table created, items written, read, queried, one refused). The cache then holds
 * the classes of a first request as well as those of the start: untrained, the first answer after
 * "listening" took about 150 ms, all of it class loading. Not a command of its own; exits when done.
 */
public final class AotTraining {

    private static final String[][] REQUESTS = {
            {"ListTables", "{}"},
            {"CreateTable", """
                    {"TableName":"aot","BillingMode":"PAY_PER_REQUEST",
                     "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
                     "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}"""},
            {"DescribeTable", "{\"TableName\":\"aot\"}"},
            {"PutItem", "{\"TableName\":\"aot\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"},\"v\":{\"M\":{\"l\":{\"L\":[{\"B\":\"AA==\"},{\"BOOL\":true},{\"NULL\":true}]},\"s\":{\"SS\":[\"x\"]}}}}}"},
            {"GetItem", "{\"TableName\":\"aot\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},\"ReturnConsumedCapacity\":\"TOTAL\"}"},
            {"UpdateItem", "{\"TableName\":\"aot\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},"
                    + "\"UpdateExpression\":\"SET #c = if_not_exists(#c, :z) + :one\",\"ConditionExpression\":\"attribute_exists(pk)\","
                    + "\"ExpressionAttributeNames\":{\"#c\":\"c\"},\"ExpressionAttributeValues\":{\":z\":{\"N\":\"0\"},\":one\":{\"N\":\"1\"}},"
                    + "\"ReturnValues\":\"ALL_NEW\"}"},
            {"Query", "{\"TableName\":\"aot\",\"KeyConditionExpression\":\"pk = :p AND sk > :s\",\"FilterExpression\":\"c > :s\","
                    + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"a\"},\":s\":{\"N\":\"0\"}},\"ProjectionExpression\":\"pk, sk, v.l[0]\"}"},
            {"Scan", "{\"TableName\":\"aot\",\"Limit\":10}"},
            {"BatchWriteItem", "{\"RequestItems\":{\"aot\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}}}]}}"},
            {"BatchGetItem", "{\"RequestItems\":{\"aot\":{\"Keys\":[{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}]}}}"},
            {"DeleteItem", "{\"TableName\":\"aot\",\"Key\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"N\":\"2\"}}}"},
            {"GetItem", "{\"TableName\":\"aot\",\"Key\":{\"pk\":{\"S\":\"a\"}}}"}, // refused: the key is incomplete
    };

    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private AotTraining() {}

    /** @param args the data directory to start the server on (made if missing) */
    public static void main(String[] args) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String[] server = {"--port", Integer.toString(port), "--data-dir", args[0]};
        Thread serving = new Thread(() -> StatorCommand.main(server), "aot-training-server");
        serving.setDaemon(true);
        serving.start();
        int status = 1;
        try {
            awaitListening(port);
            for (String[] request : REQUESTS) send(port, request[0], request[1]);
            status = 0;
        } finally {
            System.exit(status); // the cache is written as the JVM exits (the server's threads would keep it)
        }
    }

    private static void awaitListening(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("the server did not start");
                Thread.sleep(20);
            }
        }
    }

    /**
     * One request as the SDKs send it, its signature a placeholder: without --credentials the
     * server checks a signature's form, not its value.
     */
    private static void send(int port, String action, String body) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/").toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        String date = AMZ_DATE.format(Instant.now());
        c.setRequestProperty("Content-Type", "application/x-amz-json-1.0");
        c.setRequestProperty("X-Amz-Target", "DynamoDB_20120810." + action);
        c.setRequestProperty("X-Amz-Date", date);
        c.setRequestProperty("Authorization", "AWS4-HMAC-SHA256 Credential=training/" + date.substring(0, 8)
                + "/us-east-1/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature="
                + "0".repeat(64));
        try (OutputStream out = c.getOutputStream()) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            if (in != null) in.readAllBytes();
        }
    }
}
