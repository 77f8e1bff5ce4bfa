package io.stator.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Several Stators, each a separate JVM ({@link StatorProcess}) acting as one region of a test, so
 * that a test can stop one (SIGSTOP: it holds its connections and answers nothing, as a region cut
 * off by the network), resume it, or kill it (SIGKILL) and start it again over the same data:
 * <pre>
 * try (Regions regions = Regions.start(List.of("us-east-1", "us-west-2", "eu-west-1"),
 *         (region, endpoints) -> List.of("--replica-peers", peersOf(region, endpoints)))) {
 *     regions.client("us-west-2").putItem(...);
 *     regions.pause("eu-west-1");
 * }
 * </pre>
 * The ports are chosen before any region starts, so each region's options can name the others'
 * endpoints; a region keeps its port, data directory and options when restarted. The ports are
 * free when chosen and then closed again for the regions to bind: another process could take one
 * in between, which would fail that start (the failure shows the region's stderr).
 */
public final class Regions implements AutoCloseable {

    /** A region's own Stator options, given every region's endpoint (its own included). */
    @FunctionalInterface
    public interface Options {
        List<String> of(String region, Map<String, URI> endpoints);
    }

    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m");

    private final Path directory;
    private final Map<String, Member> members; // in the order given

    /** One region: what it was started with, and its process while it runs. */
    private static final class Member {
        final String region;
        final URI endpoint;
        final Path data;
        final Path stderr;
        final List<String> options;
        final DynamoDbClient client;
        StatorProcess process; // null once killed
        boolean paused;

        Member(String region, URI endpoint, Path directory, List<String> options) {
            this.region = region;
            this.endpoint = endpoint;
            this.data = directory.resolve("data");
            this.stderr = directory.resolve("stderr.txt");
            this.options = options;
            this.client = StatorTestServer.newClient(endpoint, region, StatorTestServer.ACCESS_KEY,
                    StatorTestServer.SECRET_KEY);
        }

        void start() throws IOException, InterruptedException {
            // On Cassandra (TestBackend) a region is a keyspace of its own, named in its options.
            process = StatorProcess.start(TestBackend.cassandra() ? null : data, stderr, JVM_OPTIONS, options);
            paused = false;
            if (process.endpoint().getPort() != endpoint.getPort()) {
                throw new IllegalStateException(region + " listens on " + process.endpoint() + ", not " + endpoint);
            }
        }
    }

    private Regions(Path directory, Map<String, Member> members) {
        this.directory = directory;
        this.members = members;
    }

    /** Regions without options of their own. */
    public static Regions start(List<String> regions) throws IOException, InterruptedException {
        return start(regions, (region, endpoints) -> List.of());
    }

    /**
     * Starts a Stator per region, at once, each with {@code --region <name> --port <its port>}, a
     * data directory of its own under a new temporary directory, and {@code options}; returns when
     * all listen. If one fails to start, the others are stopped and the failure says why.
     */
    public static Regions start(List<String> regions, Options options) throws IOException, InterruptedException {
        if (regions.isEmpty() || regions.stream().distinct().count() != regions.size()) {
            throw new IllegalArgumentException("regions must be distinct and at least one: " + regions);
        }
        Path directory = Files.createTempDirectory("stator-regions-");
        Map<String, URI> endpoints = new LinkedHashMap<>();
        // On Cassandra each region's server hosts its MRSC consensus member on a port of its own.
        List<Integer> ports = freePorts(regions.size() * (TestBackend.cassandra() ? 2 : 1));
        for (int i = 0; i < regions.size(); i++) {
            endpoints.put(regions.get(i), URI.create("http://127.0.0.1:" + ports.get(i)));
        }
        Map<String, URI> given = Collections.unmodifiableMap(endpoints);
        Map<String, Member> members = new LinkedHashMap<>();
        for (int i = 0; i < regions.size(); i++) {
            String region = regions.get(i);
            List<String> command = new ArrayList<>(List.of("--region", region,
                    "--port", Integer.toString(endpoints.get(region).getPort())));
            command.addAll(backendOptions(directory, region));
            if (TestBackend.cassandra()) {
                command.addAll(List.of("--consensus-port", Integer.toString(ports.get(regions.size() + i)),
                        "--data-dir", directory.resolve(region).resolve("data").toString()));
            }
            command.addAll(options.of(region, given));
            Path own = Files.createDirectories(directory.resolve(region));
            members.put(region, new Member(region, endpoints.get(region), own, List.copyOf(command)));
        }
        Regions started = new Regions(directory, members);
        ExecutorService pool = Executors.newFixedThreadPool(regions.size());
        try {
            List<Future<?>> starts = new ArrayList<>();
            for (Member m : members.values()) {
                starts.add(pool.submit(() -> {
                    m.start();
                    return null;
                }));
            }
            Throwable failure = null;
            for (Future<?> s : starts) { // every start ends (listens or fails within a minute) before any is closed
                try {
                    s.get();
                } catch (ExecutionException e) {
                    if (failure == null) failure = e.getCause();
                }
            }
            if (failure != null) {
                started.close();
                throw new IllegalStateException("a region did not start: " + failure.getMessage(), failure);
            }
            return started;
        } catch (InterruptedException e) {
            pool.shutdownNow(); // a start interrupted kills its process
            started.close();
            throw e;
        } finally {
            pool.shutdown();
        }
    }

    /**
     * The region's storage options: none on RocksDB (a data directory each); on Cassandra
     * (TestBackend), the tests' cluster and a keyspace of the region's own, named after these
     * regions' directory, so that a restart finds the region's data again (and, added by the
     * caller, a consensus port and the directory of its Raft logs).
     */
    private static List<String> backendOptions(Path directory, String region) {
        if (!TestBackend.cassandra()) return List.of();
        String contactPoints = io.stator.storage.cassandra.CassandraCluster.shared().contactPoints().stream()
                .map(a -> a.getHostString() + ":" + a.getPort()).collect(java.util.stream.Collectors.joining(","));
        String id = Integer.toUnsignedString(directory.getFileName().toString().hashCode(), 36);
        String keyspace = ("stator_rg_" + id + "_" + region).replace('-', '_'); // at most 48 characters
        return List.of("--storage", "cassandra", "--cassandra", contactPoints, "--keyspace", keyspace, "--replication", "3");
    }

    /** {@code count} distinct ports free now: all are held open until each is chosen. */
    public static List<Integer> freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            return held.stream().map(ServerSocket::getLocalPort).toList();
        } finally {
            for (ServerSocket s : held) s.close();
        }
    }

    /** The regions, in the order given. */
    public List<String> regions() { return List.copyOf(members.keySet()); }

    /** Every region's endpoint, in the order given. */
    public Map<String, URI> endpoints() {
        Map<String, URI> endpoints = new LinkedHashMap<>();
        members.forEach((region, m) -> endpoints.put(region, m.endpoint));
        return endpoints;
    }

    public URI endpoint(String region) { return member(region).endpoint; }

    /**
     * A client of the region, signed for it (StatorTestServer's credentials), which does not retry
     * and waits up to 30 seconds for an answer. The same client before and after a restart.
     */
    public DynamoDbClient client(String region) { return member(region).client; }

    /** The region's data directory. */
    public Path dataDirectory(String region) { return member(region).data; }

    /**
     * A new client of the region that gives up on a request after {@code timeout} (to see that a
     * paused region does not answer, say). Close it when done.
     */
    public DynamoDbClient newClient(String region, Duration timeout) {
        Member m = member(region);
        return DynamoDbClient.builder()
                .endpointOverride(m.endpoint)
                .region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(timeout).socketTimeout(timeout).build())
                .overrideConfiguration(b -> b.retryStrategy(RetryMode.STANDARD).retryStrategy(r -> r.maxAttempts(1))
                        .apiCallTimeout(timeout))
                .build();
    }

    /** The region's process id, which changes when it is restarted. */
    public synchronized long pid(String region) { return running(region).pid(); }

    /** Whether the region's process runs (paused or not). */
    public synchronized boolean isRunning(String region) {
        StatorProcess p = member(region).process;
        return p != null && p.isAlive();
    }

    /** What the region's server wrote to stderr, over all its starts, for failure messages. */
    public String stderrText(String region) {
        try {
            Path stderr = member(region).stderr;
            return Files.exists(stderr) ? Files.readString(stderr) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGSTOP: the region's process stops where it is; connections to it stay open, unanswered. */
    public synchronized void pause(String region) throws IOException, InterruptedException {
        Member m = member(region);
        signal(running(region), "STOP");
        m.paused = true;
    }

    /** SIGCONT: the paused region goes on, and answers what was sent to it meanwhile. */
    public synchronized void resume(String region) throws IOException, InterruptedException {
        Member m = member(region);
        signal(running(region), "CONT");
        m.paused = false;
    }

    /** SIGKILL, paused or not: no shutdown, nothing flushed that was not on its way to disk. */
    public synchronized void kill(String region) throws InterruptedException {
        Member m = member(region);
        StatorProcess p = running(region);
        p.kill();
        p.close();
        m.process = null;
        m.paused = false;
    }

    /**
     * Starts the region again, on its port, over its data, with its options; a region still
     * running is first stopped cleanly (SIGTERM, after SIGCONT if paused). Returns when it listens.
     */
    public synchronized void restart(String region) throws IOException, InterruptedException {
        Member m = member(region);
        if (m.process != null) {
            if (m.paused) signal(m.process, "CONT");
            m.process.stop();
            m.process.close();
            m.process = null;
        }
        m.start();
    }

    private Member member(String region) {
        Member m = members.get(region);
        if (m == null) throw new IllegalArgumentException("no region " + region + " among " + members.keySet());
        return m;
    }

    private StatorProcess running(String region) {
        StatorProcess p = member(region).process;
        if (p == null) throw new IllegalStateException(region + " was killed; restart it first");
        return p;
    }

    /** Sends a signal by name (STOP, CONT) with kill(1): Java sends only TERM and KILL itself. */
    private static void signal(StatorProcess process, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                .redirectErrorStream(true).start();
        String output = new String(kill.getInputStream().readAllBytes());
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: " + output);
        }
    }

    /** Stops every region (resuming paused ones first), closes the clients and deletes the data. */
    @Override
    public synchronized void close() throws InterruptedException {
        try {
            for (Member m : members.values()) {
                if (m.process == null) continue;
                try {
                    if (m.paused) signal(m.process, "CONT");
                } catch (IOException | RuntimeException e) {
                    // killed below all the same
                }
                m.process.close();
                m.process = null;
            }
        } finally {
            members.values().forEach(m -> m.client.close());
            StatorTestServer.deleteRecursively(directory);
        }
    }
}
