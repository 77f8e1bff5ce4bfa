package io.stator.engine.replication.strong;

import static io.stator.engine.replication.strong.MemoryStore.put;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class InFlightKeysTest {

    @Test
    void anotherRegionsKeyInFlightIsAConflictUntilEveryClaimOnItIsReleased() {
        InFlightKeys inFlight = new InFlightKeys();
        UUID first = UUID.randomUUID();
        UUID again = UUID.randomUUID();
        assertEquals(Optional.empty(), inFlight.admit(first, put("us-east-1", "k", "1")));
        assertEquals(Optional.empty(), inFlight.admit(again, put("us-east-1", "k", "2")), "same region: ordered");
        assertEquals(Optional.of("us-east-1"), inFlight.admit(UUID.randomUUID(), put("us-west-2", "k", "3")));
        assertEquals(Optional.empty(), inFlight.admit(UUID.randomUUID(), put("us-west-2", "other", "4")));

        inFlight.release(first, put("us-east-1", "k", "1").keys());
        assertEquals(Optional.of("us-east-1"), inFlight.admit(UUID.randomUUID(), put("us-west-2", "k", "5")),
                "one release frees only its own claim");
        inFlight.release(again, put("us-east-1", "k", "2").keys());
        assertEquals(Optional.empty(), inFlight.admit(UUID.randomUUID(), put("us-west-2", "k", "6")));
    }

    @Test
    void aRefusedProposalClaimsNothing() {
        InFlightKeys inFlight = new InFlightKeys();
        UUID held = UUID.randomUUID();
        inFlight.admit(held, put("us-east-1", "a", "1"));
        StrongCommand both = new StrongCommand("us-west-2", List.of("b".getBytes(), "a".getBytes()), new byte[0]);
        assertEquals(Optional.of("us-east-1"), inFlight.admit(UUID.randomUUID(), both));
        assertEquals(Optional.empty(), inFlight.admit(UUID.randomUUID(), put("us-east-1", "b", "2")));
        assertEquals(2, inFlight.size());
    }
}
