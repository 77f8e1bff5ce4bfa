package io.stator.engine.replication;

import io.stator.engine.jobs.JobLeases;
import io.stator.engine.table.TableDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which replication logs this server ships ({@link ReplicationLog}). On one server: its only
 * log. On several sharing the store: its own, whose lease it holds while it runs, and those of
 * servers gone (killed, or restarted with a new log), each adopted once its lease expired, shipped
 * with every change checked against its item, and forgotten once drained. Nothing a server
 * acknowledged is lost with it: its changes' rows were written before their items committed.
 */
final class ServerLogs {

    private final ReplicationLog log;
    private final JobLeases leases; // null on one server
    private final Set<Long> adopted = ConcurrentHashMap.newKeySet();
    private long tendedAt;

    ServerLogs(ReplicationLog log, JobLeases leases) {
        this.log = log;
        this.leases = leases;
    }

    /** The logs this server ships now: its own first. */
    List<Long> shipped() {
        List<Long> out = new ArrayList<>(1 + adopted.size());
        if (leases == null || log.ownLog() != 0) out.add(log.ownLog()); // 0 on several servers: none yet
        out.addAll(adopted);
        return out;
    }

    /** Whether a log is one this server took over from a server gone: its changes are checked before they are shipped. */
    boolean adopted(long id) {
        return adopted.contains(id);
    }

    /**
     * Every third of a lease: renews this server's leases, adopts the logs of servers gone, and
     * forgets those drained (no change of a global table left, every peer had them).
     *
     * @param globalTables the global tables, whose logs are looked in
     * @param peers        every peer region, whose cursors go with a forgotten log
     */
    synchronized void tend(List<TableDefinition> globalTables, List<String> peers) {
        if (leases == null) return;
        long now = System.currentTimeMillis();
        if (now - tendedAt < leases.leaseMillis() / 3) return;
        tendedAt = now;
        log.renewOwnLog();
        for (long id : log.registeredLogs()) {
            if (id == log.ownLog()) continue;
            String lease = ReplicationLog.lease(id);
            if (!adopted.contains(id)) {
                if (leases.adopt(lease)) adopted.add(id);
            } else if (!leases.hold(lease)) {
                adopted.remove(id); // another server took it over (this one stalled): it ships it now
            } else if (log.drained(id, globalTables)) {
                log.dropLog(id, globalTables, peers);
                leases.release(lease);
                adopted.remove(id);
            }
        }
    }
}
