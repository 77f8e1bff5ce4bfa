package io.stator.server.cli;

import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * {@code stator advise}: the advisor's findings and access patterns of a running server as a
 * report to read (or, with --json, the read API's answers as they are). It is a client of
 * {@code GET /stator/advisor/...} (docs/advisor.md) and nothing more: what it prints is what the
 * console and any other client see. Requests are signed when an access key is given (a server with
 * --policies authorizes the advisor's API as it does the actions), unsigned otherwise.
 */
@Command(name = "advise", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Prints the data-model advisor's findings and access patterns of a running Stator.")
final class AdviseCommand implements Callable<Integer> {

    @Option(names = "--endpoint", required = true, paramLabel = "URL",
            description = "The server: its DynamoDB port (served there to loopback clients, or with no --credentials) "
                    + "or its --metrics-port, e.g. http://127.0.0.1:8000")
    URI endpoint;

    @Option(names = "--table", description = "Only this table (default: every table).")
    String table;

    @Option(names = "--json", description = "Print the read API's answers as JSON: {\"findings\": ..., "
            + "\"accessPatterns\": [...]}.")
    boolean json;

    @Option(names = "--access-key-id", paramLabel = "ID", description = "Sign the requests with this key (default: "
            + "AWS_ACCESS_KEY_ID, if set).")
    String accessKeyId = System.getenv("AWS_ACCESS_KEY_ID");

    @Option(names = "--secret-access-key", paramLabel = "SECRET", description = "Its secret (default: "
            + "AWS_SECRET_ACCESS_KEY).")
    String secretAccessKey = System.getenv("AWS_SECRET_ACCESS_KEY");

    @Option(names = "--region", description = "The region to sign for (default: ${DEFAULT-VALUE}).")
    String region = "us-east-1";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        String base = endpoint.toString().replaceAll("/+$", "");
        if (endpoint.getScheme() == null || endpoint.getHost() == null) {
            System.err.println("stator advise: --endpoint must be a URL such as http://127.0.0.1:8000, got " + endpoint);
            return 2;
        }
        String findingsText;
        List<String> patternTexts = new ArrayList<>();
        try {
            findingsText = get(base + "/stator/advisor/findings" + (table == null ? "" : "?table=" + encode(table)));
            JsonNode findings = JsonNode.parser().parse(findingsText);
            Set<String> tables = new LinkedHashSet<>();
            if (table != null) {
                tables.add(table);
            } else {
                for (JsonNode t : findings.field("tables").map(JsonNode::asArray).orElse(List.of())) tables.add(t.asString());
            }
            for (String t : tables) patternTexts.add(get(base + "/stator/advisor/access-patterns?table=" + encode(t)));
            if (json) {
                out.println("{\"findings\": " + findingsText.strip() + ", \"accessPatterns\": ["
                        + String.join(", ", patternTexts.stream().map(String::strip).toList()) + "]}");
            } else {
                List<JsonNode> patterns = patternTexts.stream().map(p -> JsonNode.parser().parse(p)).toList();
                AdviceReport.print(out, base, findings, tables, patterns);
            }
            return 0;
        } catch (RefusedException e) {
            System.err.println("stator advise: " + e.getMessage());
            return 1;
        } catch (java.io.IOException e) {
            System.err.println("stator advise: cannot reach " + base + ": " + e);
            return 1;
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** A GET of the read API: its body, or a RefusedException with the server's message. */
    private String get(String url) throws java.io.IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET();
        if (accessKeyId != null && !accessKeyId.isEmpty()) {
            if (secretAccessKey == null) throw new RefusedException("--access-key-id needs --secret-access-key");
            sign(URI.create(url)).forEach((name, values) -> {
                // java.net.http sets Host itself and refuses it as a header.
                if (!name.equalsIgnoreCase("host")) values.forEach(v -> request.header(name, v));
            });
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            String message = response.body();
            try {
                JsonNode error = JsonNode.parser().parse(message);
                message = error.field("message").or(() -> error.field("Message")).map(JsonNode::asString).orElse(message)
                        + " (" + error.field("__type").map(t -> t.asString().substring(t.asString().indexOf('#') + 1))
                        .orElse("HTTP " + response.statusCode()) + ")";
            } catch (RuntimeException notJson) {
                message = "HTTP " + response.statusCode() + " " + message;
            }
            throw new RefusedException(url + ": " + message);
        }
        return response.body();
    }

    /** SigV4 headers for a GET with no body, as the DynamoDB service signs. */
    private Map<String, List<String>> sign(URI url) {
        SdkHttpRequest unsigned = SdkHttpRequest.builder().uri(url).method(SdkHttpMethod.GET).build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.request(unsigned)
                .identity(AwsBasicCredentials.create(accessKeyId, secretAccessKey))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        return signed.request().headers();
    }

    /** The server refused a request, or answered what this command cannot use. */
    private static final class RefusedException extends RuntimeException {
        RefusedException(String message) {
            super(message);
        }
    }

    static String money(double dollars) {
        return String.format(Locale.ROOT, "$%,.2f", dollars);
    }
}
