package io.stator.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What sends a measurement's requests: wrk (the default, lighter: {@link WrkGenerator}) or the
 * Java generator ({@link LoadGenerator}). wrk runs closed loops against one endpoint; an open
 * loop (a fixed rate, which wrk lacks) or several endpoints always go to the Java generator.
 */
enum Generator {
    WRK, JAVA;

    static Generator parse(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    String label() { return name().toLowerCase(Locale.ROOT); }

    /** Why this generator cannot run here (wrk not installed), or null when it can. */
    String unavailable() {
        return this == WRK && WrkGenerator.binary() == null
                ? "wrk is not installed (as root: apt-get install -y wrk nginx-light); the Java generator measured instead"
                : null;
    }

    /** This generator when it can run here, else the Java one. */
    Generator orJava() {
        return unavailable() == null ? this : JAVA;
    }

    /** Whether this generator measures a run of these settings on these endpoints (else the Java one does). */
    boolean measures(LoadGenerator.Settings settings, List<Endpoint> endpoints) {
        return this == JAVA || (settings.rate() == 0 && endpoints.size() == 1);
    }

    RunResult run(List<Endpoint> endpoints, Workload.RequestSource source, LoadGenerator.Settings settings,
                  CpuClock server, Path workDir) throws IOException {
        if (this == WRK && measures(settings, endpoints)) {
            return WrkGenerator.run(endpoints.getFirst(), source, settings, server, workDir);
        }
        return LoadGenerator.run(endpoints, source, settings, server);
    }

    RunResult run(Endpoint endpoint, Workload.RequestSource source, LoadGenerator.Settings settings, CpuClock server,
                  Path workDir) throws IOException {
        return run(List.of(endpoint), source, settings, server, workDir);
    }
}
