package io.stator.engine.advisor;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.InflaterInputStream;

/**
 * One server's observations of one table as rows the other servers read (docs/advisor.md, "Across
 * the cluster"). A row is one minute of the table (part {@value #MINUTE_PART}: each resource's
 * minute summary with the units of each of its seconds, and the table's access patterns of the
 * minute) or one second of it (part 1 + the second of the minute: each resource's summary of the
 * second, what the per-second findings read). Deflated: a summary's keys repeat from list to list.
 * Keys are published as the row key's bytes up to the key's end, with their fingerprint, so that
 * a reader counts a key that every server saw as one key.
 */
final class ObservationRows {

    static final int MINUTE_PART = 0;
    private static final int VERSION = 1;

    private ObservationRows() {}

    /**
     * A row read back.
     *
     * @param resources    each resource's (index id, 0 for the table) summary of the minute or second
     * @param secondUnits  a minute's: each resource's read halves of each second of the minute, then
     *                     its write halves (120 values)
     * @param patterns     a minute's access patterns (empty for a second)
     */
    record Row(long minute, int part, Map<Integer, ResourceSummary> resources, Map<Integer, long[]> secondUnits,
               Map<Signature, PatternFigures> patterns) {}

    static byte[] minute(Map<Integer, ResourceSummary> resources, Map<Integer, long[]> secondUnits,
                         Map<Signature, PatternFigures> patterns) {
        return write(out -> {
            resources(out, resources);
            for (int indexId : resources.keySet()) {
                long[] units = secondUnits.get(indexId);
                for (long u : units) out.writeLong(u);
            }
            out.writeInt(patterns.size());
            for (PatternFigures p : patterns.values()) pattern(out, p);
        });
    }

    static byte[] second(Map<Integer, ResourceSummary> resources) {
        return write(out -> resources(out, resources));
    }

    static Row read(long minute, int part, byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new InflaterInputStream(new ByteArrayInputStream(bytes)))) {
            if (in.readInt() != VERSION) throw new IOException("an advisor row of another version");
            Map<Integer, ResourceSummary> resources = new TreeMap<>();
            int n = in.readInt();
            for (int i = 0; i < n; i++) resources.put(in.readInt(), summary(in));
            Map<Integer, long[]> units = new TreeMap<>();
            Map<Signature, PatternFigures> patterns = new LinkedHashMap<>();
            if (part == MINUTE_PART) {
                for (int indexId : resources.keySet()) {
                    long[] u = new long[120];
                    for (int j = 0; j < u.length; j++) u[j] = in.readLong();
                    units.put(indexId, u);
                }
                int p = in.readInt();
                for (int i = 0; i < p; i++) {
                    PatternFigures f = pattern(in);
                    patterns.put(f.signature(), f);
                }
            }
            return new Row(minute, part, resources, units, patterns);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(new DeflaterOutputStream(bytes))) {
            out.writeInt(VERSION);
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    // ---- summaries ---------------------------------------------------------------------------------

    private static void resources(DataOutputStream out, Map<Integer, ResourceSummary> resources) throws IOException {
        out.writeInt(resources.size());
        for (Map.Entry<Integer, ResourceSummary> e : resources.entrySet()) {
            out.writeInt(e.getKey());
            summary(out, e.getValue());
        }
    }

    private static void summary(DataOutputStream out, ResourceSummary s) throws IOException {
        longs(out, s.period(), s.readHalves(), s.writeHalves(), s.insightsHalves(), s.requests());
        out.writeInt(s.throttleEvents().size());
        for (Map.Entry<String, Long> e : s.throttleEvents().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeLong(e.getValue());
        }
        longs(out, s.distinctPartitionKeys(), s.distinctItems());
        keyLists(out, s.partitionKeys());
        out.writeBoolean(s.partitionKeysListed());
        keyLists(out, s.items());
        out.writeBoolean(s.itemsListed());
        out.writeInt(s.partitions().size());
        for (ResourceSummary.PartitionFigures p : s.partitions().values()) {
            longs(out, p.firstHash(), p.readHalves(), p.writeHalves(), p.throttleEvents());
        }
        array(out, s.itemSizes());
        longs(out, s.peakReadHalves(), s.peakWriteHalves());
        array(out, s.partitionStarts());
    }

    private static ResourceSummary summary(DataInputStream in) throws IOException {
        long period = in.readLong();
        long read = in.readLong();
        long write = in.readLong();
        long insights = in.readLong();
        long requests = in.readLong();
        Map<String, Long> throttles = new TreeMap<>();
        int t = in.readInt();
        for (int i = 0; i < t; i++) throttles.put(in.readUTF(), in.readLong());
        long distinctKeys = in.readLong();
        long distinctItems = in.readLong();
        Map<KeyTable.Measure, List<KeyFigures>> keys = keyLists(in);
        boolean keysListed = in.readBoolean();
        Map<KeyTable.Measure, List<KeyFigures>> items = keyLists(in);
        boolean itemsListed = in.readBoolean();
        Map<Long, ResourceSummary.PartitionFigures> partitions = new LinkedHashMap<>();
        int p = in.readInt();
        for (int i = 0; i < p; i++) {
            ResourceSummary.PartitionFigures f = new ResourceSummary.PartitionFigures(in.readLong(), in.readLong(),
                    in.readLong(), in.readLong());
            partitions.put(f.firstHash(), f);
        }
        long[] sizes = array(in);
        long peakRead = in.readLong();
        long peakWrite = in.readLong();
        return new ResourceSummary(period, read, write, insights, requests, throttles, distinctKeys, distinctItems, keys,
                keysListed, items, itemsListed, partitions, sizes, peakRead, peakWrite, array(in));
    }

    private static void keyLists(DataOutputStream out, Map<KeyTable.Measure, List<KeyFigures>> lists) throws IOException {
        out.writeInt(lists.size());
        for (Map.Entry<KeyTable.Measure, List<KeyFigures>> e : lists.entrySet()) {
            out.writeInt(e.getKey().ordinal());
            out.writeInt(e.getValue().size());
            for (KeyFigures f : e.getValue()) {
                byte[] key = f.key().published();
                out.writeInt(key.length);
                out.write(key);
                out.writeInt(f.key().from());
                longs(out, f.key().fingerprint, f.readHalves(), f.writeHalves(), f.insightsHalves(), f.throttles(),
                        f.throttleEvents(), f.requests(), f.items(), f.bytes());
                out.writeBoolean(f.exact());
                out.writeLong(f.errorHalves());
            }
        }
    }

    private static Map<KeyTable.Measure, List<KeyFigures>> keyLists(DataInputStream in) throws IOException {
        Map<KeyTable.Measure, List<KeyFigures>> lists = new EnumMap<>(KeyTable.Measure.class);
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            KeyTable.Measure measure = KeyTable.Measure.values()[in.readInt()];
            int k = in.readInt();
            List<KeyFigures> list = new ArrayList<>(k);
            for (int j = 0; j < k; j++) {
                byte[] key = new byte[in.readInt()];
                in.readFully(key);
                KeyBytes bytes = KeyBytes.restored(key, in.readInt(), in.readLong());
                list.add(new KeyFigures(bytes, in.readLong(), in.readLong(), in.readLong(), in.readLong(), in.readLong(),
                        in.readLong(), in.readLong(), in.readLong(), in.readBoolean(), in.readLong()));
            }
            lists.put(measure, list);
        }
        return lists;
    }

    // ---- access patterns ---------------------------------------------------------------------------

    private static void pattern(DataOutputStream out, PatternFigures p) throws IOException {
        Signature s = p.signature();
        out.writeUTF(s.operation().name());
        out.writeUTF(s.action());
        nullable(out, s.index());
        out.writeUTF(s.keyCondition());
        strings(out, s.filter());
        out.writeBoolean(s.projection() != null);
        if (s.projection() != null) strings(out, s.projection());
        out.writeBoolean(s.countOnly());
        out.writeBoolean(s.consistentRead());
        out.writeInt(s.segments());
        strings(out, s.condition());
        strings(out, s.update());
        longs(out, p.calls(), p.throttled(), p.conditionFailed(), p.tableReadHalves(), p.tableWriteHalves(), p.scanned(),
                p.returned(), p.bytesRead(), p.bytesWritten(), p.maxItemBytes(), p.maxCallHalves());
        out.writeInt(p.indexes().size());
        for (Map.Entry<String, PatternFigures.IndexFigures> e : p.indexes().entrySet()) {
            PatternFigures.IndexFigures f = e.getValue();
            out.writeUTF(e.getKey());
            out.writeBoolean(f.global());
            longs(out, f.readHalves(), f.writeHalves(), f.entriesWritten(), f.entriesRemoved(), f.keyMoves());
            out.writeInt(f.movedAttributes().size());
            for (Map.Entry<String, Long> m : f.movedAttributes().entrySet()) {
                out.writeUTF(m.getKey());
                out.writeLong(m.getValue());
            }
            out.writeLong(f.maxEntryBytes());
        }
        longs(out, p.peakCallsPerSecond(), p.peakHalvesPerSecond(), p.firstSecond(), p.lastSecond());
    }

    private static PatternFigures pattern(DataInputStream in) throws IOException {
        Operation operation = Operation.valueOf(in.readUTF());
        String action = in.readUTF();
        String index = nullable(in);
        String keyCondition = in.readUTF();
        List<String> filter = strings(in);
        List<String> projection = in.readBoolean() ? strings(in) : null;
        Signature s = new Signature(operation, action, index, keyCondition, filter, projection, in.readBoolean(),
                in.readBoolean(), in.readInt(), strings(in), strings(in));
        long[] v = new long[11];
        for (int i = 0; i < v.length; i++) v[i] = in.readLong();
        Map<String, PatternFigures.IndexFigures> indexes = new TreeMap<>();
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            boolean global = in.readBoolean();
            long[] f = new long[5];
            for (int j = 0; j < f.length; j++) f[j] = in.readLong();
            Map<String, Long> moved = new TreeMap<>();
            int m = in.readInt();
            for (int j = 0; j < m; j++) moved.put(in.readUTF(), in.readLong());
            indexes.put(name, new PatternFigures.IndexFigures(global, f[0], f[1], f[2], f[3], f[4], moved, in.readLong()));
        }
        return new PatternFigures(s, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], indexes,
                in.readLong(), in.readLong(), in.readLong(), in.readLong());
    }

    // ---- primitives --------------------------------------------------------------------------------

    private static void longs(DataOutputStream out, long... values) throws IOException {
        for (long v : values) out.writeLong(v);
    }

    private static void array(DataOutputStream out, long[] values) throws IOException {
        out.writeInt(values.length);
        longs(out, values);
    }

    private static long[] array(DataInputStream in) throws IOException {
        long[] v = new long[in.readInt()];
        for (int i = 0; i < v.length; i++) v[i] = in.readLong();
        return v;
    }

    private static void nullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) out.writeUTF(s);
    }

    private static String nullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    private static void strings(DataOutputStream out, List<String> list) throws IOException {
        out.writeInt(list.size());
        for (String s : list) out.writeUTF(s);
    }

    private static List<String> strings(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(in.readUTF());
        return List.copyOf(out);
    }
}
