package io.stator.server.transfer;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The jobs of one kind (exports, or imports): their descriptions, by id, kept in the engine so
 * that they outlive a restart, and the one background thread that runs them. A job's ARN is its
 * table's ARN, then {@code /<kind>/<id>}.
 */
final class Jobs implements AutoCloseable {

    private final Engine engine;
    private final String kind;
    private final Map<String, JobRecord> records = new ConcurrentSkipListMap<>();
    private final ExecutorService worker;
    private volatile boolean closed;

    Jobs(Engine engine, String kind) {
        this.engine = engine;
        this.kind = kind;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "stator-" + kind + "s");
            t.setDaemon(true);
            return t;
        });
        for (Map.Entry<String, byte[]> e : engine.backups().jobs(kind).entrySet()) {
            records.put(e.getKey(), JobRecord.decode(e.getValue()));
        }
    }

    /** Every job kept, oldest first: at a start, the owner resumes those in progress. */
    Collection<JobRecord> all() {
        return records.values();
    }

    /** Keeps the job's description as it now is, under its id. */
    void save(String id, JobRecord r) {
        records.put(id, r);
        engine.backups().saveJob(kind, id, r.encode());
    }

    /** Lists a job whose description the engine committed (with what the job changed). */
    void track(String id, JobRecord r) {
        records.put(id, r);
    }

    void submit(Runnable job) {
        worker.execute(job);
    }

    /** True once the server is stopping: a job stops at its next item, still IN_PROGRESS. */
    boolean closed() {
        return closed;
    }

    /**
     * The job an ARN names, or null when it names none; DynamoDB's ValidationException ("Invalid
     * Export ARN", "Invalid Import ARN") when it is not such an ARN at all.
     */
    JobRecord find(String arn, String arnMember) {
        String marker = "/" + kind + "/";
        int at = arn.lastIndexOf(marker);
        if (!arn.startsWith("arn:") || at < 0) {
            throw DynamoDbException.validation("Invalid " + Character.toUpperCase(kind.charAt(0)) + kind.substring(1)
                    + " ARN");
        }
        JobRecord r = records.get(arn.substring(at + marker.length()));
        return r != null && arn.equals(r.string(arnMember)) ? r : null;
    }

    /** The jobs (of a table, when given), newest first, as DynamoDB lists them. */
    List<JobView> list(String tableArn) {
        List<JobView> all = new ArrayList<>();
        for (JobRecord r : records.values()) {
            if (tableArn == null || tableArn.equals(r.string("TableArn"))) all.add(r);
        }
        Collections.reverse(all);
        return all;
    }

    /** Waits for the jobs queued so far (tests, the command line). */
    void awaitIdle() throws Exception {
        worker.submit(() -> { }).get();
    }

    /** Stops the running job at its next item (it stays IN_PROGRESS and runs again at the next start). */
    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
        try {
            worker.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
