package io.stator.server.advisor;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Advisor;
import io.stator.engine.advisor.Finding;
import io.stator.engine.advisor.Prices;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.AdvisorPermissions;
import io.stator.server.access.Authorizer;
import io.stator.server.http.BodyChunks;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import io.stator.server.protocol.ResponseBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The advisor's read API, JSON over HTTP, served where GET /metrics is (docs/advisor.md):
 * <ul>
 *   <li>{@code GET /stator/advisor/top-keys?table=T[&index=I][&minutes=60][&limit=10]}: Contributor
 *       Insights' four graphs, with the resource's Contributor Insights status;</li>
 *   <li>{@code GET /stator/advisor/partitions?table=T[&index=I][&seconds=60]}: the modelled
 *       partitions and their units in each second;</li>
 *   <li>{@code GET /stator/advisor/access-patterns?table=T[&minutes=60]}: the signatures' table;</li>
 *   <li>{@code GET /stator/advisor/findings[?table=T]}: the advisor's findings;</li>
 *   <li>the console's pages as JSON ({@link View}, written by {@link RecordJson}):
 *       {@code overview}, {@code table?table=T}, {@code heat-map?table=T[&index=I][&bucket=1|10|60]},
 *       {@code heat-cell?table=T[&index=I]&partition=H&from=S&bucket=B},
 *       {@code throttle-events?table=T}, {@code cost[?table=T]}.</li>
 * </ul>
 * Traffic is recorded whatever a resource's Contributor Insights status: top-keys answers it with
 * the status, and the client that wants what DynamoDB would publish reads ENABLED resources only.
 * A request the API cannot answer is a 400 with DynamoDB's error shape ({@code __type},
 * {@code message}) and a message that says what is wrong; never a 500 for a bad request.
 *
 * <p><b>Who may read.</b> The answers show keys. The caller is the one {@code caller} names: with
 * --policies, a SigV4-signed request's key (an unsigned one is refused as DynamoDB refuses it),
 * authorized by {@link AdvisorPermissions}, the actions' own authorization point; without, the
 * port's own rule (ServerOptions.metricsOnMainPort: who reaches the port may read).
 */
public final class AdvisorEndpoint {

    public static final String PREFIX = "/stator/advisor/";
    static final int MAX_MINUTES = 60;
    static final int MAX_SECONDS = 300;
    /** Contributor Insights' most: "asking for more than 25 contributors is an error" (GetInsightRuleReport). */
    static final int MAX_CONTRIBUTORS = 25;

    private final Engine engine;
    private final Function<HttpRequestData, Authorizer> caller;
    private final Advisor advisor;
    private final Views views;

    /**
     * @param caller the authorizer of a request's caller: it authenticates the request (throwing
     *               DynamoDB's error when it must be signed and is not), or is
     *               {@link Authorizer#UNCHECKED} without --policies
     */
    /** @param scale the production multiplier the findings project with (--advisor-scale) */
    public AdvisorEndpoint(Engine engine, double scale, Function<HttpRequestData, Authorizer> caller) {
        this.engine = engine;
        this.caller = caller;
        this.advisor = new Advisor(engine.observations(), engine.catalog().counters(), Prices.standard(), scale);
        this.views = new Views(engine, advisor);
    }

    /** The pages this API and the console share. */
    public Views views() { return views; }

    /** Who is asking: a request's authorizer (see the constructor). */
    public Authorizer caller(HttpRequestData request) { return caller.apply(request); }

    public static boolean isAdvisor(HttpRequestData request) {
        return request.path().startsWith(PREFIX);
    }

    /** Answers one request of the API. */
    public HttpReply handle(HttpRequestData request) {
        try {
            if (!request.method().equals("GET")) throw invalid("The advisor's read API answers GET requests only");
            String route = request.path().substring(PREFIX.length());
            return switch (route) {
                case "top-keys" -> topKeys(request);
                case "partitions" -> partitions(request);
                case "access-patterns" -> accessPatterns(request);
                case "findings" -> findings(request);
                case "overview" -> overview(request);
                case "table" -> tablePage(request);
                case "heat-map" -> heatMap(request);
                case "heat-cell" -> heatCell(request);
                case "throttle-events" -> throttleEvents(request);
                case "cost" -> cost(request);
                default -> json(404, g -> error(g, "com.amazon.coral.service#UnknownOperationException",
                        "No such route: " + request.path() + " (routes under " + PREFIX + ": "
                                + String.join(", ", routes()) + ")"));
            };
        } catch (DynamoDbException e) {
            return json(e.type().httpStatus(), g -> error(g, e.type().wireName(), e.getMessage()));
        }
    }

    private HttpReply topKeys(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table", "index", "minutes", "limit"));
        String table = required(p, "table");
        String index = p.get("index");
        int minutes = number(p, "minutes", 60, MAX_MINUTES);
        int limit = number(p, "limit", 10, MAX_CONTRIBUTORS);
        AdvisorPermissions.keys(caller.apply(request), engine, table, index);
        TableDefinition t = table(table);
        IndexDefinition i = globalIndex(t, index);
        return json(200, g -> AdvisorJson.topKeys(g, t, i, engine.contributorInsights().describe(t, i,
                engine.observations().clock().instant()), engine.observations().topKeys(t, i, minutes, limit)));
    }

    private HttpReply partitions(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table", "index", "seconds"));
        String table = required(p, "table");
        String index = p.get("index");
        int seconds = number(p, "seconds", 60, MAX_SECONDS);
        AdvisorPermissions.keys(caller.apply(request), engine, table, index);
        TableDefinition t = table(table);
        IndexDefinition i = globalIndex(t, index);
        return json(200, g -> AdvisorJson.partitions(g, t, i, engine.observations().partitions(t, i, seconds)));
    }

    private HttpReply accessPatterns(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table", "minutes"));
        String table = required(p, "table");
        int minutes = number(p, "minutes", 60, MAX_MINUTES);
        AdvisorPermissions.table(caller.apply(request), engine, table);
        TableDefinition t = table(table);
        return json(200, g -> AdvisorJson.accessPatterns(g, t, engine.observations().accessPatterns(t, minutes),
                advisor.prices(), advisor.scale()));
    }

    private HttpReply findings(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table"));
        String table = p.get("table");
        Authorizer access = caller.apply(request);
        List<TableDefinition> tables;
        if (table == null) {
            AdvisorPermissions.everyTable(access);
            tables = engine.catalog().all().stream().sorted(java.util.Comparator.comparing(TableDefinition::name)).toList();
        } else {
            AdvisorPermissions.table(access, engine, table);
            tables = List.of(table(table));
        }
        List<Finding> found = advisor.findings(tables);
        List<String> names = tables.stream().map(TableDefinition::name).toList();
        return json(200, g -> AdvisorJson.findings(g, names, found, advisor.prices(), advisor.scale()));
    }

    private HttpReply overview(HttpRequestData request) {
        parameters(request, Set.of());
        Authorizer access = caller.apply(request);
        AdvisorPermissions.everyTable(access);
        return page(views.overview(Views.visibility(access, engine)));
    }

    private HttpReply tablePage(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table"));
        String table = required(p, "table");
        Authorizer access = caller.apply(request);
        AdvisorPermissions.table(access, engine, table);
        return page(views.table(table(table), Views.visibility(access, engine)));
    }

    private HttpReply heatMap(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table", "index", "bucket"));
        String table = required(p, "table");
        int bucket = bucket(p);
        Authorizer access = caller.apply(request);
        AdvisorPermissions.keys(access, engine, table, p.get("index"));
        TableDefinition t = table(table);
        return page(views.heatMap(t, globalIndex(t, p.get("index")), bucket, Views.visibility(access, engine)));
    }

    private HttpReply heatCell(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table", "index", "bucket", "partition", "from"));
        String table = required(p, "table");
        int bucket = bucket(p);
        String partition = required(p, "partition");
        long from;
        try {
            from = Long.parseLong(required(p, "from"));
        } catch (NumberFormatException e) {
            throw invalid("Parameter from must be a second since the epoch: " + p.get("from"));
        }
        Authorizer access = caller.apply(request);
        AdvisorPermissions.keys(access, engine, table, p.get("index"));
        TableDefinition t = table(table);
        return page(views.heatCell(t, globalIndex(t, p.get("index")), partition, from, bucket,
                Views.visibility(access, engine)));
    }

    private HttpReply throttleEvents(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table"));
        String table = required(p, "table");
        AdvisorPermissions.keys(caller.apply(request), engine, table, null);
        return page(views.throttleEvents(table(table), Views.Visibility.ALL));
    }

    private HttpReply cost(HttpRequestData request) {
        Map<String, String> p = parameters(request, Set.of("table"));
        String table = p.get("table");
        Authorizer access = caller.apply(request);
        if (table == null) AdvisorPermissions.everyTable(access);
        else AdvisorPermissions.table(access, engine, table);
        return page(views.cost(table == null ? null : table(table), Views.visibility(access, engine)));
    }

    /** The heat map's time bucket: 1, 10 or 60 seconds (1 when not given). */
    public static int bucket(Map<String, String> p) {
        String v = p.get("bucket");
        if (v == null) return 1;
        for (int b : Views.BUCKETS) {
            if (v.equals(Integer.toString(b))) return b;
        }
        throw invalid("Parameter bucket must be 1, 10 or 60 (seconds): " + v);
    }

    private static HttpReply page(Record view) {
        return json(200, g -> RecordJson.fields(g, view));
    }

    // ---- parameters ------------------------------------------------------------------------------

    /** The query string's parameters, each once, each one the route takes. */
    static Map<String, String> parameters(HttpRequestData request, Set<String> allowed) {
        Map<String, String> out = new LinkedHashMap<>();
        String query = request.query();
        if (query == null || query.isEmpty()) return out;
        for (String pair : query.split("&", -1)) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name;
            String value;
            try {
                name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw invalid("Malformed query string: " + query);
            }
            // X-Amz-* parameters carry a presigned request's signature.
            if (name.startsWith("X-Amz-")) continue;
            if (!allowed.contains(name)) {
                throw invalid("Unknown parameter: " + name + " (this route takes " + String.join(", ",
                        allowed.stream().sorted().toList()) + ")");
            }
            if (out.put(name, value) != null) throw invalid("Parameter " + name + " is given twice");
        }
        return out;
    }

    private static String required(Map<String, String> p, String name) {
        String v = p.get(name);
        if (v == null || v.isEmpty()) throw invalid("Parameter " + name + " is required");
        return v;
    }

    private static int number(Map<String, String> p, String name, int defaultValue, int max) {
        String v = p.get(name);
        if (v == null) return defaultValue;
        int n;
        try {
            n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > max) throw invalid("Parameter " + name + " must be a whole number from 1 to " + max + ": " + v);
        return n;
    }

    /** A table by name or ARN, or DynamoDB's ValidationException naming it. */
    public TableDefinition table(String nameOrArn) {
        TableDefinition t = engine.catalog().find(engine.catalog().arns().tableName(nameOrArn));
        if (t == null || t.filling()) throw invalid("Table not found: " + nameOrArn);
        return t;
    }

    /** The global index of that name (null for none); a local index is the table's traffic. */
    public static IndexDefinition globalIndex(TableDefinition table, String name) {
        if (name == null) return null;
        IndexDefinition i = table.index(name);
        if (i == null) throw invalid("Index not found: " + name + " (table " + table.name() + ")");
        if (!i.global()) {
            throw invalid("Index " + name + " is a local secondary index: its traffic is its table's (ask without index)");
        }
        return i;
    }

    private static DynamoDbException invalid(String message) {
        return DynamoDbException.validation(message);
    }

    // ---- replies ---------------------------------------------------------------------------------

    @FunctionalInterface
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static HttpReply json(int status, Body body) {
        BodyChunks buffer = new BodyChunks();
        try (JsonGenerator g = ResponseBody.JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            g.writeStartObject();
            body.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new HttpReply(status, buffer).header("Content-Type", "application/json");
    }

    private static void error(JsonGenerator g, String type, String message) throws IOException {
        g.writeStringField("__type", type);
        g.writeStringField("message", message);
    }

    static List<String> routes() {
        return List.of("top-keys", "partitions", "access-patterns", "findings", "overview", "table", "heat-map",
                "heat-cell", "throttle-events", "cost");
    }
}
