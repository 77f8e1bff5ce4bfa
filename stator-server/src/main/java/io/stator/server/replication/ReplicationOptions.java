package io.stator.server.replication;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How this region replicates global tables: its peer regions and their endpoints
 * ({@code --replica-peers us-west-2=http://host:port,...}), the secret they sign their messages
 * with ({@code --replication-secret}), how long deleted items' tombstones are kept, and whether
 * the test-only fault hook is served ({@code --replication-faults}).
 *
 * @param peers              peer region to its base URL (the same port its DynamoDB API is on); empty for none
 * @param secret             shared by every region of a deployment; null when there are no peers
 * @param tombstoneRetention how long a deleted item's version is kept (and the oldest change applied)
 * @param faults             whether POST /_stator/replication/faults may drop or delay messages to a peer
 * @param consensusPort      where this region's consensus server (Apache Ratis, for multi-Region strong
 *                           consistency) listens; 0: a free port, chosen once and kept in the data directory
 */
public record ReplicationOptions(Map<String, URI> peers, String secret, Duration tombstoneRetention, boolean faults,
                                 int consensusPort) {

    public ReplicationOptions(Map<String, URI> peers, String secret, Duration tombstoneRetention, boolean faults) {
        this(peers, secret, tombstoneRetention, faults, 0);
    }

    /** DynamoDB keeps a region's changes for 24 hours while it cannot take them. */
    public static final Duration DEFAULT_TOMBSTONE_RETENTION = Duration.ofHours(24);

    public static final ReplicationOptions NONE = new ReplicationOptions(Map.of(), null, DEFAULT_TOMBSTONE_RETENTION, false);

    public ReplicationOptions {
        peers = Map.copyOf(peers);
    }

    /**
     * Parses {@code region=url,region=url}; IllegalArgumentException naming what is wrong.
     *
     * @param local this server's region, which cannot be its own peer
     */
    public static Map<String, URI> parsePeers(String spec, String local) {
        Map<String, URI> peers = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) return peers;
        for (String part : spec.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new IllegalArgumentException("--replica-peers wants REGION=URL[,REGION=URL...], got '" + part + "'");
            }
            String region = part.substring(0, eq).trim();
            if (!region.matches("[a-z0-9-]+")) {
                throw new IllegalArgumentException("--replica-peers: a region must look like us-west-2, got '" + region + "'");
            }
            if (region.equals(local)) {
                throw new IllegalArgumentException("--replica-peers names this server's own region " + region);
            }
            URI url;
            try {
                url = URI.create(part.substring(eq + 1).trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--replica-peers: not a URL for " + region + ": " + e.getMessage());
            }
            if (url.getScheme() == null || !url.getScheme().startsWith("http") || url.getHost() == null) {
                throw new IllegalArgumentException("--replica-peers: " + region + " wants an http(s)://host:port URL, got '"
                        + url + "'");
            }
            if (peers.put(region, url) != null) {
                throw new IllegalArgumentException("--replica-peers names " + region + " twice");
            }
        }
        return peers;
    }
}
