package io.stator.server.metrics;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.stator.engine.Engine;
import io.stator.engine.capacity.Throughput;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics}: one server's metrics in Prometheus' text format (version 0.0.4), named
 * after DynamoDB's CloudWatch metrics ({@link MetricNames}). The requests' figures are recorded
 * as requests are answered ({@link RequestMetrics}); the capacity figures are read from the
 * engine's {@link Throughput} when scraped ({@link CapacityMetrics}). Each server has its own
 * registry: tests run several servers in one JVM.
 */
public final class MetricsEndpoint {

    public static final String PATH = "/metrics";
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;
    private static final byte[] NOT_FOUND = "Not found: this port serves GET /metrics only\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final RequestMetrics requests;
    // Without created timestamps: the text format's _created series double the output for nothing.
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.builder()
            .setIncludeCreatedTimestamps(false).build();

    public MetricsEndpoint(Engine engine) {
        this.requests = new RequestMetrics(registry, engine.catalog());
        if (engine.capacityMeter().admission() instanceof Throughput throughput) {
            registry.register(new CapacityMetrics(throughput));
        }
        registry.register(new VectorMetrics(engine.capacityMeter().vectorBytes()));
        registry.register(new ReplicationMetrics(engine.globalTables().latencies(), engine.config().region()));
    }

    /** Where the endpoint records each request. */
    public RequestMetrics requests() { return requests; }

    /** True for {@code GET /metrics} (with any query string, which Prometheus may add). */
    public static boolean isScrape(HttpRequestData request) {
        return request.method().equals("GET") && request.path().equals(PATH);
    }

    /** The metrics now, as Prometheus reads them. */
    public HttpReply scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
        try {
            writer.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new HttpReply(200, out.toByteArray()).header("Content-Type", CONTENT_TYPE);
    }

    /** The whole of the --metrics-port server: the scrape, and 404 for anything else. */
    public HttpReply handleMetricsPort(HttpRequestData request) {
        if (isScrape(request)) return scrape();
        return new HttpReply(404, NOT_FOUND).header("Content-Type", "text/plain");
    }
}
