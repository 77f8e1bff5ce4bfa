package io.stator.server;

import io.stator.engine.EngineConfig;
import java.nio.file.Path;
import java.time.Clock;

/**
 * How to run a Stator server: what the command line sets, and what tests set directly.
 *
 * @param port             0 for any free port
 * @param credentialsFile  null to accept any access key (signatures still must be well formed)
 */
public record ServerOptions(String host, int port, Path dataDirectory, boolean inMemory, boolean fsync,
                            String region, String accountId, Path credentialsFile, Clock clock) {

    public static ServerOptions defaults(Path dataDirectory) {
        return new ServerOptions("127.0.0.1", 8000, dataDirectory, false, false, EngineConfig.DEFAULT_REGION,
                EngineConfig.DEFAULT_ACCOUNT_ID, null, Clock.systemUTC());
    }

    public ServerOptions withPort(int port) {
        return new ServerOptions(host, port, dataDirectory, inMemory, fsync, region, accountId, credentialsFile, clock);
    }

    public ServerOptions withCredentials(Path file) {
        return new ServerOptions(host, port, dataDirectory, inMemory, fsync, region, accountId, file, clock);
    }

    public ServerOptions withClock(Clock clock) {
        return new ServerOptions(host, port, dataDirectory, inMemory, fsync, region, accountId, credentialsFile, clock);
    }

    public ServerOptions withInMemory(boolean inMemory) {
        return new ServerOptions(host, port, dataDirectory, inMemory, fsync, region, accountId, credentialsFile, clock);
    }
}
