package io.stator.engine.replication.strong;

import static io.stator.engine.replication.strong.MemoryStore.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * MRSC's consensus on three in-process Ratis servers (localhost ports, temporary directories,
 * 400-800 ms election timeouts): ordering, linearizable reads on a follower, a
 * leader's loss, a witness, the loss of a quorum, and conflicts between regions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsensusGroupsTest {

    @TempDir
    Path directory;

    @Test
    void aProposalOnAFollowerIsAppliedOnEveryReplicaInTheSameOrderAtTheSameIndexes() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            String leader = regions.awaitLeader();
            List<String> followers = regions.regions().stream().filter(r -> !r.equals(leader)).toList();
            for (int i = 0; i < 10; i++) {
                for (String follower : followers) {
                    // The second follower's clock a minute behind: its commands' stream numbers still rise.
                    long clock = System.currentTimeMillis() - (follower.equals(followers.get(1)) ? 60_000 : 0);
                    byte[] result = regions.in(follower).propose(ThreeRegions.TABLE, put(follower, clock, "k" + i,
                            follower + i));
                    MemoryStore.Applied last = regions.store(follower).log().getLast();
                    assertEquals("applied " + follower + i + " at " + last.index(), new String(result, StandardCharsets.UTF_8),
                            "the proposer gets its own store's result, once applied there");
                }
            }
            regions.awaitSameAppliedIndex();
            List<MemoryStore.Applied> log = regions.store(leader).log();
            assertEquals(20, log.size());
            for (int i = 1; i < log.size(); i++) {
                assertTrue(log.get(i).sequence() > log.get(i - 1).sequence(), "stream numbers rise in log order: " + log);
            }
            for (MemoryStore.Applied a : log) {
                assertTrue(a.sequence() >= a.command().proposedMillis() * 1_000_000L, "from the proposal's time on");
            }
            // Applied records compare index, stream number and command: the same in every region.
            for (String region : regions.regions()) {
                assertEquals(log, regions.store(region).log(), region);
                // Ratis' own entries (configurations, commit metadata) take indexes too.
                assertTrue(regions.in(region).appliedIndex(ThreeRegions.TABLE) >= log.getLast().index(), region);
            }
            assertEquals(0, regions.in(leader).keysInFlight(ThreeRegions.TABLE), "applied proposals release their keys");
        }
    }

    @Test
    void aLinearizableReadOnAFollowerSeesTheWriteJustAcknowledgedElsewhere() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            String leader = regions.awaitLeader();
            String follower = regions.regions().stream().filter(r -> !r.equals(leader)).findFirst().orElseThrow();
            for (int i = 0; i < 20; i++) {
                regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "counter", "v" + i));
                String seen = regions.in(follower).readLinearizable(ThreeRegions.TABLE,
                        () -> regions.store(follower).get("counter"));
                assertEquals("v" + i, seen);
            }
        }
    }

    @Test
    void losingTheLeaderLosesNoAcknowledgedWriteAndTheRestartedMemberCatchesUp() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            String leader = regions.awaitLeader();
            String writer = regions.regions().stream().filter(r -> !r.equals(leader)).findFirst().orElseThrow();
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicInteger unanswered = new AtomicInteger();
            AtomicBoolean writing = new AtomicBoolean(true);
            ExecutorService executor = Executors.newSingleThreadExecutor();
            Future<?> stream = executor.submit(() -> {
                for (int i = 0; writing.get(); i++) {
                    try {
                        regions.in(writer).propose(ThreeRegions.TABLE, put(writer, "item" + i, "value" + i));
                        acknowledged.add("value" + i);
                    } catch (NoQuorumException e) {
                        unanswered.incrementAndGet();
                    }
                }
            });
            ThreeRegions.await(() -> acknowledged.size() >= 30, Duration.ofSeconds(20), "30 writes");
            regions.stop(leader);
            int before = acknowledged.size();
            ThreeRegions.await(() -> acknowledged.size() >= before + 30, Duration.ofSeconds(20), "30 writes more");
            writing.set(false);
            stream.get(10, TimeUnit.SECONDS);
            executor.shutdown();

            String newLeader = regions.awaitLeader();
            assertNotEquals(leader, newLeader);
            regions.awaitSameAppliedIndex();
            for (String survivor : regions.regions().stream().filter(r -> !r.equals(leader)).toList()) {
                Set<String> applied = values(regions.store(survivor));
                assertTrue(applied.containsAll(acknowledged), survivor + " lost an acknowledged write");
            }

            regions.start(leader);
            regions.awaitSameAppliedIndex();
            List<MemoryStore.Applied> log = regions.store(newLeader).log();
            for (String region : regions.regions()) assertEquals(log, regions.store(region).log(), region);
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "after", "restart"));
            assertEquals("restart", regions.in(leader).readLinearizable(ThreeRegions.TABLE,
                    () -> regions.store(leader).get("after")));
        }
    }

    @Test
    void aRestartedMemberResumesFromItsSnapshotAndReappliesNothingItsStoreHolds() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            String leader = regions.awaitLeader();
            String follower = regions.regions().stream().filter(r -> !r.equals(leader)).findFirst().orElseThrow();
            for (int i = 0; i < 10; i++) regions.in(follower).propose(ThreeRegions.TABLE, put(follower, "k" + i, "v" + i));
            regions.awaitSameAppliedIndex();
            long applied = regions.in(follower).appliedIndex(ThreeRegions.TABLE);
            regions.stop(follower);
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "while", "away"));

            regions.start(follower);
            assertTrue(regions.in(follower).appliedIndex(ThreeRegions.TABLE) >= applied,
                    "the applied index is restored from the snapshot taken at stop, not replayed from the start");
            ThreeRegions.await(() -> "away".equals(regions.store(follower).get("while")), Duration.ofSeconds(10),
                    "the restarted member to catch up");
            assertEquals(0, regions.store(follower).replayed(), "nothing at or below the snapshot was applied again");
            assertEquals(regions.store(leader).log(), regions.store(follower).log());

            // Without its snapshot (as after a crash before one), the member replays its whole log,
            // and its store skips the indexes it holds.
            regions.stop(follower);
            Path machineDirectory = directory.resolve(follower).resolve("raft")
                    .resolve(ConsensusGroups.groupId(ThreeRegions.TABLE).getUuid().toString()).resolve("sm");
            try (var snapshots = Files.list(machineDirectory)) {
                for (Path snapshot : snapshots.toList()) Files.delete(snapshot);
            }
            regions.start(follower);
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "after", "the crash"));
            ThreeRegions.await(() -> "the crash".equals(regions.store(follower).get("after")), Duration.ofSeconds(10),
                    "the member to replay and catch up");
            assertEquals(11, regions.store(follower).replayed());
            assertEquals(regions.store(leader).log(), regions.store(follower).log());
        }
    }

    @Test
    void twoReplicasAndAWitnessCommitWithTheWitnessAndOneReplica() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, "us-west-2")) {
            regions.awaitLeader();
            regions.stop("us-east-2");
            byte[] result = regions.in("us-east-1").propose(ThreeRegions.TABLE, put("us-east-1", "k", "with the witness"));
            long index = regions.store("us-east-1").log().getLast().index();
            assertEquals("applied with the witness at " + index, new String(result, StandardCharsets.UTF_8));
            ThreeRegions.await(() -> regions.in("us-west-2").appliedIndex(ThreeRegions.TABLE) >= index,
                    Duration.ofSeconds(10), "the witness's applied index");
            assertEquals(List.of(), regions.store("us-west-2").log(), "a witness applies nothing to an item store");
            assertEquals("with the witness", regions.in("us-east-1").readLinearizable(ThreeRegions.TABLE,
                    () -> regions.store("us-east-1").get("k")));
            assertThrows(IllegalStateException.class,
                    () -> regions.in("us-west-2").propose(ThreeRegions.TABLE, put("us-west-2", "k", "no")));
            assertThrows(IllegalStateException.class,
                    () -> regions.in("us-west-2").readLinearizable(ThreeRegions.TABLE, () -> "no"));

            // The other replica back and the first gone: the witness's log is the longer, so it is
            // elected first; a write from the replica gets the replica's own result all the same,
            // and the witness hands the leadership to the replica (priority) once it caught up.
            regions.stop("us-east-1");
            regions.start("us-east-2");
            byte[] again = regions.in("us-east-2").propose(ThreeRegions.TABLE, put("us-east-2", "k", "two of three"));
            assertEquals("applied two of three at " + regions.store("us-east-2").log().getLast().index(),
                    new String(again, StandardCharsets.UTF_8));
            assertEquals(List.of("two of three", "with the witness"), values(regions.store("us-east-2")).stream()
                    .sorted().toList());
            ThreeRegions.await(() -> regions.in("us-west-2").leader(ThreeRegions.TABLE).equals(Optional.of("us-east-2")),
                    Duration.ofSeconds(10), "the replica to lead");
        }
    }

    @Test
    void withTwoOfThreeDownProposalsAndStrongReadsFailWithinTheDeadline() throws Exception {
        Duration deadline = Duration.ofSeconds(2);
        try (ThreeRegions regions = new ThreeRegions(directory, null, deadline)) {
            String leader = regions.awaitLeader();
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "k", "before"));
            List<String> others = regions.regions().stream().filter(r -> !r.equals(leader)).toList();
            String survivor = others.getFirst();
            regions.stop(leader);
            regions.stop(others.get(1));

            long start = System.nanoTime();
            NoQuorumException write = assertThrows(NoQuorumException.class,
                    () -> regions.in(survivor).propose(ThreeRegions.TABLE, put(survivor, "k", "alone")));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(deadline.multipliedBy(3).dividedBy(2).plusMillis(500)) < 0,
                    "failed after " + took);
            assertTrue(write.getMessage().contains("within 2000 ms"), write.getMessage());

            start = System.nanoTime();
            assertThrows(NoQuorumException.class,
                    () -> regions.in(survivor).readLinearizable(ThreeRegions.TABLE, () -> "stale"));
            took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(took.compareTo(deadline.plusSeconds(1)) < 0, "failed after " + took);
        }
    }

    @Test
    void aKeyInFlightFromAnotherRegionIsAConflictAndFromTheSameRegionIsOrdered() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            String leader = regions.awaitLeader();
            List<String> followers = regions.regions().stream().filter(r -> !r.equals(leader)).toList();
            String first = followers.get(0);
            String second = followers.get(1);
            ExecutorService executor = Executors.newFixedThreadPool(2);
            // Held at the leader's apply, the first region's writes stay in flight there (committed,
            // and applied in the followers; the proposers wait for the leader's apply).
            CountDownLatch held = regions.store(leader).hold();
            Future<byte[]> firstWrite;
            Future<byte[]> sameRegionAgain;
            try {
                firstWrite = executor.submit(() -> regions.in(first).propose(ThreeRegions.TABLE, put(first, "k", "first")));
                ThreeRegions.await(() -> regions.store(first).log().size() == 1, Duration.ofSeconds(5), "the first write");
                assertEquals(1, regions.in(leader).keysInFlight(ThreeRegions.TABLE));

                ReplicatedWriteConflictException conflict = assertThrows(ReplicatedWriteConflictException.class,
                        () -> regions.in(second).propose(ThreeRegions.TABLE, put(second, "k", "second")));
                assertTrue(conflict.getMessage().contains(first), conflict.getMessage());
                sameRegionAgain = executor.submit(
                        () -> regions.in(first).propose(ThreeRegions.TABLE, put(first, "k", "first again")));
                ThreeRegions.await(() -> regions.store(first).log().size() == 2, Duration.ofSeconds(5),
                        "the same region's second write, ordered after the first");
                assertFalse(firstWrite.isDone(), "acknowledged only once the leader applied it");
            } finally {
                regions.store(leader).release(held);
            }
            assertTrue(new String(firstWrite.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8).startsWith("applied first at"));
            assertTrue(new String(sameRegionAgain.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8)
                    .startsWith("applied first again at"));
            executor.shutdown();
            regions.awaitSameAppliedIndex();
            for (String region : regions.regions()) {
                assertEquals(List.of("first", "first again"), values(regions.store(region)).stream().sorted().toList(),
                        "the refused write never entered the log");
                assertEquals("first again", regions.store(region).get("k"), region);
            }
            assertEquals(0, regions.in(leader).keysInFlight(ThreeRegions.TABLE));
            regions.in(second).propose(ThreeRegions.TABLE, put(second, "k", "second, later"));
        }
    }

    @Test
    void concurrentWritesToOneKeyFromTwoRegionsAreEachAcknowledgedOrRefusedAndNoneAcknowledgedIsLost()
            throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            regions.awaitLeader();
            List<String> writers = regions.regions().subList(0, 2);
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            Set<String> unanswered = ConcurrentHashMap.newKeySet();
            AtomicInteger conflicts = new AtomicInteger();
            ExecutorService executor = Executors.newFixedThreadPool(2);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (String writer : writers) {
                done.add(executor.submit(() -> {
                    go.await();
                    for (int i = 0; i < 40; i++) {
                        String value = writer + "#" + i;
                        try {
                            regions.in(writer).propose(ThreeRegions.TABLE, put(writer, "hot", value));
                            acknowledged.add(value);
                        } catch (ReplicatedWriteConflictException e) {
                            conflicts.incrementAndGet();
                        } catch (NoQuorumException e) {
                            unanswered.add(value);
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) f.get(40, TimeUnit.SECONDS);
            executor.shutdown();

            assertEquals(80, acknowledged.size() + conflicts.get() + unanswered.size());
            regions.awaitSameAppliedIndex();
            List<MemoryStore.Applied> log = regions.store(regions.regions().getFirst()).log();
            Set<String> applied = values(regions.store(regions.regions().getFirst()));
            assertTrue(applied.containsAll(acknowledged), "an acknowledged write was lost");
            Set<String> answeredOrNot = new HashSet<>(acknowledged);
            answeredOrNot.addAll(unanswered);
            assertTrue(answeredOrNot.containsAll(applied), "a refused write was applied");
            String last = new String(log.getLast().command().payload(), StandardCharsets.UTF_8);
            for (String region : regions.regions()) {
                assertEquals(log, regions.store(region).log(), region);
                assertEquals(last, regions.store(region).get("hot"), region);
            }
            assertFalse(acknowledged.isEmpty());
        }
    }

    private static Set<String> values(MemoryStore store) {
        Set<String> values = new HashSet<>();
        for (MemoryStore.Applied applied : store.log()) {
            values.add(new String(applied.command().payload(), StandardCharsets.UTF_8));
        }
        return values;
    }
}
