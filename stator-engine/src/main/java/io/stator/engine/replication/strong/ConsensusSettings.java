package io.stator.engine.replication.strong;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * A process's consensus server: its region (its Raft peer id in every group), the host:port it
 * listens on, the directory its Raft logs and group records live in (under the data directory),
 * the deadline of a proposal or a linearizable read without a quorum, the Raft election
 * timeout's range (a follower that hears no leader for a random time in it stands for election),
 * and its mutual TLS with the peer regions ({@link ConsensusTls}; null: plain, for tests of the
 * consensus alone).
 */
public record ConsensusSettings(String region, String address, Path directory, Duration deadline,
                                Duration electionTimeoutMin, Duration electionTimeoutMax, ConsensusTls tls) {

    /**
     * Eight seconds: room for an election (a member that missed its leader's heartbeats through a
     * loaded machine's pause) within one request; a client's retry is cheaper than a request
     * left hanging longer.
     */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(8);
    /** 1.5 to 3 seconds: regions apart by a WAN round trip, and a pause of a loaded machine is no election. */
    public static final Duration DEFAULT_ELECTION_TIMEOUT_MIN = Duration.ofMillis(1500);
    public static final Duration DEFAULT_ELECTION_TIMEOUT_MAX = Duration.ofSeconds(3);

    public ConsensusSettings {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(directory, "directory");
        port(address);
        if (deadline.isNegative() || deadline.isZero()) throw new IllegalArgumentException("deadline must be positive");
        if (electionTimeoutMin.isNegative() || electionTimeoutMin.isZero()
                || electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
            throw new IllegalArgumentException("election timeouts must be 0 < min < max");
        }
    }

    public static ConsensusSettings of(String region, String address, Path directory) {
        return new ConsensusSettings(region, address, directory, DEFAULT_DEADLINE, DEFAULT_ELECTION_TIMEOUT_MIN,
                DEFAULT_ELECTION_TIMEOUT_MAX, null);
    }

    public ConsensusSettings withDeadline(Duration deadline) {
        return new ConsensusSettings(region, address, directory, deadline, electionTimeoutMin, electionTimeoutMax, tls);
    }

    public ConsensusSettings withElectionTimeout(Duration min, Duration max) {
        return new ConsensusSettings(region, address, directory, deadline, min, max, tls);
    }

    public ConsensusSettings withTls(ConsensusTls tls) {
        return new ConsensusSettings(region, address, directory, deadline, electionTimeoutMin, electionTimeoutMax, tls);
    }

    String host() {
        return address.substring(0, address.lastIndexOf(':'));
    }

    int port() {
        return port(address);
    }

    private static int port(String address) {
        int colon = address.lastIndexOf(':');
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (colon < 1 || port < 1 || port > 65535) throw new NumberFormatException();
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a host:port: " + address);
        }
    }
}
