package io.stator.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * The vector workload's data set: {@code count} vectors of {@code dimensions} 32-bit floats in
 * Gaussian clusters, the queries, and their exact nearest neighbours by Euclidean distance.
 *
 * <p>How it is drawn, from one seed: {@code clusters} centres with every component N(0, 1); each
 * vector picks a centre uniformly and adds N(0, {@link #SPREAD}²) to each component; each query
 * picks a centre and adds N(0, ({@link #SPREAD}/2)²): near a centre, never a vector of the set, so
 * that a search cannot win by finding the query itself. The Gaussians are Box-Muller over
 * {@link SplittableRandom#nextDouble()} with {@link StrictMath}, both specified to the bit, so the
 * same seed gives the same data on every JDK (the JDK's own {@code nextGaussian} is not).
 *
 * <p>The exact neighbours rank by the score Stator's EUCLIDEAN index gives (the L2 distance of
 * the floats, summed in doubles), ties by vector number, which is the order of the keys
 * ({@link #key}) that break ties in Stator's exact search. The data go to the reference libraries
 * as NumPy {@code .npy} files ({@link #writeNpy}).
 */
record VectorData(int count, int dimensions, int clusters, long seed, float[] vectors, float[] queries) {

    /** Standard deviation of a vector's components around its centre. */
    static final double SPREAD = 0.5;

    /** The neighbours recall is counted over: recall@10. */
    static final int K = 10;

    static VectorData generate(int count, int dimensions, int queryCount, int clusters, long seed) {
        if (count < 1 || dimensions < 1 || queryCount < 1 || clusters < 1) {
            throw new IllegalArgumentException("count, dimensions, queries and clusters must be at least 1");
        }
        if ((long) count * dimensions > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(count + " x " + dimensions + " floats do not fit one Java array");
        }
        Gaussians random = new Gaussians(seed);
        float[] centres = new float[clusters * dimensions];
        for (int i = 0; i < centres.length; i++) centres[i] = (float) random.next();
        float[] vectors = new float[count * dimensions];
        draw(vectors, count, dimensions, centres, clusters, SPREAD, random);
        float[] queries = new float[queryCount * dimensions];
        draw(queries, queryCount, dimensions, centres, clusters, SPREAD / 2, random);
        return new VectorData(count, dimensions, clusters, seed, vectors, queries);
    }

    private static void draw(float[] out, int n, int d, float[] centres, int clusters, double spread, Gaussians random) {
        for (int i = 0; i < n; i++) {
            int c = random.random.nextInt(clusters);
            for (int j = 0; j < d; j++) out[i * d + j] = (float) (centres[c * d + j] + spread * random.next());
        }
    }

    int queryCount() { return queries.length / dimensions; }

    /** Vector {@code i}'s key: zero-padded, so that keys sort as the numbers do. */
    static String key(int i) {
        String digits = Integer.toString(i);
        return "v" + "0".repeat(Math.max(0, 8 - digits.length())) + digits;
    }

    /** The vector number of a key made by {@link #key}, or -1 for any other string. */
    static int number(String key) {
        if (key.length() < 2 || key.charAt(0) != 'v') return -1;
        try {
            return Integer.parseInt(key, 1, key.length(), 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Stator's EUCLIDEAN score: the L2 distance of the floats, summed in doubles (VectorScores). */
    static double distance(float[] a, int aOffset, float[] b, int bOffset, int dimensions) {
        double sum = 0;
        for (int j = 0; j < dimensions; j++) {
            double diff = (double) a[aOffset + j] - b[bOffset + j];
            sum += diff * diff;
        }
        return Math.sqrt(sum);
    }

    /**
     * The exact {@code k} nearest vectors of every query, nearest first, ties by vector number:
     * brute force over the whole set, the queries shared among {@code threads} threads.
     */
    int[][] exactNeighbours(int k, int threads) {
        int q = queryCount();
        int[][] out = new int[q][];
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = IntStream.range(0, Math.max(1, threads)).mapToObj(t -> Thread.ofPlatform().start(() -> {
            for (int i; (i = next.getAndIncrement()) < q; ) out[i] = nearest(i, k);
        })).toList();
        LoadGenerator.join(workers);
        return out;
    }

    private record Candidate(int vector, double distance) {}

    private int[] nearest(int query, int k) {
        // Worst at the head: the one to drop.
        PriorityQueue<Candidate> best = new PriorityQueue<>(k + 1, (a, b) -> a.distance() != b.distance()
                ? Double.compare(b.distance(), a.distance()) : Integer.compare(b.vector(), a.vector()));
        for (int i = 0; i < count; i++) {
            double dist = distance(queries, query * dimensions, vectors, i * dimensions, dimensions);
            if (best.size() == k) {
                Candidate worst = best.peek();
                if (dist > worst.distance() || (dist == worst.distance() && i > worst.vector())) continue;
            }
            best.add(new Candidate(i, dist));
            if (best.size() > k) best.poll();
        }
        int[] ids = new int[best.size()];
        for (int i = ids.length - 1; i >= 0; i--) ids[i] = best.poll().vector();
        return ids;
    }

    /**
     * Recall@k: for each query, the share of its exact {@code k} nearest that the search returned
     * among its first {@code k} results, averaged over the queries. A query the search answered
     * with fewer results counts the ones it lacks as misses.
     */
    static double recall(int[][] exact, int[][] found, int k) {
        if (exact.length != found.length) throw new IllegalArgumentException(exact.length + " queries, " + found.length + " answers");
        if (exact.length == 0) return Double.NaN;
        long hits = 0;
        for (int q = 0; q < exact.length; q++) {
            int limit = Math.min(k, found[q].length);
            for (int i = 0; i < Math.min(k, exact[q].length); i++) {
                for (int j = 0; j < limit; j++) {
                    if (found[q][j] == exact[q][i]) {
                        hits++;
                        break;
                    }
                }
            }
        }
        return hits / ((double) exact.length * k);
    }

    /** The vector's components as DynamoDB numbers: each float's shortest decimal, which reads back as that float. */
    void appendVector(StringBuilder json, float[] from, int index) {
        json.append('[');
        for (int j = 0; j < dimensions; j++) {
            if (j > 0) json.append(',');
            json.append("{\"N\":\"").append(Float.toString(from[index * dimensions + j])).append("\"}");
        }
        json.append(']');
    }

    /** The files the reference script reads: {@code base.npy}, {@code queries.npy} (float32) and {@code truth.npy} (int32). */
    void writeNpy(Path dir, int[][] truth) throws IOException {
        Files.createDirectories(dir);
        writeFloats(dir.resolve("base.npy"), vectors, count, dimensions);
        writeFloats(dir.resolve("queries.npy"), queries, queryCount(), dimensions);
        int k = truth.length == 0 ? 0 : truth[0].length;
        ByteBuffer ints = ByteBuffer.allocate(truth.length * k * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int[] row : truth) {
            if (row.length != k) throw new IllegalArgumentException("every query needs " + k + " neighbours");
            for (int id : row) ints.putInt(id);
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve("truth.npy"))) {
            out.write(npyHeader("<i4", truth.length, k));
            out.write(ints.array());
        }
    }

    private static void writeFloats(Path file, float[] values, int rows, int columns) throws IOException {
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(ByteBuffer.wrap(npyHeader("<f4", rows, columns)));
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
            for (float v : values) {
                if (!chunk.hasRemaining()) {
                    chunk.flip();
                    while (chunk.hasRemaining()) out.write(chunk);
                    chunk.clear();
                }
                chunk.putFloat(v);
            }
            chunk.flip();
            while (chunk.hasRemaining()) out.write(chunk);
        }
    }

    /**
     * An NPY version 1.0 header (NumPy's format: the magic string, the version, the header's
     * length, then a Python dict literal padded with spaces and a newline so that the data start
     * at a multiple of 64 bytes).
     */
    static byte[] npyHeader(String dtype, int rows, int columns) {
        String dict = String.format(Locale.ROOT, "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }",
                dtype, rows, columns);
        int unpadded = 10 + dict.length() + 1;
        int total = (unpadded + 63) / 64 * 64;
        String header = dict + " ".repeat(total - unpadded) + "\n";
        ByteBuffer out = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        out.putShort((short) header.length());
        out.put(header.getBytes(StandardCharsets.US_ASCII));
        return out.array();
    }

    /** Standard normal draws by Box-Muller, both of each pair used. */
    private static final class Gaussians {
        final SplittableRandom random;
        private double spare;
        private boolean hasSpare;

        Gaussians(long seed) {
            random = new SplittableRandom(seed);
        }

        double next() {
            if (hasSpare) {
                hasSpare = false;
                return spare;
            }
            double u = 1.0 - random.nextDouble(); // in (0, 1]: log(u) is finite
            double v = random.nextDouble();
            double r = StrictMath.sqrt(-2 * StrictMath.log(u));
            spare = r * StrictMath.sin(2 * Math.PI * v);
            hasSpare = true;
            return r * StrictMath.cos(2 * Math.PI * v);
        }
    }
}
