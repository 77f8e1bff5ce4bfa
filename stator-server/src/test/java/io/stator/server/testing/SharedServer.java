package io.stator.server.testing;

import io.stator.server.ServerOptions;
import java.net.URI;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * One {@link StatorTestServer} for all the tests of a class, started before the first and closed
 * after the last (a server per test would cost more than most tests do):
 * <pre>
 * &#64;RegisterExtension
 * static final SharedServer server = new SharedServer();
 * </pre>
 */
public final class SharedServer implements BeforeAllCallback, AfterAllCallback {

    private final UnaryOperator<ServerOptions> options;
    private StatorTestServer server;

    public SharedServer() {
        this(options -> options);
    }

    /** A server with options adjusted (a {@link TestClock}, say). */
    public SharedServer(UnaryOperator<ServerOptions> options) {
        this.options = options;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = StatorTestServer.start(options);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    /** The server's client (a new one after {@link #restart}). */
    public DynamoDbClient client() { return server.client(); }

    /** Stops the server and starts it again on the same port and directory. */
    public void restart() { server.restart(); }

    public DynamoDbClient newClient(ExecutionInterceptor... interceptors) { return server.newClient(interceptors); }

    /** A client signing with another access key. */
    public DynamoDbClient newClient(String accessKey, String secretKey) { return server.newClient(accessKey, secretKey); }

    public URI endpoint() { return server.endpoint(); }

    public int port() { return server.port(); }

    /** The server's engine, for tests that must act inside it (hold a transaction open, say). */
    public io.stator.engine.Engine engine() { return server.engine(); }
}
