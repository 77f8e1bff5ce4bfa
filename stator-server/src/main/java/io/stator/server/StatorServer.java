package io.stator.server;

import io.stator.engine.Engine;
import io.stator.server.api.Actions;
import io.stator.server.auth.Credentials;
import io.stator.server.auth.SigV4Authenticator;
import io.stator.server.auth.SignedRequest;
import io.stator.server.http.NettyHttpServer;
import io.stator.storage.rocksdb.RocksStorage;

/**
 * A running Stator: storage, engine and HTTP endpoint, assembled from {@link ServerOptions}.
 * The command line runs one; tests start one on a free port.
 */
public final class StatorServer implements AutoCloseable {

    /** Request worker threads: enough to keep a synced disk busy with group commits. */
    private static final int REQUEST_THREADS = 32;

    private final Engine engine;
    private final NettyHttpServer http;
    private final String endpoint;

    private StatorServer(Engine engine, NettyHttpServer http, String endpoint) {
        this.engine = engine;
        this.http = http;
        this.endpoint = endpoint;
    }

    public static StatorServer start(ServerOptions options) throws Exception {
        SigV4Authenticator authenticator = options.credentialsFile() == null
                ? SigV4Authenticator.anonymous(options.clock())
                : SigV4Authenticator.verifying(Credentials.load(options.credentialsFile()), options.clock());
        RocksStorage storage = RocksStorage.builder(options.dataDirectory())
                .inMemory(options.inMemory())
                .fsync(options.fsync())
                .open();
        Engine engine = new Engine(storage, options.engineConfig());
        try {
            // The endpoint address is known once bound; DescribeEndpoints reads it lazily.
            String[] address = new String[1];
            Actions actions = new Actions(engine, () -> address[0]);
            DynamoDbEndpoint endpoint = new DynamoDbEndpoint(actions, request -> authenticator.authenticate(
                    SignedRequest.of(request.method(), request.path(), request.query(), request.headers(),
                            request.body())), options.region());
            NettyHttpServer http = NettyHttpServer.start(options.host(), options.port(), REQUEST_THREADS,
                    endpoint::handle);
            address[0] = hostForUrl(options.host()) + ":" + http.port();
            return new StatorServer(engine, http, "http://" + address[0]);
        } catch (Exception | Error e) {
            engine.close();
            throw e;
        }
    }

    /** The URL clients connect to, e.g. {@code http://127.0.0.1:8000}. */
    public String endpoint() { return endpoint; }

    public int port() { return http.port(); }

    /** Stops serving, then closes the storage (flushing nothing that is not already durable). */
    @Override
    public void close() {
        try {
            http.close();
        } finally {
            engine.close();
        }
    }

    static String hostForUrl(String host) {
        if (host.contains(":")) return "[" + host + "]";
        return host;
    }
}
