package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver sessions Stator opens to a Cassandra cluster: the server's ({@code --storage
 * cassandra}) and the harness's ({@link CassandraCluster}), with one set of settings.
 */
public final class CassandraSessions {

    /** CQL's port, where a contact point names none. */
    public static final int DEFAULT_PORT = 9042;

    /** The requests' timeout: on 2 cores a settling cluster pauses for seconds. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private CassandraSessions() {}

    /**
     * A session to the cluster of these contact points (resolved here), routing requests to the
     * nodes of {@code localDatacenter}. Throws the driver's {@code AllNodesFailedException} when no
     * contact point answers.
     */
    public static CqlSession open(List<InetSocketAddress> contactPoints, String localDatacenter) {
        return CqlSession.builder()
                .addContactPoints(resolve(contactPoints))
                .withLocalDatacenter(localDatacenter)
                .withConfigLoader(config().build())
                .build();
    }

    /** The settings of every session; a caller may add its own before {@code build()}. */
    public static ProgrammaticDriverConfigLoaderBuilder config() {
        return DriverConfigLoader.programmaticBuilder()
                // Protocol v5 fails here: under lightweight-transaction contention the driver
                // (4.19) could not decode an error frame from Cassandra 5.0.9 (IndexOutOfBounds
                // in the frame decoder) and closed the connection; v4 reports the same contention
                // as a CAS write timeout.
                .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, REQUEST_TIMEOUT)
                .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(10));
    }

    /**
     * {@code HOST[:PORT],HOST[:PORT],...} as unresolved addresses (port {@value #DEFAULT_PORT} when
     * none is given; an IPv6 address with a port in brackets, {@code [::1]:9042}). Throws
     * IllegalArgumentException naming the part that is not an address.
     */
    public static List<InetSocketAddress> contactPoints(String text) {
        List<InetSocketAddress> points = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String s = part.trim();
            String host = s;
            String port = null;
            if (s.startsWith("[")) {
                int close = s.indexOf(']');
                if (close < 0) throw notAnAddress(part);
                host = s.substring(1, close);
                String rest = s.substring(close + 1);
                if (!rest.isEmpty()) {
                    if (!rest.startsWith(":")) throw notAnAddress(part);
                    port = rest.substring(1);
                }
            } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':')) {
                host = s.substring(0, s.indexOf(':'));
                port = s.substring(s.indexOf(':') + 1);
            }
            if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace)) throw notAnAddress(part);
            int number = DEFAULT_PORT;
            if (port != null) {
                if (!port.matches("[0-9]{1,5}")) throw notAnAddress(part);
                number = Integer.parseInt(port);
                if (number < 1 || number > 65535) throw notAnAddress(part);
            }
            points.add(InetSocketAddress.createUnresolved(host, number));
        }
        return points;
    }

    /** The addresses, resolved; IllegalArgumentException naming one that does not resolve. */
    public static List<InetSocketAddress> resolve(List<InetSocketAddress> addresses) {
        List<InetSocketAddress> resolved = new ArrayList<>();
        for (InetSocketAddress a : addresses) {
            InetSocketAddress r = a.isUnresolved() ? new InetSocketAddress(a.getHostString(), a.getPort()) : a;
            if (r.isUnresolved()) {
                throw new IllegalArgumentException("cannot resolve " + a.getHostString());
            }
            resolved.add(r);
        }
        return resolved;
    }

    private static IllegalArgumentException notAnAddress(String part) {
        return new IllegalArgumentException("'" + part.trim() + "' is not HOST[:PORT]");
    }
}
