package io.stator.engine.replication.strong;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The leader's record of the items that proposals have in flight (admitted into the log, not yet
 * applied here), with the region each proposal came from. A proposal touching an item in flight
 * from another region is refused (DynamoDB's ReplicatedWriteConflictException); proposals from
 * the same region are simply ordered by the log, since DynamoDB documents the conflict only
 * between regions. Kept by proposal, so that a proposal's release never frees another's claim.
 */
final class InFlightKeys {

    private final Map<ByteBuffer, Map<UUID, String>> byKey = new HashMap<>();

    /**
     * Claims the command's keys for the proposal, or names the region that holds one of them (and
     * claims nothing).
     */
    synchronized Optional<String> admit(UUID proposal, StrongCommand command) {
        List<ByteBuffer> keys = command.keys().stream().map(ByteBuffer::wrap).toList();
        for (ByteBuffer key : keys) {
            for (String origin : byKey.getOrDefault(key, Map.of()).values()) {
                if (!origin.equals(command.originRegion())) return Optional.of(origin);
            }
        }
        for (ByteBuffer key : keys) {
            byKey.computeIfAbsent(key, k -> new HashMap<>()).put(proposal, command.originRegion());
        }
        return Optional.empty();
    }

    synchronized void release(UUID proposal, List<byte[]> keys) {
        for (byte[] bytes : keys) {
            ByteBuffer key = ByteBuffer.wrap(bytes);
            Map<UUID, String> holders = byKey.get(key);
            if (holders == null) continue;
            holders.remove(proposal);
            if (holders.isEmpty()) byKey.remove(key);
        }
    }

    /**
     * On a change of leader: only a leader refuses. Nothing is lost: a new leader serves once it
     * applied every entry of earlier terms (Ratis' leader readiness), so nothing is in flight there
     * but what it admits itself.
     */
    synchronized void clear() {
        byKey.clear();
    }

    synchronized int size() {
        return byKey.size();
    }
}
