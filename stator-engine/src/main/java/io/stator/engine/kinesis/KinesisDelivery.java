package io.stator.engine.kinesis;

import io.stator.core.item.ItemCodec;
import io.stator.engine.changes.ChangeImages;
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
 * and duplicates"). Each table is handled apart: one whose stream is gone or refuses a record
 * backs off alone. It reads the kept changes when a commit kept some, and polls besides (other
 * servers' commits, a stream back).
 */
final class KinesisDelivery implements AutoCloseable {

    private static final Logger LOG = System.getLogger(KinesisDelivery.class.getName());
    /** Kinesis' PutRecords takes 500 records at most (the sink keeps each call under 5 MiB). */
    private static final int MAX_RECORDS = 500;
    private static final long IDLE_WAIT_MILLIS = 200;
    /** How often the kept changes are read with no commit seen: one server's own, or several servers'. */
    private static final long LOOK_MILLIS_ALONE = 5_000;
    private static final long LOOK_MILLIS_SHARED = 1_000;
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
    private final long lookMillis;
    private final Map<String, Long> enablingSince = new ConcurrentHashMap<>();
    /** Per table: when this server last held its lease, or last failed to take it. */
    private final Map<Long, Long> leaseHeld = new ConcurrentHashMap<>();
    private final Map<Long, Long> leaseMissed = new ConcurrentHashMap<>();
    /** Per table: its backoff after a failure, and until when. */
    private final Map<Long, long[]> backoff = new ConcurrentHashMap<>();
    private final Map<String, Long> failuresLogged = new ConcurrentHashMap<>();
    private final Object signal = new Object();
    private KinesisOutbox outbox;
    private volatile KinesisSink sink;
    /** Whether the front end said where records go (--kinesis-endpoint or none): nothing moves before. */
    private volatile boolean told;
    private volatile boolean woken;
    /** Set by a commit that kept changes: the next pass reads them. */
    private volatile boolean kept = true;
    private volatile boolean closed;
    private long lastLook;
    private Thread thread;

    KinesisDelivery(Catalog catalog, String region, String accountId, JobLeases leases, long settleMillis) {
        this.catalog = catalog;
        this.region = region;
        this.accountId = accountId;
        this.leases = leases;
        this.settleNanos = leases == null ? 0 : settleMillis * 1_000_000;
        this.lookMillis = leases == null ? LOOK_MILLIS_ALONE : LOOK_MILLIS_SHARED;
    }

    void keepFrom(KinesisOutbox kept) {
        this.outbox = kept;
    }

    void deliverTo(KinesisSink to) {
        this.sink = to;
        this.told = true;
        wake();
    }

    synchronized void start() {
        if (thread != null || closed) return;
        thread = Thread.ofPlatform().daemon().name("stator-kinesis").start(this::run);
    }

    /** A commit kept changes (or a request changed a destination): the thread looks now. */
    void wake() {
        synchronized (signal) {
            kept = true;
            woken = true;
            signal.notifyAll();
        }
    }

    private void run() {
        while (!closed) {
            boolean busy = told && pass();
            if (!busy) pause(IDLE_WAIT_MILLIS);
        }
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
        long now = System.currentTimeMillis();
        boolean look = kept || now - lastLook >= lookMillis;
        if (look) {
            kept = false; // before reading: a commit meanwhile sets it again
            lastLook = now;
        }
        boolean busy = false;
        for (TableDefinition table : catalog.all()) {
            if (closed) break;
            if (table.kinesisDestinations().isEmpty() || backingOff(table, now) || !delivering(table, now)) continue;
            try {
                for (KinesisDataStreamDestination d : table.kinesisDestinations()) {
                    switch (d.status()) {
                        case ENABLING -> settleEnabling(table, d);
                        case DISABLING -> {
                            outbox.drop(table.id());
                            move(table, d, d.with(Status.DISABLED, null));
                        }
                        case UPDATING -> move(table, d, d.with(Status.ACTIVE, null));
                        case ACTIVE -> busy |= look && deliver(table, d);
                        default -> { }
                    }
                }
                backoff.remove(table.id());
            } catch (RuntimeException e) {
                if (closed) break;
                failed(table, e, now);
            }
        }
        if (busy) kept = true; // a full read: more may wait
        return busy;
    }

    private boolean backingOff(TableDefinition table, long now) {
        long[] b = backoff.get(table.id());
        return b != null && now < b[1];
    }

    /** The table's work failed (the endpoint unreachable, the stream gone): it is tried again later, alone. */
    private void failed(TableDefinition table, RuntimeException e, long now) {
        long[] b = backoff.compute(table.id(), (id, old) -> {
            long wait = old == null ? 100 : Math.min(MAX_BACKOFF_MILLIS, old[0] * 2);
            return new long[] {wait, now + wait};
        });
        // Logged when it differs from the table's last failure, or a minute after (retries repeat it).
        String failure = table.name() + ": " + e.getMessage();
        Long logged = failuresLogged.get(failure);
        if (logged != null && now - logged < 60_000) return;
        failuresLogged.clear();
        failuresLogged.put(failure, now);
        LOG.log(Logger.Level.WARNING, "Kinesis delivery of table " + table.name() + " failed; retrying every "
                + MAX_BACKOFF_MILLIS + " ms at most (now in " + b[0] + " ms): " + e);
    }

    /** Whether this server delivers the table's changes: always on one server; the lease's holder on several. */
    private boolean delivering(TableDefinition table, long now) {
        if (leases == null) return true;
        boolean working = false;
        for (KinesisDataStreamDestination d : table.kinesisDestinations()) working |= !d.ended();
        if (!working) return false;
        long third = leases.leaseMillis() / 3;
        Long held = leaseHeld.get(table.id());
        if (held != null && now - held < third) return true;
        Long missed = leaseMissed.get(table.id());
        if (missed != null && now - missed < third) return false;
        if (!leases.hold("kinesis-" + table.tableId())) {
            leaseHeld.remove(table.id());
            leaseMissed.put(table.id(), now);
            return false;
        }
        leaseMissed.remove(table.id());
        leaseHeld.put(table.id(), now);
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
        // arn:<partition>:<service>:<region>:<account>:<resource>
        String[] parts = streamArn.split(":", 6);
        if (parts.length < 6 || !parts[0].equals("arn")) return NO_PERMISSION;
        // A Firehose delivery stream: "not in Active state" (ack-api-quirks DDB-TABLE-318).
        if (parts[2].equals("firehose")) return NOT_ACTIVE;
        if (!parts[2].equals("kinesis") || !parts[5].startsWith("stream/") || parts[5].length() == "stream/".length()
                || parts[5].indexOf('/', "stream/".length()) >= 0) {
            return NO_PERMISSION; // a consumer's ARN (stream/x/consumer/y) among them
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
            List<KinesisOutbox.Stored> earlier = new ArrayList<>();
            List<KinesisOutbox.Stored> sending = new ArrayList<>();
            List<KinesisSink.Record> records = new ArrayList<>();
            for (KinesisOutbox.Stored s : kept) {
                // Kept before this Enable (a write in flight across an earlier Disable): not this destination's.
                if (s.micros() / 1000 < d.enabledMillis()) {
                    earlier.add(s);
                } else {
                    sending.add(s);
                    records.add(record(table, d, s));
                }
            }
            List<Integer> refused = records.isEmpty() ? List.of() : to.put(streamName(d.streamArn()), records);
            if (closed) return put; // put, perhaps, but not forgotten: put again after a restart
            List<KinesisOutbox.Stored> done = new ArrayList<>(earlier);
            for (int i = 0; i < sending.size(); i++) if (!refused.contains(i)) done.add(sending.get(i));
            outbox.delete(done);
            put |= done.size() > 0;
            if (!refused.isEmpty()) throw new IllegalStateException(refused.size() + " records refused by the stream");
        }
        return put;
    }

    private KinesisSink.Record record(TableDefinition table, KinesisDataStreamDestination d, KinesisOutbox.Stored s) {
        long size = ChangeImages.sizeBytes(s.keys(), s.newImage(), s.oldImage());
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

    /** Stops the thread (interrupting a put that hangs), then closes the sink. */
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
                t.join(2_000);
                if (t.isAlive()) {
                    t.interrupt();
                    t.join(10_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        KinesisSink to = sink;
        if (to != null) to.close();
    }
}
