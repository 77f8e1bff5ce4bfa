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
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group's life beside its writes, on three in-process Ratis servers: added and removed at run
 * time, its topology checked, and a member whose store failed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupLifecycleTest {

    @TempDir
    Path directory;

    @Test
    void aGroupIsAddedAndRemovedAtRunTimeAndItsIdIsTheSameInEveryRegion() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            assertEquals(ConsensusGroups.groupId("Second"), ConsensusGroups.groupId("Second"));
            assertNotEquals(ConsensusGroups.groupId("Second"), ConsensusGroups.groupId(ThreeRegions.TABLE));
            List<GroupMember> members = regions.members();
            for (String region : regions.regions()) regions.in(region).join("Second", members);
            for (String region : regions.regions()) regions.in(region).join("Second", members);
            String writer = regions.regions().getFirst();
            regions.in(writer).propose("Second", put(writer, "k", "in the second group"));
            assertEquals(Set.of(ThreeRegions.TABLE, "Second"), Set.copyOf(regions.in(writer).tables()));

            for (String region : regions.regions()) regions.in(region).leave("Second");
            assertEquals(List.of(ThreeRegions.TABLE), regions.in(writer).tables());
            assertThrows(IllegalArgumentException.class,
                    () -> regions.in(writer).propose("Second", put(writer, "k", "no group")));
            Path groupDirectory = directory.resolve(writer).resolve("raft")
                    .resolve(ConsensusGroups.groupId("Second").getUuid().toString());
            assertFalse(Files.exists(groupDirectory), "its log is deleted");
            regions.in(writer).propose(ThreeRegions.TABLE, put(writer, "k", "the other group still works"));

            for (String region : regions.regions()) regions.in(region).join("Second", members);
            regions.in(writer).propose("Second", put(writer, "k", "a new group of the same name"));
        }
    }

    @Test
    void aMemberStoppedBeforeItsGroupsFirstEntryStillVotesOnceRestarted() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            List<String> names = regions.regions();
            List<GroupMember> members = regions.members();
            // Alone in the group, the last region receives no entry, so no configuration, before it stops.
            regions.in(names.get(2)).join("Late", members);
            regions.stop(names.get(2));
            regions.start(names.get(2));
            // It and the first region are a majority only if it knows whom to vote for.
            regions.in(names.get(0)).join("Late", members);
            ThreeRegions.await(() -> regions.in(names.get(0)).leader("Late").isPresent(), Duration.ofSeconds(15),
                    "a leader of the two");
            regions.in(names.get(0)).propose("Late", put(names.get(0), "k", "two of three"));
            assertEquals("two of three", regions.in(names.get(2)).readLinearizable("Late",
                    () -> regions.store(names.get(2)).get("k")));
        }
    }

    @Test
    void aGroupIsThreeDifferentRegionsThisOneAmongThemAndAtMostOneWitness() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            List<GroupMember> members = regions.members();
            ConsensusGroups here = regions.in(members.getFirst().region());
            assertThrows(IllegalArgumentException.class, () -> here.join("T", members.subList(0, 2)));
            assertThrows(IllegalArgumentException.class, () -> here.join("T",
                    List.of(members.get(0), members.get(1), members.get(1))));
            assertThrows(IllegalArgumentException.class, () -> here.join("T", List.of(members.get(0),
                    GroupMember.witness(members.get(1).region(), members.get(1).address()),
                    GroupMember.witness(members.get(2).region(), members.get(2).address()))));
            assertThrows(IllegalArgumentException.class, () -> here.join("T", List.of(members.get(1), members.get(2),
                    GroupMember.replica("eu-west-1", "127.0.0.1:1"))));
            assertThrows(IllegalStateException.class, () -> here.join(ThreeRegions.TABLE, List.of(members.get(0),
                    members.get(1), GroupMember.witness(members.get(2).region(), members.get(2).address()))));
            assertEquals(List.of(ThreeRegions.TABLE), here.tables());
        }
    }

    @Test
    void aMemberWhoseStoreFailedAppliesNothingMoreUntilItRestarts() throws Exception {
        try (ThreeRegions regions = new ThreeRegions(directory, null)) {
            String leader = regions.awaitLeader();
            String broken = regions.regions().stream().filter(r -> !r.equals(leader)).findFirst().orElseThrow();
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "k", "before"));
            regions.awaitSameAppliedIndex();
            regions.store(broken).failing(true);
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "k", "failed there"));
            regions.in(leader).propose(ThreeRegions.TABLE, put(leader, "k", "after"));
            ThreeRegions.await(() -> throwsIllegalState(() -> regions.in(broken).readLinearizable(ThreeRegions.TABLE,
                    () -> "read")), Duration.ofSeconds(10), "the store's failure");
            assertThrows(IllegalStateException.class,
                    () -> regions.in(broken).propose(ThreeRegions.TABLE, put(broken, "k", "refused")));
            assertEquals("before", regions.store(broken).get("k"), "nothing past the failed index was applied");

            regions.stop(broken);
            regions.store(broken).failing(false);
            regions.start(broken);
            ThreeRegions.await(() -> "after".equals(regions.store(broken).get("k")), Duration.ofSeconds(10),
                    "the restarted member to apply the failed index and what followed");
            assertEquals(regions.store(leader).log(), regions.store(broken).log());

            // The leader's store failing: a write committed is still acknowledged where it was applied.
            regions.store(leader).failing(true);
            byte[] result = regions.in(broken).propose(ThreeRegions.TABLE, put(broken, "k", "leader broken"));
            assertTrue(new String(result, StandardCharsets.UTF_8).startsWith("applied leader broken at"));
        }
    }

    private static boolean throwsIllegalState(Runnable call) {
        try {
            call.run();
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
