package io.stator.engine.streams;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.engine.changes.ChangeImages;
import io.stator.engine.changes.ChangeLog;
import io.stator.engine.changes.ChangeRecord;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.streams.Shards.Shard;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.TableDefinition;
import io.stator.storage.Cursor;
import io.stator.storage.Snapshot;
import io.stator.storage.Storage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * DynamoDB Streams: the streams of every table (kept in step with the tables' definitions by
 * {@link #tableChanged}), their records ({@link StreamRecords}, staged by every write in its own
 * batch), and the four read operations: ListStreams, DescribeStream, GetShardIterator, GetRecords.
 *
 * <p><b>Retention.</b> Records older than the retention (24 hours) are out of reach: an iterator
 * before them gets TrimmedDataAccessException. They are deleted lazily, at most once a minute,
 * and only once 20 minutes older than that (longer than an iterator lives), so that an iterator
 * made before them always finds out, rather than silently skipping them.
 */
public final class Streams {

    private static final long TRIM_MARGIN_MILLIS = 20 * 60 * 1000;
    /** DynamoDB's GetRecords returns "up to 1 MB" of records (API reference, GetRecords). */
    private static final long MAX_PAGE_BYTES = 1024 * 1024;

    private final Storage storage;
    private final Deployment deployment;
    private final Catalog tables;
    private final ChangeLog changeLog;
    private final Clock clock;
    private final StreamSettings settings;
    private final StreamCatalog catalog;
    private final StreamRecords records;
    private final ShardIterators iterators;
    /** A table's partitions now: their first hashes, unsigned, in order (the capacity model's). */
    private final Function<TableDefinition, long[]> partitions;
    private boolean registered;
    private volatile long lastTrim;

    /** @param partitions a table's partitions now, as their first hashes (the capacity model's) */
    public Streams(Storage storage, Deployment deployment, Catalog tables, ChangeLog changeLog, Clock clock, StreamSettings settings,
                   Function<TableDefinition, long[]> partitions) {
        this.storage = storage;
        this.deployment = deployment;
        this.tables = tables;
        this.changeLog = changeLog;
        this.clock = clock;
        this.settings = settings;
        this.partitions = partitions;
        this.catalog = new StreamCatalog(storage);
        this.records = new StreamRecords(storage, deployment, clock, new SequenceNumbers(largestStoredSequence()), this::streamOf);
        this.iterators = new ShardIterators(storage, clock);
        for (StreamInfo s : catalog.all()) tableChanged(s.tableName());
        for (TableDefinition t : tables.all()) tableChanged(t.name());
    }

    public StreamSettings settings() { return settings; }

    /**
     * Makes every write stage stream records, before a table's stream is enabled (so that no
     * write after the enabling misses its record). Never undone: sequence numbers in flight must
     * be settled by the same consumer.
     */
    public synchronized void register() {
        if (!registered) {
            changeLog.register(records);
            registered = true;
        }
    }

    /**
     * Shared storage: reads the streams' catalog again and brings every table's streams in line
     * with the table catalog as another server changed it (called after each re-read of the
     * catalog, cluster/SharedUpkeep). A stream enabled elsewhere is thus seen, and its records written by
     * this server's writes too, within about a second.
     */
    public synchronized void refreshShared() {
        catalog.reload();
        Set<String> names = new TreeSet<>();
        for (StreamInfo s : catalog.all()) names.add(s.tableName());
        for (TableDefinition t : tables.all()) if (t.stream() != null) names.add(t.name());
        for (String name : names) tableChanged(name);
    }

    /** Brings the table's streams in line with its definition (enabled, disabled, deleted). */
    public synchronized void tableChanged(String tableName) {
        TableDefinition t = tables.find(tableName);
        boolean enabled = t != null && t.stream() != null && t.stream().enabled() && t.latestStreamLabel() != null;
        long now = clock.millis();
        for (StreamInfo s : catalog.ofTable(tableName)) {
            if (s.enabled() && (!enabled || s.tableId() != t.id() || !s.label().equals(t.latestStreamLabel()))) {
                catalog.put(s.disabledAt(now));
            }
        }
        if (enabled) {
            register();
            long created = StreamRecords.parseLabel(t.latestStreamLabel());
            if (catalog.find(tableName, created) == null) {
                // One shard per partition of the table (another server may have made it first).
                catalog.create(new StreamInfo(tableName, t.id(), t.latestStreamLabel(), created, t.stream().viewType(),
                        t.keySchema(), ShardLineage.of(startsOf(t), created), settings.shardPeriodMillis(), -1));
            }
        }
    }

    private long[] startsOf(TableDefinition table) {
        long[] starts = partitions.apply(table);
        return starts.length == 0 ? new long[] {0} : starts;
    }

    /** The table's enabled stream, as a write stages its record (made here if not seen yet). */
    private StreamInfo streamOf(TableDefinition table) {
        StreamInfo s = catalog.enabledOf(table.id());
        if (s != null && s.label().equals(table.latestStreamLabel())) return s;
        tableChanged(table.name());
        s = catalog.enabledOf(table.id());
        if (s == null || !s.label().equals(table.latestStreamLabel())) {
            // Another server's catalog is ahead of this one's: read it again.
            refreshShared();
            s = catalog.enabledOf(table.id());
        }
        if (s == null || !s.label().equals(table.latestStreamLabel())) {
            // Disabled since this write read its table (an UpdateTable meanwhile): the write began
            // with the stream on, and its record goes into that stream, whose readers read on for
            // a second past the disable (records()).
            StreamInfo named = catalog.find(table.name(), StreamRecords.parseLabel(table.latestStreamLabel()));
            if (named != null && named.tableId() == table.id()) return named;
        }
        if (s == null) throw new IllegalStateException("no stream " + table.latestStreamLabel() + " of table " + table.name());
        return s;
    }

    /**
     * The table's partitions split (the capacity model's): its enabled stream's shards split with
     * them, each cut shard closing with a child per piece ({@link ShardLineage#split}). The split
     * takes effect after every number drawn so far on this server and, where servers share the
     * store, after every server has read the catalog again ({@link Deployment#catalogSettleMillis}),
     * so no record is routed by a lineage that has not split yet. A lineage another server changed
     * meanwhile is read again and split in turn (a split it recorded already changes nothing).
     */
    public void partitionsChanged(TableDefinition table, long[] starts) {
        long settle = deployment.catalogSettleMillis();
        for (int attempt = 0; attempt < 5; attempt++) {
            StreamInfo s = catalog.enabledOf(table.id());
            if (s == null) return;
            boolean done = records.withNumbersHeld(after -> {
                long at = Math.max(after + settle, s.lineage().lastOpenedMillis() + 1);
                ShardLineage next = s.lineage().split(starts, at);
                return next == s.lineage() || catalog.update(s, s.withLineage(next));
            });
            if (done) return;
        }
    }

    // ---- ListStreams --------------------------------------------------------------------------

    public record StreamSummary(String streamArn, String tableName, String streamLabel) {}

    public record StreamList(List<StreamSummary> streams, String lastEvaluatedStreamArn) {}

    public StreamList list(String tableName, String exclusiveStartStreamArn, int limit) {
        trimIfDue();
        List<StreamSummary> all = new ArrayList<>();
        for (StreamInfo s : catalog.all()) {
            if (tableName == null || tableName.equals(s.tableName())) all.add(summary(s));
        }
        int from = 0;
        if (exclusiveStartStreamArn != null) {
            checkArn(exclusiveStartStreamArn);
            for (int i = 0; i < all.size(); i++) if (all.get(i).streamArn().equals(exclusiveStartStreamArn)) from = i + 1;
        }
        List<StreamSummary> page = all.subList(from, Math.min(all.size(), from + limit));
        String last = from + limit < all.size() ? page.get(page.size() - 1).streamArn() : null;
        return new StreamList(List.copyOf(page), last);
    }

    private StreamSummary summary(StreamInfo s) {
        return new StreamSummary(arn(s), s.tableName(), s.label());
    }

    private String arn(StreamInfo s) {
        return tables.arns().streamArn(s.tableName(), s.label());
    }

    // ---- DescribeStream -----------------------------------------------------------------------

    public record ShardDescription(String shardId, String parentShardId, String startingSequenceNumber,
                                   String endingSequenceNumber) {}

    public record StreamDescription(String streamArn, String streamLabel, String streamStatus, String streamViewType,
                                    long creationRequestMillis, String tableName, io.stator.engine.table.KeySchema keySchema,
                                    List<ShardDescription> shards, String lastEvaluatedShardId) {}

    /** @param childrenOf with ShardFilter CHILD_SHARDS, the shard whose children alone are wanted; else null */
    public StreamDescription describe(String streamArn, int limit, String exclusiveStartShardId, String childrenOf) {
        StreamInfo s = require(streamArn);
        trimIfDue();
        long now = clock.millis();
        List<Shard> shards = Shards.of(s, now, settings.retentionMillis());
        if (childrenOf != null) {
            Shard parent = Shards.find(s, childrenOf, now, settings.retentionMillis());
            shards = shards.stream().filter(c -> parent != null && childrenOf.equals(c.parentId())).toList();
        }
        int from = 0;
        if (exclusiveStartShardId != null) {
            from = shards.size();
            for (int i = 0; i < shards.size(); i++) if (shards.get(i).id().equals(exclusiveStartShardId)) from = i + 1;
        }
        List<ShardDescription> page = new ArrayList<>();
        for (int i = from; i < Math.min(shards.size(), from + limit); i++) page.add(describe(shards.get(i), now));
        String last = from + limit < shards.size() ? page.get(page.size() - 1).shardId() : null;
        return new StreamDescription(streamArn, s.label(), s.enabled() ? "ENABLED" : "DISABLED", s.viewType().name(),
                s.createdMillis(), s.tableName(), s.keySchema(), page, last);
    }

    private ShardDescription describe(Shard shard, long now) {
        long start = shard.firstSequence();
        String ending = null;
        if (shard.closedMillis(now) >= 0) {
            long end = shard.last(now) ? (shard.stream().disabledMillis() + 1000) * 1_000_000L : shard.endSequence(now);
            ending = SequenceNumbers.text(Math.max(start, end - 1));
        }
        return new ShardDescription(shard.id(), shard.parentId(), SequenceNumbers.text(start), ending);
    }

    // ---- GetShardIterator ---------------------------------------------------------------------

    public String shardIterator(String streamArn, String shardId, String type, String sequenceNumber) {
        StreamInfo s = require(streamArn);
        long now = clock.millis();
        Shard shard = Shards.find(s, shardId, now, settings.retentionMillis());
        // The text real DynamoDB answers (awslabs/dynamodb-streams-kinesis-adapter's tests, KCL users).
        if (shard == null) throw DynamoDbException.resourceNotFound("Requested resource not found: Shard does not exist");
        long trim = trimSequence(now);
        long position;
        switch (type) {
            case "TRIM_HORIZON" -> position = Math.max(shard.firstSequence(), trim);
            case "LATEST" -> position = Math.max(shard.firstSequence(), Math.min(latest(s, shard, now), shard.endSequence(now)));
            default -> {
                long n = SequenceNumbers.parse(sequenceNumber);
                // DynamoDB Local (AWS's own emulator, LocalAmazonDynamoDBStreams): "Invalid SequenceNumber for the shard".
                if (n < shard.firstSequence() || n >= shard.endSequence(now)) {
                    throw DynamoDbException.validation("Invalid SequenceNumber for the shard");
                }
                // Trimmed only where records were (a shard's StartingSequenceNumber lies before the
                // trim point of an old stream, and reading from it reads from the oldest record kept,
                // as GetRecords does; issue 36).
                if (n < trim && anyRecord(s, shard.slot(), n, trim)) throw trimmed();
                position = type.equals("AFTER_SEQUENCE_NUMBER") ? n + 1 : n;
            }
        }
        return iterators.issue(s, shard.slot(), shard.generation(), position);
    }

    // ---- GetRecords ---------------------------------------------------------------------------

    /** One record as GetRecords shows it. */
    public record StreamRecord(String eventId, ChangeRecord.EventName eventName, long approximateCreationSeconds,
                               Map<String, AttributeValue> keys, Map<String, AttributeValue> newImage,
                               Map<String, AttributeValue> oldImage, String sequenceNumber, long sizeBytes,
                               String streamViewType, boolean byTimeToLive) {}

    public record RecordsPage(List<StreamRecord> records, String nextShardIterator) {}

    /**
     * A shard iterator, verified (issued by a server of this storage, well formed, not expired):
     * the stream it reads, on which GetRecords is authorized, and where in it.
     */
    public static final class ShardIterator {
        private final ShardIterators.Position at;
        private final String streamArn;

        private ShardIterator(ShardIterators.Position at, String streamArn) {
            this.at = at;
            this.streamArn = streamArn;
        }

        public String streamArn() { return streamArn; }
    }

    /** The iterator a client sent, verified; ValidationException or ExpiredIteratorException otherwise. */
    public ShardIterator iterator(String text) {
        ShardIterators.Position at = iterators.verify(text);
        return new ShardIterator(at, tables.arns().streamArn(at.tableName(), at.label()));
    }

    public RecordsPage records(ShardIterator iterator, int limit) {
        ShardIterators.Position it = iterator.at;
        long now = clock.millis();
        trimIfDue();
        StreamInfo s = catalog.find(it.tableName(), it.createdMillis());
        Shard shard = s == null ? null : Shards.shard(s, it.slot(), it.generation(), now);
        if (shard == null || Shards.find(s, shard.id(), now, settings.retentionMillis()) == null) {
            // DynamoDB Local's answer to an iterator whose shard is gone.
            throw DynamoDbException.resourceNotFound("Invalid ShardId in ShardIterator");
        }
        long position = it.position();
        long trim = trimSequence(now);
        if (position < trim) {
            if (anyRecord(s, it.slot(), position, trim)) throw trimmed();
            position = trim;
        }
        long below = visibleBelow(s, now);
        long end = Math.min(shard.endSequence(now), below);
        List<StreamRecord> page = new ArrayList<>();
        long bytes = 0;
        boolean exhausted = true;
        try (Snapshot snapshot = storage.snapshot();
             Cursor c = storage.range(snapshot, Keyspaces.STREAM_RECORDS,
                     StreamRecords.key(s.tableId(), s.createdMillis(), it.slot(), position),
                     StreamRecords.key(s.tableId(), s.createdMillis(), it.slot(), Math.max(position, end)), false)) {
            while (c.next()) {
                StreamRecord r = record(s, StreamRecords.decode(c.key(), c.value()));
                if (page.size() == limit || (!page.isEmpty() && bytes + r.sizeBytes() > MAX_PAGE_BYTES)) {
                    exhausted = false;
                    break;
                }
                page.add(r);
                bytes += r.sizeBytes();
                position = SequenceNumbers.parse(r.sequenceNumber()) + 1;
            }
        }
        long closeSequence = shard.last(now) ? (s.disabledMillis() + 1000) * 1_000_000L : shard.endSequence(now);
        boolean finished = shard.closedMillis(now) >= 0 && exhausted && below >= closeSequence;
        String next = finished ? null
                : iterators.issue(s, it.slot(), it.generation(), position);
        return new RecordsPage(page, next);
    }

    private StreamRecord record(StreamInfo s, StreamRecords.Stored r) {
        long size = ChangeImages.sizeBytes(r.keys(), r.newImage(), r.oldImage());
        return new StreamRecord(eventId(s, r.sequence()), r.eventName(),
                SequenceNumbers.millisOf(r.sequence()) / 1000, r.keys(), r.newImage(), r.oldImage(),
                SequenceNumbers.text(r.sequence()), size, s.viewType().name(),
                r.origin() == ChangeRecord.Origin.TIME_TO_LIVE);
    }

    /** 32 hexadecimal digits, as DynamoDB's eventIDs are, the same every time the record is read. */
    private static String eventId(StreamInfo s, long sequence) {
        return String.format("%016x%016x", mix(sequence ^ s.createdMillis()), mix(sequence + s.tableId()));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Where "/stream/" starts in a stream ARN, after refusing what is no stream ARN. */
    private static int checkArn(String streamArn) {
        int mark = streamArn.indexOf("/stream/");
        // aws-sdk-js's integration tests against DynamoDB: DescribeStream of "fake-stream" is a
        // ValidationException "Invalid StreamArn".
        if (!streamArn.startsWith("arn:") || mark < 0) throw DynamoDbException.validation("Invalid StreamArn");
        return mark;
    }

    private StreamInfo require(String streamArn) {
        String prefix = tables.arns().tableArn("");
        int mark = checkArn(streamArn);
        StreamInfo found = null;
        if (streamArn.startsWith(prefix)) {
            String table = streamArn.substring(prefix.length(), mark);
            String label = streamArn.substring(mark + "/stream/".length());
            for (StreamInfo s : catalog.ofTable(table)) if (s.label().equals(label)) found = s;
        }
        if (found == null || expired(found, clock.millis())) {
            // DynamoDB Local, and real DynamoDB as its users quote it.
            throw DynamoDbException.resourceNotFound("Requested resource not found: Stream: " + streamArn + " not found");
        }
        return found;
    }

    private boolean expired(StreamInfo s, long now) {
        return !s.enabled() && s.disabledMillis() + settings.retentionMillis() < now;
    }

    private long trimSequence(long now) {
        return Math.max(0, (now - settings.retentionMillis()) * 1_000_000L);
    }

    /** Where LATEST starts: just after the shard's last number, as far as readers may see. */
    private long latest(StreamInfo s, Shard shard, long now) {
        return Math.min(records.afterLast(s.tableId(), s.createdMillis(), shard.slot(), now), visibleBelow(s, now));
    }

    private long visibleBelow(StreamInfo s, long now) {
        long below = records.visibleBelow(now);
        long delay = settings.delay().millisFor(s.createdMillis());
        return delay == 0 ? below : Math.min(below, (now - delay + 1) * 1_000_000L);
    }

    private boolean anyRecord(StreamInfo s, int slot, long from, long to) {
        try (Cursor c = storage.range(null, Keyspaces.STREAM_RECORDS, StreamRecords.key(s.tableId(), s.createdMillis(), slot, from),
                StreamRecords.key(s.tableId(), s.createdMillis(), slot, to), false)) {
            return c.next();
        }
    }

    private static DynamoDbException trimmed() {
        // DynamoDB Local's text (AmazonServiceExceptionType.TRIMMED_DATA_ACCESS_EXCEPTION).
        return new DynamoDbException(ErrorType.TRIMMED_DATA_ACCESS,
                "The operation attempted to read past the oldest stream record in a shard.");
    }

    /** Deletes what retention put out of reach: old records, and streams disabled for longer than it. */
    private void trimIfDue() {
        long now = clock.millis();
        if (now - lastTrim < 60_000 && now >= lastTrim) return;
        synchronized (this) {
            lastTrim = now;
            long cut = Math.max(0, (now - settings.retentionMillis() - TRIM_MARGIN_MILLIS) * 1_000_000L);
            for (StreamInfo s : catalog.all()) {
                if (!s.enabled() && s.disabledMillis() + settings.retentionMillis() + TRIM_MARGIN_MILLIS < now) {
                    // Shard by shard (on shared storage each is a collection of its own), from its
                    // head row on, which sorts before its records.
                    for (int slot = 0; slot < s.lineage().nodes().size(); slot++) {
                        storage.deleteRange(Keyspaces.STREAM_RECORDS, StreamRecords.headKey(s.tableId(), s.createdMillis(), slot),
                                StreamRecords.key(s.tableId(), s.createdMillis(), slot, Long.MAX_VALUE));
                    }
                    catalog.remove(s);
                    continue;
                }
                for (int slot = 0; slot < s.lineage().nodes().size(); slot++) {
                    storage.deleteRange(Keyspaces.STREAM_RECORDS, StreamRecords.key(s.tableId(), s.createdMillis(), slot, 0),
                            StreamRecords.key(s.tableId(), s.createdMillis(), slot, cut));
                }
            }
        }
    }

    private long largestStoredSequence() {
        long largest = 0;
        if (deployment.numbersShardsByHeadRow()) return largest; // numbered by each shard's head row instead (StreamRecords)
        for (StreamInfo s : catalog.all()) {
            for (int slot = 0; slot < s.lineage().nodes().size(); slot++) {
                try (Cursor c = storage.range(null, Keyspaces.STREAM_RECORDS,
                        StreamRecords.key(s.tableId(), s.createdMillis(), slot, 0),
                        StreamRecords.key(s.tableId(), s.createdMillis(), slot + 1, 0), true)) {
                    if (c.next()) largest = Math.max(largest, StreamRecords.sequenceOf(c.key()));
                }
            }
        }
        return largest;
    }
}
