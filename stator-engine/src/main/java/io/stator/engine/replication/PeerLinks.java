package io.stator.engine.replication;

import java.io.IOException;
import java.util.Set;

/**
 * The other regions this one may replicate with, and the way to send them a message: the front
 * end's (an authenticated HTTP endpoint between Stator servers). The engine writes and reads the
 * messages' bodies ({@link GlobalTables#receive}); a link only carries bytes.
 */
public interface PeerLinks {

    /** The configured peer regions (never this one). */
    Set<String> regions();

    /**
     * Sends one message to a peer region and returns its reply.
     *
     * @throws IOException when the region cannot be reached in time or answers with an error
     *                     (the sender keeps the message and tries again)
     */
    byte[] send(String region, String message, byte[] body) throws IOException;

    /**
     * Sends one message to another server of this region, at the endpoint it registered (several
     * servers sharing the region's store), and returns its reply.
     *
     * @throws IOException as {@link #send}
     */
    default byte[] sendToServer(String endpoint, String message, byte[] body) throws IOException {
        throw new IOException("no link to other servers of this region");
    }

    /** A peer's answer that is an error (DynamoDB's type and message): sending it again will not help. */
    final class Refused extends IOException {
        public Refused(String type, String message) {
            super(type + ": " + message);
        }
    }

    /** No peers: every table stays regional. */
    PeerLinks NONE = new PeerLinks() {
        @Override
        public Set<String> regions() {
            return Set.of();
        }

        @Override
        public byte[] send(String region, String message, byte[] body) throws IOException {
            throw new IOException("no peer region " + region);
        }
    };
}
