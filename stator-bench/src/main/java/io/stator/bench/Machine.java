package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** One line that says what machine a report was measured on. */
final class Machine {

    private Machine() {}

    static String describe() {
        return String.format(Locale.ROOT, "%d cores (%s), %s memory, Linux %s, JDK %s (%s), node %s; load average %s when the run started.",
                Runtime.getRuntime().availableProcessors(), cpuModel(), memory(), System.getProperty("os.version"),
                System.getProperty("java.runtime.version"), System.getProperty("java.vm.vendor"), nodeVersion(),
                loadAverage());
    }

    private static String cpuModel() {
        return field(Path.of("/proc/cpuinfo"), "model name", "unknown CPU");
    }

    private static String memory() {
        String kb = field(Path.of("/proc/meminfo"), "MemTotal", "0").replaceAll("[^0-9]", "");
        return kb.isEmpty() ? "unknown" : String.format(Locale.ROOT, "%.1f GiB", Long.parseLong(kb) / 1024.0 / 1024.0);
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String nodeVersion() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? v : "not installed";
        } catch (IOException e) {
            return "not installed";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String field(Path file, String name, String otherwise) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(name)) return line.substring(line.indexOf(':') + 1).trim();
            }
        } catch (IOException e) {
            // Not Linux: say so through the default.
        }
        return otherwise;
    }
}
