package io.stator.server.console;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.Utf8ByteOutput;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.advisor.AdvisorEndpoint;
import io.stator.server.advisor.View;
import io.stator.server.advisor.Views;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The console: HTML pages over the advisor's observations, served where GET /metrics is (the API
 * port when it serves the metrics, and --metrics-port), read-only, off with {@code --console off}.
 * docs/console.md tells what each page shows.
 *
 * <p>Each page is a jte template (src/main/jte, compiled at build time) over the same {@link View}
 * record the read API answers as JSON (GET /stator/advisor/...: every page has its twin). Pages
 * stay live by polling themselves every two seconds (htmx swaps the {@code #live} element; no full
 * reload); charts are drawn by Apache ECharts from a {@code data-series} attribute that holds the
 * chart's data as JSON, so that tests read the data, not pixels. htmx and ECharts come from their
 * webjars and are served here: no CDN, the console works offline.
 *
 * <p><b>Who sees what.</b> Whoever reaches the port sees what /metrics shows (tables, units,
 * throttle counts). Keys, items and findings go to a caller the actions' authorization point lets
 * read them ({@link Views#visibility}): every caller without --policies; with --policies, a
 * SigV4-presigned request's key, and an unsigned browser sees the figures with keys hidden.
 *
 * <p><b>Cost.</b> Nothing on a request's path: a page reads what the observations record anyway,
 * when someone looks; items are read without being admitted, charged or observed.
 */
public final class ConsoleEndpoint {

    public static final String PREFIX = "/console";
    private static final String ASSETS = PREFIX + "/assets/";
    /** The assets, by the name pages ask for, from the webjars and this package's resources. */
    private static final Map<String, String[]> ASSET_SOURCES = Map.of(
            "htmx.min.js", new String[] {"META-INF/resources/webjars/htmx.org/2.0.4/dist/htmx.min.js", "text/javascript"},
            "echarts.min.js", new String[] {"META-INF/resources/webjars/echarts/5.3.1/dist/echarts.min.js", "text/javascript"},
            "console.js", new String[] {"io/stator/server/console/console.js", "text/javascript"},
            "console.css", new String[] {"io/stator/server/console/console.css", "text/css"});

    private final AdvisorEndpoint api;
    private final Views views;
    private final TemplateEngine templates = TemplateEngine.createPrecompiled(null, ContentType.Html,
            ConsoleEndpoint.class.getClassLoader(), "io.stator.server.console.templates");
    private final Map<String, byte[]> assets = new ConcurrentHashMap<>();
    /** Each render's number: a page's {@code data-version}, which tests wait on to see it refreshed. */
    private final AtomicLong renders = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicBoolean faultReported = new java.util.concurrent.atomic.AtomicBoolean();

    public ConsoleEndpoint(AdvisorEndpoint api) {
        this.api = api;
        this.views = api.views();
    }

    public static boolean isConsole(HttpRequestData request) {
        String path = request.path();
        return path.equals(PREFIX) || path.startsWith(PREFIX + "/");
    }

    /** Answers one request for a page or an asset. */
    public HttpReply handle(HttpRequestData request) {
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            return text(405, "The console is read-only: it answers GET requests").header("Allow", "GET, HEAD");
        }
        String path = request.path();
        if (path.equals(PREFIX)) return new HttpReply(301, new byte[0]).header("Location", PREFIX + "/");
        if (path.startsWith(ASSETS)) return asset(path.substring(ASSETS.length()));
        try {
            Map<String, String> p = parameters(request.query());
            Views.Visibility visibility = visibility(request);
            String route = path.substring(PREFIX.length() + 1);
            if (route.isEmpty()) {
                return page("overview", frame("Overview", null, "overview", path, request, visibility),
                        views.overview(visibility));
            }
            if (route.equals("findings")) {
                TableDefinition t = p.containsKey("table") ? api.table(p.get("table")) : null;
                return page("findings", frame("Findings", t == null ? null : t.name(), "findings", self(path, p), request,
                        visibility), views.findings(t, visibility));
            }
            if (route.equals("cost")) {
                TableDefinition t = p.containsKey("table") ? api.table(p.get("table")) : null;
                return page("cost", frame("Cost", t == null ? null : t.name(), "cost", self(path, p), request, visibility),
                        views.cost(t, visibility));
            }
            if (route.startsWith("tables/")) return tablePage(route.substring("tables/".length()), path, p, request,
                    visibility);
            return text(404, "No such page: " + path);
        } catch (DynamoDbException e) {
            return text(e.type().httpStatus() == 400 ? 404 : e.type().httpStatus(), e.getMessage());
        } catch (RuntimeException e) {
            // A page that cannot be drawn says so, and the server goes on.
            if (!faultReported.getAndSet(true)) {
                System.err.println("stator: the console could not render " + path + " (reported once): " + e);
            }
            return text(500, "The console could not render this page: " + e);
        }
    }

    private HttpReply tablePage(String rest, String path, Map<String, String> p, HttpRequestData request,
                                Views.Visibility visibility) {
        int slash = rest.indexOf('/');
        String name = URLDecoder.decode(slash < 0 ? rest : rest.substring(0, slash), StandardCharsets.UTF_8);
        String page = slash < 0 ? "" : rest.substring(slash + 1);
        TableDefinition t = api.table(name);
        IndexDefinition index = AdvisorEndpoint.globalIndex(t, p.get("index"));
        Frame frame = frame(title(page, t), t.name(), page.isEmpty() ? "table" : page, self(path, p), request, visibility);
        return switch (page) {
            case "" -> page("table", frame, views.table(t, visibility));
            case "heat-map" -> page("heatmap", frame, views.heatMap(t, index, AdvisorEndpoint.bucket(p), visibility));
            case "heat-cell" -> fragment("heatcell", views.heatCell(t, index, required(p, "partition"),
                    number(p, "from"), AdvisorEndpoint.bucket(p), visibility));
            case "top-keys" -> page("topkeys", frame, views.topKeys(t, index, 60, 10, visibility));
            case "throttle-events" -> page("throttles", frame, views.throttleEvents(t, visibility));
            case "access-patterns" -> page("patterns", frame, Sorting.sorted(views.accessPatterns(t, 60, visibility),
                    p.getOrDefault("sort", "cost"), !"asc".equals(p.get("order"))));
            default -> text(404, "No such page: " + path);
        };
    }

    private static String title(String page, TableDefinition t) {
        return switch (page) {
            case "" -> "Table " + t.name();
            case "heat-map" -> "Partition heat map: " + t.name();
            case "top-keys" -> "Top keys: " + t.name();
            case "throttle-events" -> "Throttle events: " + t.name();
            case "access-patterns" -> "Access patterns: " + t.name();
            default -> t.name();
        };
    }

    /**
     * What every page's layout needs.
     *
     * @param self      the page's own address, which it polls for its live part
     * @param keysShown false when --policies hides keys, items and findings from this caller
     */
    public record Frame(String title, String tableName, String active, String self, long version, boolean keysShown) {

        public String tableUrl(String page) {
            return PREFIX + "/tables/" + URLEncoder.encode(tableName, StandardCharsets.UTF_8)
                    + (page.isEmpty() ? "" : "/" + page);
        }
    }

    private Frame frame(String title, String table, String active, String self, HttpRequestData request,
                        Views.Visibility visibility) {
        return new Frame(title, table, active, self, renders.incrementAndGet(), visibility == Views.Visibility.ALL);
    }

    /** The caller's visibility: with --policies an unsigned request sees no keys (it is nobody). */
    private Views.Visibility visibility(HttpRequestData request) {
        Authorizer access;
        try {
            access = api.caller(request);
        } catch (DynamoDbException e) {
            return NOTHING;
        }
        return Views.visibility(access, views.engine());
    }

    private static final Views.Visibility NOTHING = new Views.Visibility() {
        @Override public boolean keys(TableDefinition table, IndexDefinition index) { return false; }

        @Override public boolean items(TableDefinition table) { return false; }

        @Override public boolean findings(TableDefinition table) { return false; }
    };

    // ---- rendering -------------------------------------------------------------------------------

    private HttpReply page(String template, Frame frame, Record view) {
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("frame", frame);
        model.put("view", view);
        return html(template, model);
    }

    private HttpReply fragment(String template, Record view) {
        return html(template, Map.of("view", view));
    }

    private HttpReply html(String template, Map<String, Object> model) {
        Utf8ByteOutput out = new Utf8ByteOutput();
        templates.render(template + ".jte", model, out);
        return new HttpReply(200, out.toByteArray()).header("Content-Type", "text/html; charset=utf-8")
                .header("Cache-Control", "no-store");
    }

    private HttpReply asset(String name) {
        String[] source = ASSET_SOURCES.get(name);
        if (source == null) return text(404, "No such asset: " + name);
        byte[] bytes = assets.computeIfAbsent(name, n -> load(source[0]));
        return new HttpReply(200, bytes).header("Content-Type", source[1] + "; charset=utf-8")
                .header("Cache-Control", "max-age=3600");
    }

    private static byte[] load(String resource) {
        try (InputStream in = ConsoleEndpoint.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("the console's asset is missing from the build: " + resource);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpReply text(int status, String message) {
        return new HttpReply(status, (message + "\n").getBytes(StandardCharsets.UTF_8))
                .header("Content-Type", "text/plain; charset=utf-8");
    }

    // ---- parameters ------------------------------------------------------------------------------

    private static Map<String, String> parameters(String query) {
        Map<String, String> out = new LinkedHashMap<>();
        if (query == null || query.isEmpty()) return out;
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                if (!value.isEmpty()) out.putIfAbsent(name, value);
            } catch (IllegalArgumentException e) {
                throw DynamoDbException.validation("Malformed query string: " + query);
            }
        }
        return out;
    }

    /** The page's address with the parameters that choose what it shows (what it polls). */
    private static String self(String path, Map<String, String> p) {
        StringBuilder b = new StringBuilder(path);
        char sep = '?';
        for (Map.Entry<String, String> e : p.entrySet()) {
            if (e.getKey().startsWith("X-Amz-")) continue;
            b.append(sep).append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
            sep = '&';
        }
        return b.toString();
    }

    private static String required(Map<String, String> p, String name) {
        String v = p.get(name);
        if (v == null) throw DynamoDbException.validation("Parameter " + name + " is required");
        return v;
    }

    private static long number(Map<String, String> p, String name) {
        try {
            return Long.parseLong(required(p, name));
        } catch (NumberFormatException e) {
            throw DynamoDbException.validation("Parameter " + name + " must be a whole number: " + p.get(name));
        }
    }
}
