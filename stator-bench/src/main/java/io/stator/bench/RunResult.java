package io.stator.bench;

import org.HdrHistogram.Histogram;

/**
 * What one measurement found.
 *
 * @param operations   successful requests (for a scan: items read) in the measured window
 * @param errors       requests answered with a non-2xx status or a broken connection
 * @param latency      nanoseconds from when each request should have been sent (open loop) or was sent
 *                     (closed loop) to its full response: corrected for coordinated omission
 * @param serviceTime  nanoseconds from actual send to full response
 * @param clientCores  cores the generator's process (this JVM, or wrk) kept busy during the window
 * @param serverCores  cores the server's process kept busy, when its process is known (else 0)
 * @param otherCores   cores the rest of the machine kept busy meanwhile (other processes competing for the CPU)
 * @param generator    what sent the requests: {@link #JAVA} or {@link #WRK}
 */
record RunResult(long operations, long errors, double seconds, Histogram latency, Histogram serviceTime,
                 double clientCores, double serverCores, double otherCores, String firstError, String generator) {

    static final String JAVA = "java";
    static final String WRK = "wrk";

    double throughput() { return seconds == 0 ? 0 : operations / seconds; }

    /** A latency percentile in milliseconds. */
    double latencyMs(double percentile) {
        return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1e6;
    }

    double maxMs() {
        return latency.getTotalCount() == 0 ? Double.NaN : latency.getMaxValue() / 1e6;
    }

    /** Samples the CPU clocks of the generator, the server and the machine, to turn a window into cores. */
    record CpuSample(long client, long server, long machine) {
        static CpuSample take(CpuClock server) {
            return take(CpuClock.self(), server);
        }

        static CpuSample take(CpuClock client, CpuClock server) {
            return new CpuSample(client.cpuNanos(), server.cpuNanos(), CpuClock.machine().cpuNanos());
        }

        double[] coresSince(CpuSample start, double seconds) {
            double c = (client - start.client) / 1e9 / seconds;
            double s = (server - start.server) / 1e9 / seconds;
            double m = (machine - start.machine) / 1e9 / seconds;
            return new double[] {c, s, Math.max(0, m - c - s)};
        }
    }

    static Histogram newHistogram() {
        // One nanosecond to one minute at three significant digits.
        return new Histogram(1, 60_000_000_000L, 3);
    }
}
