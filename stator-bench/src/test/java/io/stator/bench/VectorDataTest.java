package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vector workload's data set: deterministic, its exact neighbours and recall right, its files NumPy's. */
class VectorDataTest {

    @TempDir
    Path dir;

    @Test
    void theSameSeedGivesTheSameDataOnEveryRunAndJdk() {
        VectorData a = VectorData.generate(300, 16, 20, 10, 32);
        VectorData b = VectorData.generate(300, 16, 20, 10, 32);
        assertArrayEquals(a.vectors(), b.vectors());
        assertArrayEquals(a.queries(), b.queries());
        assertFalse(Arrays.equals(a.vectors(), VectorData.generate(300, 16, 20, 10, 33).vectors()));
        // Pinned: Box-Muller on SplittableRandom and StrictMath, both specified to the bit, so a
        // report's data set can be made again anywhere. A change here changes every figure.
        assertEquals(1580149860, Arrays.hashCode(a.vectors()));
        assertEquals(1673849609, Arrays.hashCode(a.queries()));
    }

    @Test
    void vectorsClusterAroundTheirCentresAndNoQueryIsInTheSet() {
        VectorData data = VectorData.generate(2000, 32, 50, 4, 7);
        for (int q = 0; q < data.queryCount(); q++) {
            for (int i = 0; i < data.count(); i++) {
                assertTrue(VectorData.distance(data.queries(), q * 32, data.vectors(), i * 32, 32) > 0);
            }
        }
        int[][] truth = data.exactNeighbours(VectorData.K, 2);
        // A query near a centre: its cluster's vectors are far nearer than the other clusters'.
        double nearest = VectorData.distance(data.queries(), 0, data.vectors(), truth[0][0] * 32, 32);
        double farthest = IntStream.range(0, data.count())
                .mapToDouble(i -> VectorData.distance(data.queries(), 0, data.vectors(), i * 32, 32)).max().orElseThrow();
        assertTrue(nearest < farthest / 2, nearest + " vs " + farthest);
    }

    @Test
    void exactNeighboursAreTheSortedDistancesTiesByNumber() {
        VectorData data = VectorData.generate(500, 8, 30, 5, 1);
        int[][] truth = data.exactNeighbours(VectorData.K, 3);
        for (int q = 0; q < data.queryCount(); q++) {
            int query = q;
            int[] sorted = IntStream.range(0, data.count()).boxed()
                    .sorted(Comparator.<Integer>comparingDouble(i -> VectorData.distance(data.queries(), query * 8,
                            data.vectors(), i * 8, 8)).thenComparingInt(i -> i))
                    .limit(VectorData.K).mapToInt(Integer::intValue).toArray();
            assertArrayEquals(sorted, truth[q], "query " + q);
        }
        // Equal distances: the lower number first, as the keys break Stator's ties.
        float[] same = {1, 0, -1, 0, 0, 1, 0, -1, 5, 5};
        VectorData ties = new VectorData(5, 2, 1, 0, same, new float[] {0, 0});
        assertArrayEquals(new int[] {0, 1, 2}, ties.exactNeighbours(3, 1)[0]);
    }

    @Test
    void recallCountsTheExactNeighboursFoundAmongTheFirstK() {
        int[][] exact = {{1, 2, 3, 4}, {5, 6, 7, 8}};
        assertEquals(1.0, VectorData.recall(exact, new int[][] {{4, 3, 2, 1}, {5, 6, 7, 8}}, 4));
        // Half of one query, all of the other.
        assertEquals(0.75, VectorData.recall(exact, new int[][] {{1, 2, 9, 10}, {8, 7, 6, 5}}, 4));
        // Fewer results than k: what is missing is missed; a neighbour past the k-th result does not count.
        assertEquals(0.25, VectorData.recall(exact, new int[][] {{1}, {9, 9, 9, 5, 6, 7}}, 4));
        // A key that is no vector's (-1) is never a neighbour.
        assertEquals(0.125, VectorData.recall(exact, new int[][] {{-1, 1}, {}}, 4));
        assertThrows(IllegalArgumentException.class, () -> VectorData.recall(exact, new int[][] {{1}}, 4));
    }

    @Test
    void keysSortAsTheirNumbersAndReadBack() {
        assertEquals("v00000007", VectorData.key(7));
        assertTrue(VectorData.key(99).compareTo(VectorData.key(100)) < 0);
        assertEquals(123_456, VectorData.number(VectorData.key(123_456)));
        assertEquals(-1, VectorData.number("x12"));
        assertEquals(-1, VectorData.number("vabc"));
    }

    @Test
    void vectorsGoOutAsNumbersThatReadBackAsTheSameFloats() {
        VectorData data = VectorData.generate(30, 64, 1, 3, 9);
        StringBuilder json = new StringBuilder();
        data.appendVector(json, data.vectors(), 29);
        String[] numbers = json.substring(1, json.length() - 1).split(",");
        assertEquals(64, numbers.length);
        for (int j = 0; j < 64; j++) {
            String n = numbers[j].replace("{\"N\":\"", "").replace("\"}", "");
            // Read as Stator reads a vector's component: a double, then a float.
            assertEquals(data.vectors()[29 * 64 + j], (float) Double.parseDouble(n));
        }
    }

    @Test
    void npyFilesHaveNumPysHeaderAndLittleEndianData() throws Exception {
        VectorData data = VectorData.generate(40, 3, 2, 2, 5);
        int[][] truth = data.exactNeighbours(2, 1);
        data.writeNpy(dir, truth);
        byte[] base = Files.readAllBytes(dir.resolve("base.npy"));
        assertEquals((byte) 0x93, base[0]);
        assertEquals("NUMPY", new String(base, 1, 5, StandardCharsets.US_ASCII));
        assertEquals(1, base[6]);
        int headerLength = ByteBuffer.wrap(base, 8, 2).order(ByteOrder.LITTLE_ENDIAN).getShort();
        int dataStart = 10 + headerLength;
        assertEquals(0, dataStart % 64);
        String header = new String(base, 10, headerLength, StandardCharsets.US_ASCII);
        assertTrue(header.startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (40, 3), }"), header);
        assertTrue(header.endsWith("\n"));
        assertEquals(dataStart + 40 * 3 * 4, base.length);
        ByteBuffer floats = ByteBuffer.wrap(base, dataStart, base.length - dataStart).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : data.vectors()) assertEquals(v, floats.getFloat());

        byte[] t = Files.readAllBytes(dir.resolve("truth.npy"));
        String truthHeader = new String(t, 10, t.length - 10 - 2 * 2 * 4, StandardCharsets.US_ASCII);
        assertTrue(truthHeader.startsWith("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }"), truthHeader);
        ByteBuffer ints = ByteBuffer.wrap(t, t.length - 16, 16).order(ByteOrder.LITTLE_ENDIAN);
        for (int[] row : truth) for (int id : row) assertEquals(id, ints.getInt());
    }

    @Test
    void shapesAreCountByDimensionsWithinDynamoDbsLimit() {
        assertEquals(new VectorBench.Shape(20_000, 768), VectorBench.Shape.parse("20000x768"));
        assertEquals(new VectorBench.Shape(1_000_000, 128), VectorBench.Shape.parse("1_000_000X128"));
        assertThrows(IllegalArgumentException.class, () -> VectorBench.Shape.parse("1000x4097"));
        assertThrows(IllegalArgumentException.class, () -> VectorBench.Shape.parse("24x8"));
        assertThrows(IllegalArgumentException.class, () -> VectorBench.Shape.parse("1000"));
    }
}
