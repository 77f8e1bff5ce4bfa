package io.stator.engine.replication.strong;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * Three regions' consensus servers in this JVM, on free localhost ports and temporary
 * directories, with short election timeouts; one MRSC table's group across them. A region can
 * be stopped (its server closed, as a killed process's would be gone) and started again on the
 * same directory, port and store.
 */
final class ThreeRegions implements AutoCloseable {

    static final String TABLE = "Orders";
    /** The production default: proposals take milliseconds, but a loaded machine's elections do not. */
    static final Duration DEADLINE = ConsensusSettings.DEFAULT_DEADLINE;

    private final Map<String, ConsensusSettings> settings = new LinkedHashMap<>();
    private final Map<String, MemoryStore> stores = new LinkedHashMap<>();
    private final Map<String, ConsensusGroups> running = new LinkedHashMap<>();
    private final List<GroupMember> members = new ArrayList<>();

    /** Regions us-east-1, us-east-2 and us-west-2; a witness one if {@code witness} names it. */
    ThreeRegions(Path directory, String witness) throws IOException {
        this(directory, witness, DEADLINE);
    }

    ThreeRegions(Path directory, String witness, Duration deadline) throws IOException {
        for (String region : List.of("us-east-1", "us-east-2", "us-west-2")) {
            String address = "127.0.0.1:" + freePort();
            settings.put(region, ConsensusSettings.of(region, address, directory.resolve(region))
                    .withDeadline(deadline)
                    .withElectionTimeout(Duration.ofMillis(400), Duration.ofMillis(800)));
            stores.put(region, new MemoryStore());
            members.add(region.equals(witness) ? GroupMember.witness(region, address) : GroupMember.replica(region, address));
        }
        for (String region : settings.keySet()) start(region);
        for (ConsensusGroups consensus : running.values()) consensus.join(TABLE, members);
    }

    List<String> regions() { return List.copyOf(settings.keySet()); }

    List<GroupMember> members() { return List.copyOf(members); }

    ConsensusGroups in(String region) { return running.get(region); }

    MemoryStore store(String region) { return stores.get(region); }

    void start(String region) throws IOException {
        MemoryStore store = stores.get(region);
        running.put(region, ConsensusGroups.start(settings.get(region), table -> {
            if (members.stream().anyMatch(m -> m.region().equals(region) && m.role() == GroupMember.Role.WITNESS)) {
                throw new AssertionError("a witness was asked for an item store");
            }
            return store;
        }));
    }

    void stop(String region) throws IOException {
        running.remove(region).close();
    }

    /** The leader, once the running members agree on one. */
    String awaitLeader() {
        await(() -> agreedLeader().isPresent(), Duration.ofSeconds(15), "a leader");
        return agreedLeader().orElseThrow();
    }

    private Optional<String> agreedLeader() {
        List<Optional<String>> seen = running.values().stream().map(c -> c.leader(TABLE)).distinct().toList();
        return seen.size() == 1 && seen.getFirst().filter(running::containsKey).isPresent() ? seen.getFirst() : Optional.empty();
    }

    /** Waits until every running member applied as far as the furthest one. */
    void awaitSameAppliedIndex() {
        await(() -> running.values().stream().map(c -> c.appliedIndex(TABLE)).distinct().count() == 1,
                Duration.ofSeconds(15), "the same applied index everywhere");
    }

    static void await(BooleanSupplier condition, Duration timeout, String what) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) throw new AssertionError("timed out waiting for " + what);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the regions at once: each Ratis server takes most of a second to close. */
    @Override
    public void close() throws IOException {
        List<Thread> closing = new ArrayList<>();
        List<IOException> failures = new CopyOnWriteArrayList<>();
        for (ConsensusGroups consensus : running.values()) {
            closing.add(Thread.ofPlatform().start(() -> {
                try {
                    consensus.close();
                } catch (IOException e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread thread : closing) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        running.clear();
        if (!failures.isEmpty()) throw failures.getFirst();
    }
}
