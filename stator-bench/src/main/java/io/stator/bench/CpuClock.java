package io.stator.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time a process has used so far (user plus system, all threads), to say how many cores it kept busy. */
interface CpuClock {

    long cpuNanos();

    CpuClock NONE = () -> 0;

    /** This JVM: the generator's own cost. */
    static CpuClock self() {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return os::getProcessCpuTime;
    }

    /**
     * The whole machine, from the first line of /proc/stat (user, nice, system, irq, softirq and
     * steal ticks): what neither the generator nor the server used was taken by something else
     * running on the machine, and the report shows it.
     */
    static CpuClock machine() {
        Path stat = Path.of("/proc/stat");
        return () -> {
            try (var lines = Files.lines(stat)) {
                String[] f = lines.findFirst().orElseThrow().trim().split("\\s+");
                long busy = 0;
                for (int i : new int[] {1, 2, 3, 6, 7, 8}) busy += Long.parseLong(f[i]);
                return busy * 10_000_000L;
            } catch (IOException | RuntimeException e) {
                return 0;
            }
        };
    }

    /** Another process, from /proc/PID/stat: fields 14 and 15, utime and stime, in clock ticks. */
    static CpuClock ofProcess(long pid) {
        return () -> processNanos(pid);
    }

    /**
     * A process and its descendants, as they are at each reading: nginx's master only hands the
     * connections to its workers, which do the serving. A descendant that exits between two
     * readings takes its time with it; the servers measured keep theirs for the whole run.
     */
    static CpuClock ofProcessTree(long pid) {
        return () -> processNanos(pid) + ProcessHandle.of(pid).stream().flatMap(ProcessHandle::descendants)
                .mapToLong(d -> processNanos(d.pid())).sum();
    }

    private static long processNanos(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The command name (field 2) may hold spaces; fields are counted after its ')'.
            String[] fields = s.substring(s.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            // USER_HZ: /proc reports in 1/100 s on every Linux architecture the JDK runs on.
            return ticks * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
