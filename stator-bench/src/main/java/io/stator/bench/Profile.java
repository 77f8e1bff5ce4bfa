package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Profiles Stator (durable mode) under {@code get}, {@code put} and {@code query} with Java
 * Flight Recorder, started and stopped through {@code jcmd} around each measurement, and sums
 * the samples up into the report's profile section.
 *
 * <p>Why JFR's CPU-time sampler ({@code jdk.CPUTimeSample}, JDK 25): it samples threads by the
 * CPU time they use, in Java and in native code alike, so RocksDB's JNI calls and the
 * socket system calls get their share; the older execution sampler sees Java code only. On a
 * JDK without it, the execution sampler is used and the report says so.
 *
 * <p>Each sample is charged to an area: the first frame from the top of its stack that belongs
 * to a known area (the JDK's own collections and strings are charged to their caller).
 */
final class Profile {

    record Share(String name, double share) {}

    record WorkloadProfile(String workload, double throughput, long samples, List<Share> areas,
                           List<Share> selfMethods, List<Share> statorInclusive, List<Share> threads) {}

    record Report(String event, List<WorkloadProfile> workloads) {}

    /** Areas by class-name prefix, in the order they are tried on each frame. */
    private static final Map<String, String> AREAS = new LinkedHashMap<>();

    static {
        AREAS.put("org.rocksdb.", "RocksDB (JNI: reads, writes, WAL)");
        AREAS.put("io.netty.channel.epoll.Native", "socket system calls (epoll, read, write)");
        AREAS.put("io.netty.channel.unix.", "socket system calls (epoll, read, write)");
        AREAS.put("sun.nio.ch.", "socket system calls (epoll, read, write)");
        AREAS.put("jdk.internal.misc.Unsafe.park", "thread hand-off (park/unpark)");
        AREAS.put("jdk.internal.misc.Unsafe.unpark", "thread hand-off (park/unpark)");
        AREAS.put("java.util.concurrent.", "thread hand-off (park/unpark)");
        AREAS.put("javax.crypto.", "SigV4 hashing (SHA-256, HMAC)");
        AREAS.put("sun.security.", "SigV4 hashing (SHA-256, HMAC)");
        AREAS.put("io.netty.handler.codec.http.", "Netty HTTP codec");
        AREAS.put("io.netty.", "Netty pipeline and buffers");
        AREAS.put("com.fasterxml.jackson.", "JSON parsing and writing (Jackson)");
        AREAS.put("io.stator.server.auth.", "SigV4 check (Stator)");
        AREAS.put("io.stator.server.protocol.", "JSON protocol (Stator)");
        AREAS.put("io.stator.server.api.", "API actions and validation (Stator)");
        AREAS.put("io.stator.server.", "HTTP dispatch (Stator)");
        AREAS.put("io.stator.engine.", "engine (Stator)");
        AREAS.put("io.stator.storage.", "storage backend (Stator)");
        AREAS.put("io.stator.core.", "core: items, keys, expressions (Stator)");
    }

    static final List<Workload> PROFILED = List.of(Workload.GET, Workload.PUT, Workload.QUERY);

    private Profile() {}

    /**
     * Records each profiled workload on a running Stator whose table is loaded: a warm-up without
     * the recorder (so the profile shows compiled code, not the JIT at work), then a measurement
     * inside {@code JFR.start} and {@code JFR.stop}.
     */
    static Report record(ServerProcess server, DynamoRequests requests, BenchTable table,
                         LoadGenerator.Settings settings, Path workDir) throws IOException {
        String event = null;
        List<WorkloadProfile> profiles = new ArrayList<>();
        for (Workload workload : PROFILED) {
            Workload.RequestSource source = workload.build(requests, table);
            LoadGenerator.run(server.endpoint(), source, settings.withDuration(Duration.ZERO, settings.warmup()),
                    CpuClock.NONE);
            Path recording = workDir.resolve("profile-" + workload.label() + ".jfr");
            Files.deleteIfExists(recording);
            List<String> start = new ArrayList<>(List.of("JFR.start", "name=bench", "settings=profile",
                    "filename=" + recording));
            // The CPU-time sampler came with JDK 25; earlier JDKs refuse its settings.
            if (Runtime.version().feature() >= 25) {
                start.addAll(List.of("jdk.CPUTimeSample#enabled=true", "jdk.CPUTimeSample#throttle=" + SAMPLE_PERIOD));
            }
            jcmd(server.pid(), start.toArray(String[]::new));
            RunResult result = LoadGenerator.run(server.endpoint(), source,
                    settings.withDuration(Duration.ZERO, settings.duration()), server.cpu());
            jcmd(server.pid(), "JFR.stop", "name=bench");
            Summary summary = summarize(recording);
            event = summary.event;
            profiles.add(summary.toProfile(workload.label(), result.throughput()));
            Compare.progress("%s: profiled %s: %,.0f ops/s, %,d samples (%s)", server.name(), workload.label(),
                    result.throughput(), summary.samples, summary.event);
        }
        return new Report(event, profiles);
    }

    /** CPU time between samples of a thread: fine enough for a few thousand samples in a measurement. */
    static final String SAMPLE_PERIOD = "1ms";

    private static void jcmd(long pid, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid)));
        command.addAll(List.of(arguments));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || output.contains("Could not")) {
                throw new IOException("jcmd " + String.join(" ", arguments) + " failed: " + output.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running jcmd", e);
        }
    }

    /** Counts of one recording's samples by area, by top method, by Stator method on the stack, by thread. */
    static final class Summary {
        String event;
        long samples;
        final Map<String, Long> areas = new HashMap<>();
        final Map<String, Long> self = new HashMap<>();
        final Map<String, Long> stator = new HashMap<>();
        final Map<String, Long> threads = new HashMap<>();

        WorkloadProfile toProfile(String workload, double throughput) {
            return new WorkloadProfile(workload, throughput, samples, top(areas, 12), top(self, 15), top(stator, 15),
                    top(threads, 6));
        }

        private List<Share> top(Map<String, Long> counts, int n) {
            return counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(n)
                    .map(e -> new Share(e.getKey(), samples == 0 ? 0 : (double) e.getValue() / samples))
                    .toList();
        }
    }

    /** Reads a recording: CPU-time samples when it has them, execution samples otherwise. */
    static Summary summarize(Path recording) throws IOException {
        List<RecordedEvent> cpu = new ArrayList<>();
        List<RecordedEvent> execution = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            String type = e.getEventType().getName();
            if (type.equals("jdk.CPUTimeSample")) cpu.add(e);
            else if (type.equals("jdk.ExecutionSample")) execution.add(e);
        }
        Summary summary = new Summary();
        boolean useCpu = !cpu.isEmpty();
        summary.event = useCpu ? "jdk.CPUTimeSample (CPU time, Java and native)" : "jdk.ExecutionSample (Java code only)";
        for (RecordedEvent e : useCpu ? cpu : execution) {
            RecordedStackTrace stack = e.getStackTrace();
            if (stack == null || stack.getFrames().isEmpty()) continue;
            summary.samples++;
            List<RecordedFrame> frames = stack.getFrames();
            summary.self.merge(name(frames.get(0)), 1L, Long::sum);
            summary.areas.merge(area(frames), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame f : frames) {
                String n = name(f);
                if (n.startsWith("io.stator.") && seen.add(n)) summary.stator.merge(n, 1L, Long::sum);
            }
            RecordedThread thread = e.getThread(useCpu ? "eventThread" : "sampledThread");
            String threadName = thread == null || thread.getJavaName() == null ? "?" : thread.getJavaName();
            summary.threads.merge(threadName.replaceAll("\\d+", "N"), 1L, Long::sum);
        }
        return summary;
    }

    private static String area(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String n = name(f);
            for (Map.Entry<String, String> a : AREAS.entrySet()) {
                if (n.startsWith(a.getKey())) return a.getValue();
            }
        }
        return "other (JDK)";
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }
}
