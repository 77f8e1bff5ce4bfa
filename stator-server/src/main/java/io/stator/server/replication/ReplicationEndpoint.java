package io.stator.server.replication;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where peer regions send this one their messages ({@code POST /_stator/replication/v1/<message>}),
 * beside the DynamoDB API on its port: checked against the shared secret ({@link PeerSignatures}),
 * then handed to the engine ({@code GlobalTables.receive}), which alone reads them. A refusal
 * answers 400 with "Type: message"; the sender keeps its message and tries again. With
 * {@code --replication-faults}, {@code POST /_stator/replication/faults} sets the fault hook:
 * {@code {"drop": ["us-west-2"], "delayMillis": {"us-west-2": 500}}} (an empty object clears it).
 */
public final class ReplicationEndpoint {

    static final String PREFIX = "/_stator/replication/v1/";
    static final String FAULTS = "/_stator/replication/faults";

    private final Engine engine;
    private final PeerSignatures signatures;
    private final Clock clock;
    private final ReplicationFaults faults;
    private final boolean faultsServed;

    private ReplicationEndpoint(Engine engine, PeerSignatures signatures, Clock clock, ReplicationFaults faults,
                                boolean faultsServed) {
        this.engine = engine;
        this.signatures = signatures;
        this.clock = clock;
        this.faults = faults;
        this.faultsServed = faultsServed;
    }

    /** Made only for the faults a test sets: a mapper costs some 20 ms of every start otherwise. */
    private static final class FaultsJson {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    /**
     * Connects the engine's global tables to the peers and returns the endpoint they send to, or
     * null when this region has no peers (every table stays regional). Several servers sharing
     * the store (Cassandra): the one given {@code --consensus-port} hosts the region's consensus
     * member, and the others hand it their MRSC work.
     *
     * @param endpoint this server's URL with {@code %s} for its host, where the region's other
     *                 servers reach it
     */
    public static ReplicationEndpoint start(Engine engine, String region, ReplicationOptions options, Clock clock,
                                           String host, String endpoint, Path dataDirectory) throws IOException {
        if (options.peers().isEmpty()) return null;
        PeerSignatures signatures = new PeerSignatures(options.secret());
        ReplicationFaults faults = new ReplicationFaults();
        HttpPeerLinks links = new HttpPeerLinks(region, options.peers(), signatures, clock, faults);
        if (engine.globalTables().severalServers() && options.consensusPort() == 0) {
            engine.globalTables().connect(links, options.tombstoneRetention());
            return new ReplicationEndpoint(engine, signatures, clock, faults, options.faults());
        }
        Path consensus = dataDirectory == null ? Files.createTempDirectory("stator-consensus-")
                : dataDirectory.resolve("consensus");
        Files.createDirectories(consensus);
        String advertised = advertised(host);
        String address = advertised + ":" + consensusPort(options.consensusPort(), consensus);
        engine.globalTables().connect(links, options.tombstoneRetention(), address, consensus,
                endpoint.formatted(advertised.contains(":") ? "[" + advertised + "]" : advertised));
        return new ReplicationEndpoint(engine, signatures, clock, faults, options.faults());
    }

    /** The host peers reach this one's consensus server on: the host it listens on, or its name when on every address. */
    private static String advertised(String host) throws IOException {
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            return InetAddress.getLocalHost().getHostAddress();
        }
        return host;
    }

    /**
     * The consensus server's port: the one given, else the one kept in its directory (the Raft
     * groups know this member by its address), else a free one now; kept there.
     */
    private static int consensusPort(int given, Path directory) throws IOException {
        Path kept = directory.resolve("port");
        if (given != 0) {
            Files.writeString(kept, Integer.toString(given));
            return given;
        }
        if (Files.exists(kept)) return Integer.parseInt(Files.readString(kept).trim());
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Files.writeString(kept, Integer.toString(port));
        return port;
    }

    public static boolean isReplication(HttpRequestData request) {
        return request.path().startsWith("/_stator/replication/");
    }

    public HttpReply handle(HttpRequestData request) {
        if (!"POST".equals(request.method())) return text(405, "MethodNotAllowed: POST only");
        if (request.path().equals(FAULTS)) return faultsServed ? setFaults(request) : text(404, "NotFound: no fault hook");
        if (!request.path().startsWith(PREFIX)) return text(404, "NotFound: " + request.path());
        String message = request.path().substring(PREFIX.length());
        byte[] body = request.body() == null ? new byte[0] : request.body();
        String from = request.header(PeerSignatures.REGION);
        if (!signatures.verify(message, from, request.header(PeerSignatures.TIMESTAMP), body,
                request.header(PeerSignatures.SIGNATURE), clock.millis())) {
            return text(403, "AccessDenied: not signed with this deployment's replication secret");
        }
        try {
            return new HttpReply(200, engine.globalTables().receive(from, message, body))
                    .header("content-type", "application/octet-stream");
        } catch (DynamoDbException e) {
            return text(400, e.type().shortName() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            return text(500, "InternalServerError: " + e);
        }
    }

    private HttpReply setFaults(HttpRequestData request) {
        try {
            JsonNode json = FaultsJson.MAPPER.readTree(request.body() == null ? new byte[0] : request.body());
            Set<String> drop = new HashSet<>();
            Map<String, Long> delays = new HashMap<>();
            if (json != null && json.has("drop")) json.get("drop").forEach(r -> drop.add(r.asText()));
            if (json != null && json.has("delayMillis")) {
                json.get("delayMillis").fields().forEachRemaining(e -> delays.put(e.getKey(), e.getValue().asLong()));
            }
            faults.set(drop, delays);
            return text(200, "OK");
        } catch (IOException e) {
            return text(400, "ValidationException: " + e.getMessage());
        }
    }

    private static HttpReply text(int status, String text) {
        return new HttpReply(status, text.getBytes(StandardCharsets.UTF_8)).header("content-type", "text/plain");
    }
}
