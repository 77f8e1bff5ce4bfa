package io.stator.engine.replication.strong;

import java.util.Objects;

/**
 * One of an MRSC table's three regions in its Raft group: the region (the Raft peer's id), the
 * host:port of that region's consensus server, and whether it is a replica or a witness. A
 * witness votes and keeps the log, has no items, and serves no reads or writes.
 */
public record GroupMember(String region, String address, Role role) {

    public enum Role { REPLICA, WITNESS }

    public GroupMember {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(role, "role");
    }

    public static GroupMember replica(String region, String address) {
        return new GroupMember(region, address, Role.REPLICA);
    }

    public static GroupMember witness(String region, String address) {
        return new GroupMember(region, address, Role.WITNESS);
    }
}
