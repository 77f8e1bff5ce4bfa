package io.stator.engine.replication.strong;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What a region keeps of each MRSC group it joined, beside Ratis' storage
 * ({@code groups/<group uuid>.properties}): the table and the three members as joined. At start,
 * Ratis recovers a group from its directory by id alone, and a member that left before receiving
 * the group's first configuration entry recovers it with no peers: this record names the table
 * (for its state machine and Applier) and the members (for its client). Written before the
 * group is added, deleted after it is removed. A properties file:
 *
 * <pre>
 * table=Orders
 * member.0=us-east-1 10.0.0.1:23001 REPLICA
 * member.1=us-east-2 10.0.0.2:23001 REPLICA
 * member.2=us-west-2 10.0.0.3:23001 WITNESS
 * </pre>
 */
record GroupRecord(String table, List<GroupMember> members) {

    GroupRecord {
        members = List.copyOf(members);
    }

    GroupMember.Role roleOf(String region) {
        return members.stream().filter(m -> m.region().equals(region)).findFirst().orElseThrow().role();
    }

    static GroupRecord read(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        List<GroupMember> members = new ArrayList<>();
        for (int i = 0; properties.getProperty("member." + i) != null; i++) {
            String[] fields = properties.getProperty("member." + i).split(" ");
            if (fields.length != 3) throw new IOException("corrupt MRSC group record " + file);
            members.add(new GroupMember(fields[0], fields[1], GroupMember.Role.valueOf(fields[2])));
        }
        String table = properties.getProperty("table");
        if (table == null || members.size() != 3) throw new IOException("corrupt MRSC group record " + file);
        return new GroupRecord(table, members);
    }

    void write(Path file) throws IOException {
        Properties properties = new Properties();
        properties.setProperty("table", table);
        for (int i = 0; i < members.size(); i++) {
            GroupMember m = members.get(i);
            properties.setProperty("member." + i, m.region() + " " + m.address() + " " + m.role());
        }
        Path written = file.resolveSibling(file.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(written)) {
            properties.store(out, null);
        }
        Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
