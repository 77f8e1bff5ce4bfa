package io.stator.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference script's output read back, the answers of Stator parsed (SearchVectors' keys,
 * DescribeTable's vector index), and the script itself run on a small data set the bench wrote.
 */
class VectorReferenceTest {

    @TempDir
    Path dir;

    @Test
    void readsTheBuildAndEverySearchOfTheSweep() throws IOException {
        VectorReference.Result r = VectorReference.parse("hnswlib", List.of(
                "{\"kind\": \"build\", \"library\": \"hnswlib\", \"vectors\": 20000, \"dimensions\": 128, \"seconds\": 2.5, "
                        + "\"threads\": 2, \"parameters\": \"space l2, M 16, ef_construction 200\", "
                        + "\"version\": \"python3-hnswlib 0.6.2-2+deb12u1\", \"rss_before_mb\": 40.5, \"rss_after_mb\": 60.5}",
                "a line that is not JSON is ignored",
                "{\"kind\": \"search\", \"library\": \"hnswlib\", \"ef\": 10, \"recall\": 0.91, \"qps\": 20000.0, \"p50_ms\": 0.04, \"p99_ms\": 0.1}",
                "{\"kind\": \"search\", \"library\": \"hnswlib\", \"ef\": 16, \"recall\": 0.96, \"qps\": 15000.0, \"p50_ms\": 0.06, \"p99_ms\": NaN}",
                "{\"kind\": \"search\", \"library\": \"hnswlib\", \"ef\": 24, \"recall\": 0.99, \"qps\": 11000, \"p50_ms\": 0.08, \"p99_ms\": 0.2}",
                "{\"kind\": \"end\", \"library\": \"hnswlib\", \"cpu_seconds\": 7.5}"));
        assertNull(r.unavailable());
        assertEquals(8_000, r.build().vectorsPerSecond());
        assertEquals(20, r.build().indexMb());
        assertEquals(2, r.build().threads());
        assertEquals("python3-hnswlib 0.6.2-2+deb12u1", r.build().version());
        assertEquals(3, r.searches().size());
        assertEquals(7.5, r.cpuSeconds());
        assertTrue(Double.isNaN(r.otherCores()));
        assertTrue(Double.isNaN(r.searches().get(1).p99Ms()));
        // The first setting that reaches the recall; the best one when none does.
        assertEquals(16, r.atRecall(0.95).ef());
        assertEquals(24, r.atRecall(0.99).ef());
        assertSame(r.searches().get(2), r.atRecall(1.0));
        assertEquals(11_000, r.atRecall(1.0).queriesPerSecond());
    }

    @Test
    void aLibraryNotInstalledIsSaidSoAndABrokenOutputIsAnError() throws IOException {
        VectorReference.Result r = VectorReference.parse("faiss-hnsw", List.of(
                "{\"kind\": \"unavailable\", \"library\": \"faiss-hnsw\", \"reason\": \"No module named 'faiss'\"}"));
        assertEquals("No module named 'faiss'", r.unavailable());
        assertThrows(IOException.class, () -> VectorReference.parse("hnswlib", List.of()));
        assertThrows(IOException.class, () -> VectorReference.parse("hnswlib", List.of(
                "{\"kind\": \"search\", \"library\": \"faiss-flat\", \"ef\": 0, \"recall\": 1, \"qps\": 1, \"p50_ms\": 1, \"p99_ms\": 1}")));
        assertThrows(IOException.class, () -> VectorReference.parse("hnswlib", List.of(
                "{\"kind\": \"build\", \"library\": \"hnswlib\", \"vectors\": \"many\"}")));
    }

    @Test
    void readsTheKeysOfSearchVectorsResultsInOrder() throws IOException {
        byte[] body = ("{\"SearchResults\":[{\"Item\":{\"pk\":{\"S\":\"v00000042\"}},\"Score\":0.5},"
                + "{\"Item\":{\"pk\":{\"S\":\"v00000007\"}},\"Score\":1.25},{\"Item\":{\"pk\":{\"S\":\"other\"}},\"Score\":2}]}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] framed = new byte[body.length + 10];
        System.arraycopy(body, 0, framed, 5, body.length);
        assertArrayEquals(new int[] {42, 7, -1}, VectorTable.resultNumbers(framed, 5, body.length));
        assertArrayEquals(new int[0], VectorTable.resultNumbers("{\"SearchResults\":[]}".getBytes(StandardCharsets.UTF_8), 0, 20));
    }

    @Test
    void readsTheVectorIndexOfDescribeTable() throws IOException {
        String describe = "{\"Table\":{\"TableName\":\"vectors\",\"ItemCount\":99,\"TableStatus\":\"ACTIVE\","
                + "\"VectorIndexes\":[{\"IndexName\":\"embedding-index\",\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},"
                + "\"VectorAttribute\":{\"AttributeName\":\"embedding\"},\"Dimensions\":128,\"DistanceFunction\":\"EUCLIDEAN\","
                + "\"IndexStatus\":\"ACTIVE\",\"IndexSizeBytes\":123,\"ItemCount\":1234,\"IndexArn\":\"arn:x\"}]}}";
        assertEquals(new VectorTable.IndexState("ACTIVE", 1234), VectorTable.indexState(describe));
        assertThrows(IOException.class, () -> VectorTable.indexState("{\"Table\":{\"ItemCount\":1}}"));
    }

    /**
     * The script on a small data set written by the bench: hnswlib's recall against the bench's
     * exact neighbours, or, where Debian's packages are not installed (CI does not install them),
     * the script's word that they are missing.
     */
    @Test
    void theScriptReadsTheBenchsFilesAndItsOutputParses() throws IOException {
        assumeTrue(Files.isExecutable(Path.of(VectorReference.PYTHON)), "no " + VectorReference.PYTHON);
        Path home = Path.of(System.getProperty("user.dir")).getParent();
        assumeTrue(VectorReference.unavailable(home) == null, VectorReference.unavailable(home));
        VectorData data = VectorData.generate(400, 8, 25, 4, 3);
        data.writeNpy(dir, data.exactNeighbours(VectorData.K, 1));
        VectorReference.Result r = VectorReference.run(home, "hnswlib", dir, 0.99, 1, dir.resolve("log"));
        if (r.unavailable() != null) {
            assertTrue(r.unavailable().contains("apt-get install -y python3-hnswlib python3-faiss"), r.unavailable());
            return;
        }
        assertEquals(400, r.build().vectors());
        assertEquals(8, r.build().dimensions());
        VectorReference.Search s = r.atRecall(0.99);
        assertTrue(s.recall() >= 0.99, "recall " + s.recall() + " at ef " + s.ef());
        assertTrue(s.queriesPerSecond() > 0 && s.p99Ms() >= s.p50Ms());
        assertTrue(r.cpuSeconds() > 0 && r.otherCores() >= 0, r.cpuSeconds() + " " + r.otherCores());
        // The exact index agrees with the bench's exact neighbours.
        VectorReference.Result flat = VectorReference.run(home, "faiss-flat", dir, 0.99, 1, dir.resolve("log"));
        if (flat.unavailable() == null) assertTrue(flat.searches().getFirst().recall() >= 0.99);
    }
}
