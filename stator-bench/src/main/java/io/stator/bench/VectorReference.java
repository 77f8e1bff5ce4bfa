package io.stator.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The reference beside Stator's figures: the same data in hnswlib and faiss, in process, no
 * HTTP and no JSON, so they mark the ceiling. {@code src/main/python/vector_reference.py} runs
 * with Debian's python ({@link #PYTHON}, not a pyenv one: Debian's python3-hnswlib and
 * python3-faiss are installed for it), once per library so that each process's memory is that
 * library's; its lines are JSON objects ({@link #parse}).
 */
final class VectorReference {

    static final String PYTHON = "/usr/bin/python3";
    static final List<String> LIBRARIES = List.of("hnswlib", "faiss-flat", "faiss-hnsw");
    static final String SCRIPT = "stator-bench/src/main/python/vector_reference.py";

    /** How long the index took to build, and the process's memory before and after it. */
    record Build(long vectors, int dimensions, double seconds, int threads, String parameters, String version,
                 double rssBeforeMb, double rssAfterMb) {
        double vectorsPerSecond() { return vectors / seconds; }

        double indexMb() { return rssAfterMb - rssBeforeMb; }
    }

    /** Every query once at one setting (ef; 0 for an exact index). */
    record Search(int ef, double recall, double queriesPerSecond, double p50Ms, double p99Ms) {}

    /**
     * One library's run: its build and its searches in the order run (ef rising), or why it did
     * not run ({@code unavailable} not null). {@code cpuSeconds}: the script's CPU time (NaN when
     * it did not say); {@code otherCores}: what other processes kept busy meanwhile (NaN unless
     * measured by {@link #run}).
     */
    record Result(String library, Build build, List<Search> searches, String unavailable, double cpuSeconds,
                  double otherCores) {

        /** The first search that reached the recall, else the one of highest recall; null when none ran. */
        Search atRecall(double recall) {
            Search best = null;
            for (Search s : searches) {
                if (s.recall() >= recall) return s;
                if (best == null || s.recall() > best.recall()) best = s;
            }
            return best;
        }
    }

    private VectorReference() {}

    /** Why the reference cannot run here, or null when Debian's python is there. */
    static String unavailable(Path statorHome) {
        if (!Files.isExecutable(Path.of(PYTHON))) return PYTHON + " is not installed";
        if (!Files.exists(statorHome.resolve(SCRIPT))) return SCRIPT + " is missing";
        return null;
    }

    /** Runs the script for one library on the data directory; its output and errors go to {@code log}. */
    static Result run(Path statorHome, String library, Path data, double targetRecall, int buildThreads, Path log)
            throws IOException {
        List<String> command = List.of(PYTHON, statorHome.resolve(SCRIPT).toString(), "--library", library,
                "--data", data.toString(), "--target-recall", Double.toString(targetRecall),
                "--build-threads", Integer.toString(buildThreads));
        Path out = Files.createTempFile("vector-reference-", ".jsonl");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            // Debian's python with Debian's packages, whatever a pyenv or a virtualenv around it says.
            builder.environment().remove("PYTHONPATH");
            builder.environment().remove("PYTHONHOME");
            CpuClock machine = CpuClock.machine();
            CpuClock self = CpuClock.self();
            long machine0 = machine.cpuNanos();
            long self0 = self.cpuNanos();
            long t0 = System.nanoTime();
            Process p = builder.start();
            try {
                if (!p.waitFor(2, TimeUnit.HOURS)) {
                    p.destroyForcibly();
                    throw new IOException(library + ": the reference script did not finish within two hours");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            List<String> lines = Files.readAllLines(out);
            if (p.exitValue() != 0) {
                throw new IOException(library + ": the reference script exited with " + p.exitValue() + ", see " + log);
            }
            Result r = parse(library, lines);
            // What the machine's cores did besides the script and this process: others competing for them.
            double seconds = (System.nanoTime() - t0) / 1e9;
            double others = ((machine.cpuNanos() - machine0) - (self.cpuNanos() - self0)) / 1e9 - r.cpuSeconds();
            return new Result(r.library(), r.build(), r.searches(), r.unavailable(), r.cpuSeconds(),
                    Math.max(0, others / seconds));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Python's json writes NaN for a figure it could not take (a percentile of no latencies). */
    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    /** Reads the script's lines (one flat JSON object each; other lines are ignored). */
    static Result parse(String library, List<String> lines) throws IOException {
        Build build = null;
        double cpuSeconds = Double.NaN;
        List<Search> searches = new ArrayList<>();
        for (String line : lines) {
            if (!line.startsWith("{")) continue;
            Map<String, Object> r = flatObject(line);
            if (!library.equals(r.get("library"))) throw new IOException("a line of another library: " + line);
            switch (String.valueOf(r.get("kind"))) {
                case "unavailable" -> {
                    return new Result(library, null, List.of(), String.valueOf(r.get("reason")), Double.NaN, Double.NaN);
                }
                case "build" -> build = new Build(number(r, "vectors").longValue(), number(r, "dimensions").intValue(),
                        number(r, "seconds").doubleValue(), number(r, "threads").intValue(),
                        String.valueOf(r.get("parameters")), String.valueOf(r.get("version")),
                        number(r, "rss_before_mb").doubleValue(),
                        number(r, "rss_after_mb").doubleValue());
                case "search" -> searches.add(new Search(number(r, "ef").intValue(), number(r, "recall").doubleValue(),
                        number(r, "qps").doubleValue(), number(r, "p50_ms").doubleValue(),
                        number(r, "p99_ms").doubleValue()));
                case "end" -> cpuSeconds = number(r, "cpu_seconds").doubleValue();
                default -> throw new IOException("unknown kind of line: " + line);
            }
        }
        if (build == null || searches.isEmpty()) throw new IOException(library + ": no build or no search in " + lines);
        return new Result(library, build, searches, null, cpuSeconds, Double.NaN);
    }

    private static Number number(Map<String, Object> record, String field) throws IOException {
        if (!(record.get(field) instanceof Number n)) throw new IOException("no number " + field + " in " + record);
        return n;
    }

    private static Map<String, Object> flatObject(String line) throws IOException {
        Map<String, Object> out = new HashMap<>();
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException("not a JSON object: " + line);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                out.put(name, switch (value) {
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
                    case VALUE_STRING -> p.getText();
                    default -> {
                        p.skipChildren();
                        yield null;
                    }
                });
            }
        }
        return out;
    }
}
