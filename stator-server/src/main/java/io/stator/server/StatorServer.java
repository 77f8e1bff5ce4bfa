package io.stator.server;

import io.netty.handler.ssl.SslContext;
import io.stator.engine.Engine;
import io.stator.server.access.AccessControl;
import io.stator.server.access.Authorizer;
import io.stator.server.advisor.AdvisorEndpoint;
import io.stator.server.console.ConsoleEndpoint;
import io.stator.server.access.IdentityPolicies;
import io.stator.server.api.Actions;
import io.stator.server.protocol.ServiceModel;
import io.stator.server.transfer.DirectoryObjectStore;
import io.stator.server.transfer.ObjectStore;
import io.stator.server.transfer.S3ObjectStore;
import io.stator.server.kinesis.KinesisDataStreams;
import io.stator.server.transfer.Transfers;
import io.stator.server.auth.Caller;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4Authenticator;
import io.stator.server.auth.SignedRequest;
import io.stator.server.http.EarlyReplies;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import io.stator.server.http.NettyHttpServer;
import io.stator.server.http.RequestHandler;
import io.stator.server.http.TlsContexts;
import io.stator.server.metrics.MetricsEndpoint;
import io.stator.server.replication.ReplicationEndpoint;
import io.stator.storage.Storage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Predicate;

/**
 * A running Stator: storage, engine and HTTP endpoint, assembled from {@link ServerOptions}.
 * The command line runs one; tests start one on a free port.
 */
public final class StatorServer implements AutoCloseable {

    /** Request worker threads: enough to keep a synced disk busy with group commits. */
    private static final int REQUEST_THREADS = 32;

    /**
     * How many workers lengthy requests (reads of many items) may hold at once: one per core, so
     * that however many Scans arrive, the event loops and the other requests still get a core's
     * share each and find a worker free.
     */
    static final int LENGTHY_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    /**
     * The same on Cassandra, where a Query or a Scan page spends its time waiting for the
     * cluster's replies rather than on a core: one per core would leave two Queries in flight on
     * two cores, and the cluster idle (measured: docs/cassandra.md, "Cost per operation").
     */
    static final int LENGTHY_THREADS_ON_CASSANDRA = REQUEST_THREADS / 2;

    /** Threads of the --metrics-port server: a scrape every few seconds needs no more. */
    private static final int METRICS_THREADS = 1;

    private final Engine engine;
    private final NettyHttpServer http;
    private final NettyHttpServer metricsHttp;
    private final String endpoint;
    private final Transfers transfers;

    private StatorServer(Engine engine, Transfers transfers, NettyHttpServer http, NettyHttpServer metricsHttp,
                         String endpoint) {
        this.engine = engine;
        this.transfers = transfers;
        this.http = http;
        this.metricsHttp = metricsHttp;
        this.endpoint = endpoint;
    }

    /**
     * Starts reading, in the background, what a server needs whatever its options (RocksDB's
     * library, the service model from which requests are read), so that it overlaps parsing the
     * command line: some 100 ms of a cold start otherwise spent after it. A start that needs either
     * first waits for it (the library's load is synchronized; the model is a class's initialization).
     */
    public static void preload() {
        Thread.ofPlatform().daemon().name("stator-preload").start(() -> {
            StorageBackends.preload();
            ServiceModel.get();
        });
    }

    /**
     * Opens the storage and the engine on one thread while the HTTP server starts on this one:
     * each takes about half a second of a cold JVM's startup, and the machine has cores to spare
     * at that moment. A request that arrives before the engine is open waits for it.
     */
    public static StatorServer start(ServerOptions options) throws Exception {
        // Read before anything is opened: a certificate that cannot be used stops the start
        // before the data directory is touched.
        SslContext tls = options.tls() ? TlsContexts.server(options.tlsCertificateFile(), options.tlsKeyFile()) : null;
        SigV4Authenticator authenticator = options.credentialsFile() == null
                ? SigV4Authenticator.anonymous(options.clock())
                : SigV4Authenticator.builder()
                        .credentials(Credentials.load(options.credentialsFile()))
                        .clock(options.clock())
                        .region(options.region())
                        .build();
        AccessControl accessControl = accessControl(options);
        CompletableFuture<Engine> opening = new CompletableFuture<>();
        Thread.ofPlatform().name("stator-open").start(() -> {
            try {
                opening.complete(openEngine(options));
            } catch (Throwable t) {
                opening.completeExceptionally(t);
            }
        });
        CompletableFuture<DynamoDbEndpoint> ready = new CompletableFuture<>();
        // On shared storage every request is a network round trip: none is brief there.
        Predicate<HttpRequestData> brief = options.cassandra() != null ? request -> false
                : DynamoDbEndpoint.briefRequests(!options.fsync());
        Predicate<HttpRequestData> lengthy = DynamoDbEndpoint.lengthyRequests();
        NettyHttpServer http;
        try {
            http = NettyHttpServer.start(options.host(), options.port(), REQUEST_THREADS,
                    options.cassandra() != null ? LENGTHY_THREADS_ON_CASSANDRA : LENGTHY_THREADS, tls,
                    options.connectionLimits(), new RequestHandler() {
                        @Override
                        public HttpReply handle(HttpRequestData request) {
                            return ready.join().handle(request);
                        }

                        /** While requests wait for memory, brief ones join them on the workers. */
                        @Override
                        public boolean isBrief(HttpRequestData request) {
                            return ready.isDone() && brief.test(request) && ready.join().hasRoomForBrief();
                        }

                        @Override
                        public HttpReply handleBrief(HttpRequestData request) {
                            return ready.join().handleBrief(request);
                        }

                        @Override
                        public boolean isLengthy(HttpRequestData request) {
                            return lengthy.test(request);
                        }

                        @Override
                        public EarlyReplies.BodyJudge judge(HttpRequestData head) {
                            return ready.isDone() ? ready.join().judge(head) : null;
                        }
                    });
        } catch (Exception | Error e) {
            closeWhenOpen(opening);
            throw e;
        }
        Engine engine;
        try {
            engine = opening.join();
        } catch (CompletionException e) {
            http.close();
            throw rethrowable(e.getCause());
        }
        // The endpoint address is known once bound; DescribeEndpoints reads it lazily.
        String address = hostForUrl(options.host()) + ":" + http.port();
        Transfers transfers;
        try {
            transfers = new Transfers(engine, objectStore(options));
        } catch (Exception | Error e) {
            http.close();
            engine.close();
            throw e;
        }
        engine.kinesis().deliverTo(options.kinesisEndpoint() == null ? null
                : new KinesisDataStreams(options.kinesisEndpoint(), options.region()));
        Actions actions = new Actions(engine, () -> address, transfers);
        MetricsEndpoint metrics = new MetricsEndpoint(engine);
        DynamoDbEndpoint.Authenticator signatures = signatures(authenticator);
        // With --policies the advisor's answers (keys, traffic) go to signed and authorized callers
        // only; without, to whoever reaches the port, as the metrics do.
        AdvisorEndpoint advisor = new AdvisorEndpoint(engine, options.advisorScale(), request -> accessControl == null ? Authorizer.UNCHECKED
                : accessControl.authorizer(signatures.authenticate(request).accessKeyId()));
        // The console is served where the metrics are, read-only (docs/console.md).
        ConsoleEndpoint console = options.console() ? new ConsoleEndpoint(advisor) : null;
        NettyHttpServer metricsHttp = null;
        if (options.metricsPort() >= 0) {
            try {
                metricsHttp = NettyHttpServer.start(options.host(), options.metricsPort(), METRICS_THREADS,
                        METRICS_THREADS, tls, options.connectionLimits(), request -> {
                            if (AdvisorEndpoint.isAdvisor(request)) return advisor.handle(request);
                            if (console != null && ConsoleEndpoint.isConsole(request)) return console.handle(request);
                            return metrics.handleMetricsPort(request);
                        });
            } catch (Exception | Error e) {
                http.close();
                transfers.close();
                engine.close();
                if (e instanceof java.net.BindException) {
                    // Not a BindException: the command line would blame --port.
                    throw new java.io.IOException("cannot listen on " + options.host() + ":" + options.metricsPort()
                            + " (--metrics-port): " + e.getMessage(), e);
                }
                throw e;
            }
        }
        ReplicationEndpoint replication;
        try {
            replication = ReplicationEndpoint.start(engine, options.region(), options.replication(), options.clock(),
                    options.host(), (tls == null ? "http://" : "https://") + "%s:" + http.port(),
                    options.inMemory() ? null : options.dataDirectory());
        } catch (Exception | Error e) {
            http.close();
            if (metricsHttp != null) metricsHttp.close();
            transfers.close();
            engine.close();
            throw e;
        }
        ready.complete(new DynamoDbEndpoint(actions, signatures, accessControl, options.region(),
                metrics.requests(), options.metricsOnMainPort() ? metrics : null,
                RequestMemory.ofThisJvm(NettyHttpServer.maxDirectMemory()),
                options.metricsOnMainPort() || accessControl != null ? advisor : null,
                options.metricsOnMainPort() ? console : null, replication));
        return new StatorServer(engine, transfers, http, metricsHttp, (tls == null ? "http://" : "https://") + address);
    }

    /** The endpoint's view of the SigV4 check: a request's signature, or what its headers already refuse. */
    private static DynamoDbEndpoint.Authenticator signatures(SigV4Authenticator authenticator) {
        return new DynamoDbEndpoint.Authenticator() {
            @Override
            public Caller authenticate(HttpRequestData request) {
                return authenticator.authenticate(signed(request));
            }

            @Override
            public void checkHeaders(HttpRequestData head) {
                authenticator.checkHeaders(signed(head));
            }

            private static SignedRequest signed(HttpRequestData request) {
                return SignedRequest.of(request.method(), request.path(), request.query(), request.headers(),
                        request.body());
            }
        };
    }

    /**
     * Where exports go and imports come from: a real S3-compatible endpoint with --s3-endpoint,
     * else a directory (--s3-dir; by default {@code <data dir>/s3}, the temporary directory's
     * {@code stator-s3} in memory).
     */
    private static ObjectStore objectStore(ServerOptions options) throws java.io.IOException {
        if (options.s3Endpoint() != null) return new S3ObjectStore(options.s3Endpoint(), options.region());
        if (options.s3Directory() != null) return new DirectoryObjectStore(options.s3Directory());
        if (options.inMemory() || options.dataDirectory() == null) {
            // Created on the first export, not at every start.
            return new DirectoryObjectStore(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "stator-s3"));
        }
        return new DirectoryObjectStore(options.dataDirectory().resolve("s3"));
    }

    /** The storage (StorageBackends: RocksDB, or Cassandra with --storage cassandra) and the engine on it. */
    private static Engine openEngine(ServerOptions options) throws java.io.IOException {
        Storage storage = StorageBackends.open(options);
        try {
            return new Engine(storage, options.engineConfig());
        } catch (RuntimeException | Error e) {
            try {
                storage.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Who may do what: the --policies file's identity-based policies for the keys of the
     * credentials file, whose signatures identify callers. Policies need verified signatures
     * (without them anyone could claim any key), and a policy for a key the credentials file does
     * not have is a mistake worth refusing to start over. Null without --policies.
     */
    private static AccessControl accessControl(ServerOptions options) throws java.io.IOException {
        if (options.policiesFile() == null) return null;
        if (options.credentialsFile() == null) {
            throw new IllegalArgumentException("--policies needs --credentials: without verified signatures any "
                    + "caller could claim any access key");
        }
        IdentityPolicies policies = IdentityPolicies.load(options.policiesFile());
        Credentials credentials = Credentials.load(options.credentialsFile());
        for (String accessKeyId : policies.accessKeyIds()) {
            if (!credentials.contains(accessKeyId)) {
                throw new IllegalArgumentException(options.policiesFile() + ": access key '" + accessKeyId
                        + "' is not in the credentials file " + options.credentialsFile());
            }
        }
        return new AccessControl(policies, options.accountId(), options.clock());
    }

    private static void closeWhenOpen(CompletableFuture<Engine> opening) {
        try {
            opening.join().close();
        } catch (CompletionException ignored) {
            // It did not open: nothing to close, and the caller's error is the one to report.
        }
    }

    private static Exception rethrowable(Throwable cause) {
        if (cause instanceof Error error) throw error;
        return (Exception) cause;
    }

    /** The URL clients connect to, e.g. {@code http://127.0.0.1:8000} ({@code https://} with TLS). */
    public String endpoint() { return endpoint; }

    public int port() { return http.port(); }

    /** The port of --metrics-port's server, or -1 without one. */
    public int metricsPort() { return metricsHttp == null ? -1 : metricsHttp.port(); }

    /** The server's exports and imports (and where their files are). */
    public Transfers transfers() { return transfers; }

    /** The engine behind the endpoint, for code that embeds Stator (and tests that reach past the API). */
    public Engine engine() { return engine; }

    /** Stops serving, then closes the storage (flushing nothing that is not already durable). */
    @Override
    public void close() {
        try {
            http.close();
        } finally {
            try {
                if (metricsHttp != null) metricsHttp.close();
            } finally {
                try {
                    transfers.close();
                } finally {
                    engine.close();
                }
            }
        }
    }

    static String hostForUrl(String host) {
        if (host.contains(":")) return "[" + host + "]";
        return host;
    }
}
