package io.stator.server.replication;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The test-only fault hook on the messages this region sends its peers (served with
 * {@code --replication-faults}): drop every message to a region, as a cut link would, or delay
 * each by some milliseconds. Faults are one way: a link from the peer back here is the peer's.
 * The local analogue of AWS Fault Injection Service's "pause replication".
 */
final class ReplicationFaults {

    private final Set<String> dropped = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> delays = new ConcurrentHashMap<>();

    void set(Set<String> drop, Map<String, Long> delayMillis) {
        dropped.clear();
        dropped.addAll(drop);
        delays.clear();
        delays.putAll(delayMillis);
    }

    boolean drops(String region) {
        return dropped.contains(region);
    }

    long delayMillis(String region) {
        return delays.getOrDefault(region, 0L);
    }
}
