package io.stator.engine.kinesis;

import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.jobs.JobLeases;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.KinesisDataStreamDestination;
import io.stator.engine.table.KinesisDataStreamDestination.Status;
import io.stator.engine.table.TableDefinition;
import java.lang.System.Logger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one thread that moves Kinesis destinations through their states and puts the kept changes
 * of ACTIVE ones to their streams (a table's, on several servers, by the one holding its lease),
 * oldest first per item, deleting each once put: at least once, in an item's order unless a put
 * is retried, as DynamoDB says its Kinesis records may come (docs/dynamodb/kinesis.md, "Ordering
 * and duplicates"). It waits for a commit that kept changes, or polls (other servers' commits and
 * state changes).
 */
final class KinesisDelivery implements AutoCloseable {

    private static final Logger LOG = System.getLogger(KinesisDelivery.class.getName());
    /** Kinesis' PutRecords limits: 500 records, 5 MiB in all (a record's JSON is kept under this estimate). */
    private static final int MAX_RECORDS = 500;
    private static final long MAX_BYTES = 4L * 1024 * 1024;
    private static final long IDLE_WAIT_MILLIS = 200;
    private static final long MAX_BACKOFF_MILLIS = 5_000;
    /** DynamoDB's DestinationStatusDescriptions of an ENABLE_FAILED destination (docs/dynamodb/kinesis.md). */
    static final String NO_PERMISSION = "User does not have a permission to use kinesis stream";
    static final String OTHER_REGION = "The kinesis Arn used to enable kinesis replication belongs to a stream which is "
            + "not in the current region";
    static final String NOT_ACTIVE = "The kinesis Arn used to enable kinesis replication belongs to a stream which is "
            + "not in Active state";
    /** Stator's own: no endpoint to deliver to. */
    static final String NO_ENDPOINT = "Stator has no Kinesis endpoint to stream to: start it with --kinesis-endpoint URL";

    private final Catalog catalog;
    private final String region;
    private final String accountId;
    private final JobLeases leases;
    private final long settleNanos;
    private final Map<String, Long> enablingSince = new ConcurrentHashMap<>();
    private final Map<Long, Long> leaseRenewed = new ConcurrentHashMap<>();
    /** The tables seen with a collecting destination: a deleted one's kept changes are dropped. */
    private final java.util.Set<Long> collecting = ConcurrentHashMap.newKeySet();
    private String lastFailure;
    private long lastFailureLogged;
    private final Object signal = new Object();
    private KinesisOutbox outbox;
    private volatile KinesisSink sink;
    private volatile boolean woken;
    private volatile boolean closed;
    private Thread thread;
    private long backoffMillis;

    KinesisDelivery(Catalog catalog, String region, String accountId, JobLeases leases, long settleMillis) {
        this.catalog = catalog;
        this.region = region;
        this.accountId = accountId;
        this.leases = leases;
        this.settleNanos = leases == null ? 0 : settleMillis * 1_000_000;
    }

    void keepFrom(KinesisOutbox kept) {
        this.outbox = kept;
    }

    void deliverTo(KinesisSink to) {
        this.sink = to;
        wake();
    }

    synchronized void start() {
        if (thread != null || closed) return;
        thread = Thread.ofPlatform().daemon().name("stator-kinesis").start(this::run);
    }

    void wake() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }

    private void run() {
        while (!closed) {
            boolean busy;
            try {
                busy = pass();
                backoffMillis = 0;
            } catch (RuntimeException e) {
                if (closed) return;
                backoffMillis = Math.min(MAX_BACKOFF_MILLIS, Math.max(100, backoffMillis * 2));
                logFailure(e);
                pause(backoffMillis);
                continue;
            }
            if (!busy) pause(IDLE_WAIT_MILLIS);
        }
    }

    /** A failure, logged when it differs from the last one or a minute after it was (retries repeat it). */
    private void logFailure(RuntimeException e) {
        String failure = String.valueOf(e.getMessage());
        long now = System.currentTimeMillis();
        if (failure.equals(lastFailure) && now - lastFailureLogged < 60_000) return;
        lastFailure = failure;
        lastFailureLogged = now;
        LOG.log(Logger.Level.WARNING, "Kinesis delivery failed; retrying every " + MAX_BACKOFF_MILLIS + " ms at most: " + e);
    }

    private void pause(long millis) {
        synchronized (signal) {
            if (!woken && !closed) {
                try {
                    signal.wait(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closed = true;
                }
            }
            woken = false;
        }
    }

    /** One round over every table with destinations; true when it put records (more may wait). */
    private boolean pass() {
        boolean busy = false;
        java.util.Set<Long> gone = new java.util.HashSet<>(collecting);
        for (TableDefinition table : catalog.all()) {
            gone.remove(table.id());
            if (table.collectingKinesis() != null) collecting.add(table.id());
            if (table.kinesisDestinations().isEmpty() || !delivering(table)) continue;
            for (KinesisDataStreamDestination d : table.kinesisDestinations()) {
                switch (d.status()) {
                    case ENABLING -> settleEnabling(table, d);
                    case DISABLING -> {
                        outbox.drop(table.id());
                        move(table, d, d.with(Status.DISABLED, null));
                    }
                    case UPDATING -> move(table, d, d.with(Status.ACTIVE, null));
                    case ACTIVE -> busy |= deliver(table, d);
                    default -> { }
                }
            }
        }
        for (long id : gone) {
            // Deleted with a destination collecting: its table id is never reused, its changes never put.
            outbox.drop(id);
            collecting.remove(id);
        }
        return busy;
    }

    /** Whether this server delivers the table's changes: always on one server; the lease's holder on several. */
    private boolean delivering(TableDefinition table) {
        if (leases == null) return true;
        boolean working = false;
        for (KinesisDataStreamDestination d : table.kinesisDestinations()) working |= !d.ended();
        if (!working) return false;
        long now = System.currentTimeMillis();
        Long renewed = leaseRenewed.get(table.id());
        if (renewed != null && now - renewed < leases.leaseMillis() / 3) return true;
        if (!leases.hold("kinesis-" + table.tableId())) {
            leaseRenewed.remove(table.id());
            return false;
        }
        leaseRenewed.put(table.id(), now);
        return true;
    }

    /**
     * ENABLING becomes ACTIVE once the stream is found writable (and every server keeps the
     * table's changes), else ENABLE_FAILED with DynamoDB's description of why, its kept changes
     * dropped.
     */
    private void settleEnabling(TableDefinition table, KinesisDataStreamDestination d) {
        String key = table.id() + " " + d.streamArn();
        long since = enablingSince.computeIfAbsent(key, k -> System.nanoTime());
        if (System.nanoTime() - since < settleNanos) return;
        String problem = problem(d.streamArn());
        enablingSince.remove(key);
        if (problem == null) {
            move(table, d, d.with(Status.ACTIVE, null));
        } else {
            outbox.drop(table.id());
            move(table, d, d.with(Status.ENABLE_FAILED, problem));
        }
    }

    /** Why records cannot go to the stream, as DynamoDB words it; null when they can. */
    private String problem(String streamArn) {
        // arn:<partition>:kinesis:<region>:<account>:stream/<name>
        String[] parts = streamArn.split(":", 6);
        if (parts.length < 6 || !parts[0].equals("arn") || !parts[2].equals("kinesis") || !parts[5].startsWith("stream/")
                || parts[5].length() == "stream/".length()) {
            return NO_PERMISSION;
        }
        if (!parts[3].equals(region)) return OTHER_REGION;
        if (!parts[4].equals(accountId)) return NOT_ACTIVE;
        KinesisSink to = sink;
        if (to == null) return NO_ENDPOINT;
        return to.writable(streamName(streamArn)) ? null : NO_PERMISSION;
    }

    private static String streamName(String streamArn) {
        return streamArn.substring(streamArn.indexOf(":stream/") + ":stream/".length());
    }

    /** The destination moved from {@code from} to {@code to}, unless a request changed it meanwhile. */
    private void move(TableDefinition table, KinesisDataStreamDestination from, KinesisDataStreamDestination to) {
        catalog.updateIfPresent(table.name(), t -> from.equals(t.kinesisDestination(from.streamArn()))
                ? t.withKinesisDestination(to) : t);
    }

    /** Puts the table's kept changes, bucket by bucket; true when some were put. */
    private boolean deliver(TableDefinition table, KinesisDataStreamDestination d) {
        KinesisSink to = sink;
        if (to == null) return false;
        boolean put = false;
        for (int bucket = 0; bucket < KinesisOutbox.BUCKETS && !closed; bucket++) {
            List<KinesisOutbox.Stored> kept = outbox.read(table.id(), bucket, MAX_RECORDS);
            if (kept.isEmpty()) continue;
            List<KinesisSink.Record> records = new ArrayList<>();
            long bytes = 0;
            for (KinesisOutbox.Stored s : kept) {
                KinesisSink.Record r = record(table, d, s);
                bytes += 2 * r.sizeBytes() + 512;
                if (!records.isEmpty() && bytes > MAX_BYTES) break;
                records.add(r);
            }
            List<Integer> refused = to.put(streamName(d.streamArn()), records);
            List<KinesisOutbox.Stored> delivered = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) if (!refused.contains(i)) delivered.add(kept.get(i));
            outbox.delete(delivered);
            put |= !delivered.isEmpty();
        }
        return put;
    }

    private KinesisSink.Record record(TableDefinition table, KinesisDataStreamDestination d, KinesisOutbox.Stored s) {
        long size = ItemSize.of(s.keys()) + (s.newImage() == null ? 0 : ItemSize.of(s.newImage()))
                + (s.oldImage() == null ? 0 : ItemSize.of(s.oldImage()));
        return new KinesisSink.Record(partitionKey(table, s), s.eventId().toString(), s.eventName(), table.name(), region,
                s.micros(), d.effectivePrecision(), d.precision() != null, s.keys(), s.newImage(), s.oldImage(), size,
                s.origin() == ChangeRecord.Origin.TIME_TO_LIVE);
    }

    /**
     * 32 upper-case hexadecimal digits of an MD5 of the table's id and the item's key: one item's
     * changes go to one shard. What DynamoDB hashes is not known; one captured record shows a key
     * of this form (docs/dynamodb/kinesis.md, "PartitionKey").
     */
    private static String partitionKey(TableDefinition table, KinesisOutbox.Stored s) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(table.tableId().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            md5.update(ItemCodec.encode(s.keys()));
            return HexFormat.of().withUpperCase().formatHex(md5.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
        }
        wake();
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        KinesisSink to = sink;
        if (to != null) to.close();
    }
}
