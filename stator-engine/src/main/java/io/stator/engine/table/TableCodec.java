package io.stator.engine.table;

import io.stator.core.key.PartitionHash;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.OnDemandThroughput;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.SseSpecification;
import io.stator.engine.table.TableDefinition.SseType;
import io.stator.engine.table.TableDefinition.StreamSpecification;
import io.stator.engine.table.TableDefinition.StreamViewType;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored form of a {@link TableDefinition} in the CATALOG key space.
 *
 * <p>Format version 1, written with {@link DataOutputStream} (big-endian, strings as modified
 * UTF-8 with a 2-byte length). Enums are stored by name, so reordering them is safe; renaming
 * one is a format change. Optional fields are preceded by a presence byte (0 or 1); instants are
 * epoch milliseconds.
 * <pre>
 * u8   version = 12 (version 1 ends after the tags and has no indexes; version 2 ends after the
 *      indexes and has no resource policy; version 3 ends after the resource policy and has no
 *      Time to Live; version 4 ends after Time to Live and has no point-in-time recovery or restore
 *      summary; version 5 ends after the restore summary and has no Contributor Insights; version 6 ends
 *      after Contributor Insights and has no vector indexes; version 7 ends after the vector indexes and has
 *      no global table; version 8 has no replica overrides; version 9 ends after the global table and
 *      has no partition hash; version 10 ends after the partition hash and has no transition; version 11
 *      ends after the transition and has no Kinesis destinations)
 * i64  id;  utf name;  utf tableId;  i64 creationDateTime
 * utf  partitionKey; utf partitionKeyType; u8 hasSortKey [utf sortKey; utf sortKeyType]
 * i32  n; n x (utf attributeName; utf attributeType)
 * utf  billingMode; opt(i64 lastUpdateToPayPerRequestDateTime)
 * i64  readCapacityUnits; i64 writeCapacityUnits; opt(i64 lastIncrease); opt(i64 lastDecrease);
 * i32  numberOfDecreasesToday
 * opt( u8 streamEnabled; opt(utf streamViewType) ); opt(utf latestStreamLabel)
 * opt( utf sseType; opt(utf kmsMasterKeyArn) )
 * utf  tableClass; opt(i64 tableClassLastUpdateDateTime); u8 deletionProtectionEnabled
 * opt( i64 maxReadRequestUnits; i64 maxWriteRequestUnits )
 * opt( i64 readUnitsPerSecond; i64 writeUnitsPerSecond )
 * i32  n; n x (utf tagKey; utf tagValue)
 * i32  lastIndexId; i32 n; n x globalIndex; i32 n; n x localIndex
 * opt( i32 n; n bytes UTF-8 policy document; utf revisionId )   [the resource-based policy]
 * opt( utf timeToLiveStatus; opt(utf attributeName); opt(i64 lastUpdateDateTime) )   [Time to Live]
 * opt( i32 recoveryPeriodInDays; i64 baseDateTime; u8 baseReady )   [point-in-time recovery]
 * opt( utf importArn )   [while an ImportTable fills the table]
 * opt( opt(utf sourceBackupArn); utf sourceTableArn; i64 restoreDateTime; u8 inProgress )   [RestoreSummary]
 * i32  n; n x (i32 resource [0: the table, else a global index's id]; utf requested [ENABLING or
 *      DISABLING]; utf mode; i64 requestedAt; i64 ruleTimestamp; u8 failure)   [Contributor Insights]
 * i32  n; n x (index; utf vectorAttribute; i32 dimensions; utf distanceFunction;
 *      i32 n; n x (utf attribute; utf type) [inline filters])   [vector indexes; the HASH is the partition key]
 * opt( utf consistency; i64 epoch; i32 n; n x (utf region; utf replicaStatus; i32 percentProgress;
 *      opt(utf statusDescription); opt(i64 inaccessibleSince)); opt(utf witnessRegion; utf witnessStatus) )
 *      [the global table, version 2019.11.21]
 * utf  partitionHash   [the key layout of the table's rows: XXH64 (layout 1, every table written
 *      before version 10) or DYNAMODB (layout 2); see io.stator.core.key.KeyLayout]
 * opt( utf status [CREATING or UPDATING]; i64 until; u8 increase; u8 decrease )   [the transition,
 *      --table-creation-delay]
 * i32  n; n x (utf streamArn; utf status; opt(utf description); opt(utf precision); i64 enabledMillis)
 *      [the Kinesis data stream destinations]
 * index := utf name; i32 id; i32 n; n x (utf attribute; utf type) [partition key];
 *          i32 n; n x (utf attribute; utf type) [sort key]; utf projectionType;
 *          i32 n; n x utf nonKeyAttribute;
 *          opt( i64 read; i64 write; opt(i64 lastIncrease); opt(i64 lastDecrease); i32 decreases );
 *          opt( i64 maxRead; i64 maxWrite ); opt( i64 warmRead; i64 warmWrite );
 *          utf status; u8 backfilling; i64 creationDateTime
 * </pre>
 * A change to this layout gets a new version number, and {@link #decode} keeps reading the old.
 */
public final class TableCodec {

    private static final int VERSION = 12;

    private TableCodec() {}

    public static byte[] encode(TableDefinition t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeLong(t.id());
            out.writeUTF(t.name());
            out.writeUTF(t.tableId());
            out.writeLong(t.creationDateTime().toEpochMilli());
            KeySchema k = t.keySchema();
            out.writeUTF(k.partitionKey());
            out.writeUTF(k.partitionKeyType().name());
            out.writeBoolean(k.hasSortKey());
            if (k.hasSortKey()) {
                out.writeUTF(k.sortKey());
                out.writeUTF(k.sortKeyType().name());
            }
            out.writeInt(t.attributeDefinitions().size());
            for (AttributeDefinition a : t.attributeDefinitions()) {
                out.writeUTF(a.name());
                out.writeUTF(a.type().name());
            }
            out.writeUTF(t.billingMode().name());
            writeInstant(out, t.lastUpdateToPayPerRequestDateTime());
            ProvisionedThroughput p = t.throughput();
            out.writeLong(p.readCapacityUnits());
            out.writeLong(p.writeCapacityUnits());
            writeInstant(out, p.lastIncreaseDateTime());
            writeInstant(out, p.lastDecreaseDateTime());
            out.writeInt(p.numberOfDecreasesToday());
            out.writeBoolean(t.stream() != null);
            if (t.stream() != null) {
                out.writeBoolean(t.stream().enabled());
                writeString(out, t.stream().viewType() == null ? null : t.stream().viewType().name());
            }
            writeString(out, t.latestStreamLabel());
            out.writeBoolean(t.sse() != null);
            if (t.sse() != null) {
                out.writeUTF(t.sse().type().name());
                writeString(out, t.sse().kmsMasterKeyArn());
            }
            out.writeUTF(t.tableClass().name());
            writeInstant(out, t.tableClassLastUpdateDateTime());
            out.writeBoolean(t.deletionProtectionEnabled());
            out.writeBoolean(t.onDemandThroughput() != null);
            if (t.onDemandThroughput() != null) {
                out.writeLong(t.onDemandThroughput().maxReadRequestUnits());
                out.writeLong(t.onDemandThroughput().maxWriteRequestUnits());
            }
            out.writeBoolean(t.warmThroughput() != null);
            if (t.warmThroughput() != null) {
                out.writeLong(t.warmThroughput().readUnitsPerSecond());
                out.writeLong(t.warmThroughput().writeUnitsPerSecond());
            }
            out.writeInt(t.tags().size());
            for (Map.Entry<String, String> tag : t.tags().entrySet()) {
                out.writeUTF(tag.getKey());
                out.writeUTF(tag.getValue());
            }
            out.writeInt(t.lastIndexId());
            out.writeInt(t.globalIndexes().size());
            for (IndexDefinition index : t.globalIndexes()) writeIndex(out, index);
            out.writeInt(t.localIndexes().size());
            for (IndexDefinition index : t.localIndexes()) writeIndex(out, index);
            out.writeBoolean(t.resourcePolicy() != null);
            if (t.resourcePolicy() != null) {
                // Written as counted UTF-8, not writeUTF: a document may exceed writeUTF's 64 KB.
                byte[] document = t.resourcePolicy().document().getBytes(StandardCharsets.UTF_8);
                out.writeInt(document.length);
                out.write(document);
                out.writeUTF(t.resourcePolicy().revisionId());
            }
            out.writeBoolean(t.timeToLive() != null);
            if (t.timeToLive() != null) {
                out.writeUTF(t.timeToLive().status().name());
                writeString(out, t.timeToLive().attributeName());
                writeInstant(out, t.timeToLive().lastUpdateDateTime());
            }
            out.writeBoolean(t.pointInTimeRecovery() != null);
            if (t.pointInTimeRecovery() != null) {
                out.writeInt(t.pointInTimeRecovery().recoveryPeriodInDays());
                out.writeLong(t.pointInTimeRecovery().baseDateTime().toEpochMilli());
                out.writeBoolean(t.pointInTimeRecovery().baseReady());
            }
            writeString(out, t.importArn());
            out.writeBoolean(t.restore() != null);
            if (t.restore() != null) {
                writeString(out, t.restore().sourceBackupArn());
                out.writeUTF(t.restore().sourceTableArn());
                out.writeLong(t.restore().restoreDateTime().toEpochMilli());
                out.writeBoolean(t.restore().inProgress());
            }
            out.writeInt(t.contributorInsights().size());
            for (Map.Entry<Integer, ContributorInsightsSetting> ci : new java.util.TreeMap<>(t.contributorInsights()).entrySet()) {
                ContributorInsightsSetting c = ci.getValue();
                out.writeInt(ci.getKey());
                out.writeUTF(c.requested().name());
                out.writeUTF(c.mode().name());
                out.writeLong(c.requestedAt().toEpochMilli());
                out.writeLong(c.ruleTimestampMillis());
                out.writeBoolean(c.failure());
            }
            out.writeInt(t.vectorIndexes().size());
            for (IndexDefinition index : t.vectorIndexes()) {
                writeIndex(out, index);
                out.writeUTF(index.vector().attribute());
                out.writeInt(index.vector().dimensions());
                out.writeUTF(index.vector().distanceFunction().name());
                writeKeyAttributes(out, index.vector().inlineFilters());
            }
            writeGlobalTable(out, t.globalTable());
            out.writeUTF(t.partitionHash().name());
            out.writeBoolean(t.transition() != null);
            if (t.transition() != null) {
                out.writeUTF(t.transition().status().name());
                out.writeLong(t.transition().until().toEpochMilli());
                out.writeBoolean(t.transition().increase());
                out.writeBoolean(t.transition().decrease());
            }
            out.writeInt(t.kinesisDestinations().size());
            for (KinesisDataStreamDestination d : t.kinesisDestinations()) {
                out.writeUTF(d.streamArn());
                out.writeUTF(d.status().name());
                out.writeBoolean(d.description() != null);
                if (d.description() != null) out.writeUTF(d.description());
                out.writeBoolean(d.precision() != null);
                if (d.precision() != null) out.writeUTF(d.precision().name());
                out.writeLong(d.enabledMillis());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static TableDefinition decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int version = in.readUnsignedByte();
            if (version < 1 || version > VERSION) {
                throw new IllegalStateException("unsupported table catalog format version " + version);
            }
            TableDefinition.Builder b = new TableDefinition.Builder();
            b.id = in.readLong();
            b.name = in.readUTF();
            b.tableId = in.readUTF();
            b.creationDateTime = Instant.ofEpochMilli(in.readLong());
            String pk = in.readUTF();
            AttributeValue.Type pkType = AttributeValue.Type.valueOf(in.readUTF());
            String sk = null;
            AttributeValue.Type skType = null;
            if (in.readBoolean()) {
                sk = in.readUTF();
                skType = AttributeValue.Type.valueOf(in.readUTF());
            }
            b.keySchema = new KeySchema(pk, pkType, sk, skType);
            int n = in.readInt();
            List<AttributeDefinition> defs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                defs.add(new AttributeDefinition(in.readUTF(), AttributeValue.Type.valueOf(in.readUTF())));
            }
            b.attributeDefinitions = defs;
            b.billingMode = BillingMode.valueOf(in.readUTF());
            b.lastUpdateToPayPerRequestDateTime = readInstant(in);
            b.throughput = new ProvisionedThroughput(in.readLong(), in.readLong(), readInstant(in),
                    readInstant(in), in.readInt());
            if (in.readBoolean()) {
                boolean enabled = in.readBoolean();
                String view = readString(in);
                b.stream = new StreamSpecification(enabled, view == null ? null : StreamViewType.valueOf(view));
            }
            b.latestStreamLabel = readString(in);
            if (in.readBoolean()) {
                b.sse = new SseSpecification(SseType.valueOf(in.readUTF()), readString(in));
            }
            b.tableClass = TableClass.valueOf(in.readUTF());
            b.tableClassLastUpdateDateTime = readInstant(in);
            b.deletionProtectionEnabled = in.readBoolean();
            if (in.readBoolean()) b.onDemandThroughput = new OnDemandThroughput(in.readLong(), in.readLong());
            if (in.readBoolean()) b.warmThroughput = new WarmThroughput(in.readLong(), in.readLong());
            int tagCount = in.readInt();
            Map<String, String> tags = new LinkedHashMap<>();
            for (int i = 0; i < tagCount; i++) tags.put(in.readUTF(), in.readUTF());
            b.tags = tags;
            if (version >= 2) {
                b.lastIndexId = in.readInt();
                b.globalIndexes = readIndexes(in, true);
                b.localIndexes = readIndexes(in, false);
            }
            if (version >= 3 && in.readBoolean()) {
                byte[] document = new byte[in.readInt()];
                in.readFully(document);
                b.resourcePolicy = new ResourcePolicy(new String(document, StandardCharsets.UTF_8), in.readUTF());
            }
            if (version >= 4 && in.readBoolean()) {
                b.timeToLive = new TimeToLiveDescription(
                        TimeToLiveDescription.TimeToLiveStatus.valueOf(in.readUTF()), readString(in), readInstant(in));
            }
            if (version >= 5 && in.readBoolean()) {
                b.pointInTimeRecovery = new TableDefinition.PointInTimeRecovery(in.readInt(),
                        Instant.ofEpochMilli(in.readLong()), in.readBoolean());
            }
            if (version >= 5) b.importArn = readString(in);
            if (version >= 5 && in.readBoolean()) {
                b.restore = new TableDefinition.RestoreSummary(readString(in), in.readUTF(),
                        Instant.ofEpochMilli(in.readLong()), in.readBoolean());
            }
            if (version >= 6) {
                int n2 = in.readInt();
                Map<Integer, ContributorInsightsSetting> insights = new LinkedHashMap<>();
                for (int i = 0; i < n2; i++) {
                    int resource = in.readInt();
                    insights.put(resource, new ContributorInsightsSetting(
                            ContributorInsightsSetting.Status.valueOf(in.readUTF()),
                            ContributorInsightsSetting.Mode.valueOf(in.readUTF()), Instant.ofEpochMilli(in.readLong()),
                            in.readLong(), in.readBoolean()));
                }
                b.contributorInsights = insights;
            }
            if (version >= 7) {
                b.vectorIndexes = readIndexes(in, true, true);
            }
            if (version >= 8) b.globalTable = readGlobalTable(in, version);
            // A table written before version 10 was created with key layout 1's hash, and keeps it.
            b.partitionHash = version >= 10 ? PartitionHash.valueOf(in.readUTF()) : PartitionHash.XXH64;
            if (version >= 11 && in.readBoolean()) {
                b.transition = new TableDefinition.Transition(TableDefinition.Transition.Status.valueOf(in.readUTF()),
                        Instant.ofEpochMilli(in.readLong()), in.readBoolean(), in.readBoolean());
            }
            if (version >= 12) {
                List<KinesisDataStreamDestination> destinations = new ArrayList<>();
                for (int i = in.readInt(); i > 0; i--) {
                    String arn = in.readUTF();
                    KinesisDataStreamDestination.Status status = KinesisDataStreamDestination.Status.valueOf(in.readUTF());
                    String description = in.readBoolean() ? in.readUTF() : null;
                    KinesisDataStreamDestination.Precision precision = in.readBoolean()
                            ? KinesisDataStreamDestination.Precision.valueOf(in.readUTF()) : null;
                    destinations.add(new KinesisDataStreamDestination(arn, status, description, precision, in.readLong()));
                }
                b.kinesisDestinations = destinations;
            }
            return b.build();
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt table catalog entry", e);
        }
    }

    private static void writeGlobalTable(DataOutputStream out, GlobalTable g) throws IOException {
        out.writeBoolean(g != null);
        if (g == null) return;
        out.writeUTF(g.consistency().name());
        out.writeLong(g.epoch());
        out.writeInt(g.replicas().size());
        for (GlobalTable.Replica r : g.replicas()) {
            out.writeUTF(r.region());
            out.writeUTF(r.status().name());
            out.writeInt(r.percentProgress());
            writeString(out, r.statusDescription());
            writeInstant(out, r.inaccessibleSince());
            writeOverrides(out, r.overrides());
        }
        out.writeBoolean(g.witness() != null);
        if (g.witness() != null) {
            out.writeUTF(g.witness().region());
            out.writeUTF(g.witness().status().name());
        }
    }

    private static GlobalTable readGlobalTable(DataInputStream in, int version) throws IOException {
        if (!in.readBoolean()) return null;
        GlobalTable.Consistency consistency = GlobalTable.Consistency.valueOf(in.readUTF());
        long epoch = in.readLong();
        int n = in.readInt();
        List<GlobalTable.Replica> replicas = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            replicas.add(new GlobalTable.Replica(in.readUTF(), GlobalTable.ReplicaStatus.valueOf(in.readUTF()),
                    in.readInt(), readString(in), readInstant(in), version >= 9 ? readOverrides(in) : null));
        }
        GlobalTable.Witness witness = in.readBoolean()
                ? new GlobalTable.Witness(in.readUTF(), GlobalTable.WitnessStatus.valueOf(in.readUTF())) : null;
        return new GlobalTable(consistency, epoch, replicas, witness);
    }

    /** A replica's overrides (v9): present; read units, max read units (-1: not given), class, KMS key; indexes. */
    private static void writeOverrides(DataOutputStream out, GlobalTable.Overrides o) throws IOException {
        out.writeBoolean(o != null);
        if (o == null) return;
        out.writeLong(o.readCapacityUnits() == null ? -1 : o.readCapacityUnits());
        out.writeLong(o.maxReadRequestUnits() == null ? -1 : o.maxReadRequestUnits());
        writeString(out, o.tableClass());
        writeString(out, o.kmsMasterKeyId());
        out.writeInt(o.indexes().size());
        for (GlobalTable.IndexOverride i : o.indexes()) {
            out.writeUTF(i.indexName());
            out.writeLong(i.readCapacityUnits() == null ? -1 : i.readCapacityUnits());
            out.writeLong(i.maxReadRequestUnits() == null ? -1 : i.maxReadRequestUnits());
        }
    }

    private static GlobalTable.Overrides readOverrides(DataInputStream in) throws IOException {
        if (!in.readBoolean()) return null;
        Long read = given(in.readLong());
        Long maxRead = given(in.readLong());
        String tableClass = readString(in);
        String kms = readString(in);
        int n = in.readInt();
        List<GlobalTable.IndexOverride> indexes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) indexes.add(new GlobalTable.IndexOverride(in.readUTF(), given(in.readLong()),
                given(in.readLong())));
        return new GlobalTable.Overrides(read, maxRead, tableClass, kms, indexes);
    }

    private static Long given(long value) {
        return value < 0 ? null : value;
    }

    private static void writeIndex(DataOutputStream out, IndexDefinition index) throws IOException {
        out.writeUTF(index.name());
        out.writeInt(index.id());
        writeKeyAttributes(out, index.partitionKey());
        writeKeyAttributes(out, index.sortKey());
        out.writeUTF(index.projectionType().name());
        out.writeInt(index.nonKeyAttributes().size());
        for (String a : index.nonKeyAttributes()) out.writeUTF(a);
        ProvisionedThroughput p = index.throughput();
        out.writeBoolean(p != null);
        if (p != null) {
            out.writeLong(p.readCapacityUnits());
            out.writeLong(p.writeCapacityUnits());
            writeInstant(out, p.lastIncreaseDateTime());
            writeInstant(out, p.lastDecreaseDateTime());
            out.writeInt(p.numberOfDecreasesToday());
        }
        out.writeBoolean(index.onDemandThroughput() != null);
        if (index.onDemandThroughput() != null) {
            out.writeLong(index.onDemandThroughput().maxReadRequestUnits());
            out.writeLong(index.onDemandThroughput().maxWriteRequestUnits());
        }
        out.writeBoolean(index.warmThroughput() != null);
        if (index.warmThroughput() != null) {
            out.writeLong(index.warmThroughput().readUnitsPerSecond());
            out.writeLong(index.warmThroughput().writeUnitsPerSecond());
        }
        out.writeUTF(index.status().name());
        out.writeBoolean(index.backfilling());
        out.writeLong(index.creationDateTime().toEpochMilli());
    }

    private static void writeKeyAttributes(DataOutputStream out, List<IndexDefinition.KeyAttribute> keys)
            throws IOException {
        out.writeInt(keys.size());
        for (IndexDefinition.KeyAttribute k : keys) {
            out.writeUTF(k.name());
            out.writeUTF(k.type().name());
        }
    }

    private static List<IndexDefinition> readIndexes(DataInputStream in, boolean global) throws IOException {
        return readIndexes(in, global, false);
    }

    private static List<IndexDefinition> readIndexes(DataInputStream in, boolean global, boolean vectors)
            throws IOException {
        int n = in.readInt();
        List<IndexDefinition> indexes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            int id = in.readInt();
            List<IndexDefinition.KeyAttribute> partition = readKeyAttributes(in);
            List<IndexDefinition.KeyAttribute> sort = readKeyAttributes(in);
            IndexDefinition.ProjectionType projection = IndexDefinition.ProjectionType.valueOf(in.readUTF());
            int nonKeyCount = in.readInt();
            List<String> nonKey = new ArrayList<>(nonKeyCount);
            for (int j = 0; j < nonKeyCount; j++) nonKey.add(in.readUTF());
            ProvisionedThroughput throughput = in.readBoolean() ? new ProvisionedThroughput(in.readLong(),
                    in.readLong(), readInstant(in), readInstant(in), in.readInt()) : null;
            OnDemandThroughput onDemand = in.readBoolean() ? new OnDemandThroughput(in.readLong(), in.readLong()) : null;
            WarmThroughput warm = in.readBoolean() ? new WarmThroughput(in.readLong(), in.readLong()) : null;
            IndexDefinition.IndexStatus status = IndexDefinition.IndexStatus.valueOf(in.readUTF());
            boolean backfilling = in.readBoolean();
            Instant created = Instant.ofEpochMilli(in.readLong());
            IndexDefinition.Vector vector = vectors ? new IndexDefinition.Vector(in.readUTF(), in.readInt(),
                    io.stator.engine.index.vector.Distance.valueOf(in.readUTF()), readKeyAttributes(in)) : null;
            indexes.add(new IndexDefinition(name, id, global, partition, sort, projection, nonKey, throughput,
                    onDemand, warm, status, backfilling, created, vector));
        }
        return indexes;
    }

    private static List<IndexDefinition.KeyAttribute> readKeyAttributes(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<IndexDefinition.KeyAttribute> keys = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            keys.add(new IndexDefinition.KeyAttribute(in.readUTF(), AttributeValue.Type.valueOf(in.readUTF())));
        }
        return keys;
    }

    private static void writeInstant(DataOutputStream out, Instant instant) throws IOException {
        out.writeBoolean(instant != null);
        if (instant != null) out.writeLong(instant.toEpochMilli());
    }

    private static Instant readInstant(DataInputStream in) throws IOException {
        return in.readBoolean() ? Instant.ofEpochMilli(in.readLong()) : null;
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) out.writeUTF(s);
    }

    private static String readString(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
