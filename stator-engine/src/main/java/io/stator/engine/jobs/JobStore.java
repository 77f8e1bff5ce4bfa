package io.stator.engine.jobs;

import io.stator.storage.Cursor;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where the descriptions of exports and imports are kept, so that their progress and outcome
 * outlive a restart: rows of the BACKUPS key space, beside the backups' own
 * (backup/BackupCatalog), in this layout, unchanged since the first release that kept them:
 * <pre>
 * 'J' + kind (UTF-8) + 0 + id (UTF-8)  -&gt;  the description ({@link StoredFields}' form)
 * </pre>
 * {@code kind} is "export" or "import"; ids sort by creation time (backup/Backup.newId).
 */
public final class JobStore {

    private static final byte JOB_ROW = 'J';

    private final Storage storage;
    private final String kind;

    public JobStore(Storage storage, String kind) {
        this.storage = storage;
        this.kind = kind;
    }

    /** Saves a job's description under its id. */
    public void save(String id, byte[] description) {
        try (WriteBatch batch = storage.newBatch()) {
            stage(batch, id, description);
            storage.commit(batch);
        }
    }

    /** Stages a job's description, to be committed with what the job changed (an import's table). */
    public void stage(WriteBatch batch, String id, byte[] description) {
        batch.put(Keyspaces.BACKUPS, key(id), description);
    }

    /** Every job of this kind, by id, in id order (oldest first). */
    public SortedMap<String, byte[]> all() {
        byte[] from = key("");
        byte[] to = from.clone();
        to[to.length - 1]++;
        SortedMap<String, byte[]> jobs = new TreeMap<>();
        try (Cursor c = storage.range(null, Keyspaces.BACKUPS, from, to, false)) {
            while (c.next()) {
                jobs.put(new String(c.key(), from.length, c.key().length - from.length, StandardCharsets.UTF_8), c.value());
            }
        }
        return jobs;
    }

    private byte[] key(String id) {
        byte[] k = kind.getBytes(StandardCharsets.UTF_8);
        byte[] i = id.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[2 + k.length + i.length];
        key[0] = JOB_ROW;
        System.arraycopy(k, 0, key, 1, k.length);
        System.arraycopy(i, 0, key, 2 + k.length, i.length);
        return key;
    }
}
