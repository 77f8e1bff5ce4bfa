package io.stator.engine.transfer;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.jobs.JobStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The descriptions of the jobs of one kind (exports, or imports), by id: read from their
 * {@link JobStore} at start, kept there as they change, and looked up by ARN. A job's ARN is its
 * table's ARN, then {@code /<kind>/<id>}. Where several servers share the store, another server
 * may have started a job, or ended one this server knew in progress: lookups read the store again
 * ({@link #reread}), a description kept there winning over one known here unless the known one is
 * still in progress there too (this server's progress is shown before it is kept).
 */
final class Descriptions<D> {

    /** How a kind's description is kept and found. */
    record Form<D>(Function<byte[], D> decode, Function<D, byte[]> encode, Function<D, String> arn,
                   Function<D, String> tableArn, Predicate<D> inProgress) {}

    private final JobStore store;
    private final String kind;
    private final Form<D> form;
    private final Map<String, D> byId = new ConcurrentSkipListMap<>();

    Descriptions(JobStore store, String kind, Form<D> form) {
        this.store = store;
        this.kind = kind;
        this.form = form;
        for (Map.Entry<String, byte[]> e : store.all().entrySet()) byId.put(e.getKey(), form.decode().apply(e.getValue()));
    }

    /** Every job kept, oldest first: at a start, the owner resumes those in progress. */
    Collection<D> all() {
        reread();
        return byId.values();
    }

    /** The job of that id as kept now (null if none), for a job about to run: still in progress? */
    D current(String id) {
        reread();
        return byId.get(id);
    }

    /** Whether the job of that id is kept in progress: a job resumed elsewhere may have ended. */
    boolean inProgress(String id) {
        D d = current(id);
        return d != null && form.inProgress().test(d);
    }

    /** Reads the store again: jobs other servers started or ended since (see the class comment). */
    private void reread() {
        for (Map.Entry<String, byte[]> e : store.all().entrySet()) {
            D kept = form.decode().apply(e.getValue());
            byId.merge(e.getKey(), kept, (known, stored) -> form.inProgress().test(stored) ? known : stored);
        }
    }

    /** Keeps the job's description as it now is, under its id. */
    void save(String id, D description) {
        byId.put(id, description);
        store.save(id, form.encode().apply(description));
    }

    /** Shows a job's description as it now is, kept (or to be kept) by its job's own commits. */
    void show(String id, D description) {
        byId.put(id, description);
    }

    /**
     * The job an ARN names, or null when it names none; DynamoDB's ValidationException ("Invalid
     * Export ARN", "Invalid Import ARN") when it is not such an ARN at all.
     */
    D find(String arn) {
        String marker = "/" + kind + "/";
        int at = arn.lastIndexOf(marker);
        if (!arn.startsWith("arn:") || at < 0) {
            throw DynamoDbException.validation("Invalid " + Character.toUpperCase(kind.charAt(0)) + kind.substring(1)
                    + " ARN");
        }
        D d = current(arn.substring(at + marker.length()));
        return d != null && arn.equals(form.arn().apply(d)) ? d : null;
    }

    /** The jobs (of a table, when given), newest first, as DynamoDB lists them. */
    List<D> list(String tableArn) {
        List<D> all = new ArrayList<>();
        for (D d : all()) {
            if (tableArn == null || tableArn.equals(form.tableArn().apply(d))) all.add(d);
        }
        Collections.reverse(all);
        return all;
    }
}
