package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The servers a comparison runs, and how each is installed and started on this machine: the
 * ones a developer would otherwise pick for a local DynamoDB, Stator in both its modes, and
 * the two fixed-reply servers that mark the ceiling (nginx, and the JVM's trivial server). {@code stator-baseline} is another checkout of
 * Stator (an older commit, say), run only when {@code --baseline} names it, so that a change
 * is measured against what it changes in one run on one machine.
 */
enum ServerKind {
    NGINX("nginx", "nginx-light (fixed reply)", false),
    TRIVIAL("trivial", "trivial HTTP server on Netty (fixed reply)", false),
    STATOR("stator", "Stator (durable, default)", true),
    STATOR_BASELINE("stator-baseline", "Stator baseline (durable)", true),
    STATOR_MEMORY("stator-mem", "Stator --in-memory", true),
    DYNALITE_MEMORY("dynalite-mem", "dynalite (in memory)", true),
    DYNALITE_DISK("dynalite-disk", "dynalite --path (LevelDB on disk)", true),
    MOTO("moto", "moto_server", true);

    /** dynalite's version, pinned so that reruns compare the same thing. */
    static final String DYNALITE_VERSION = "4.0.0";

    final String label;
    final String description;
    final boolean database;

    ServerKind(String label, String description, boolean database) {
        this.label = label;
        this.description = description;
        this.database = database;
    }

    static ServerKind parse(String label) {
        for (ServerKind k : values()) if (k.label.equals(label.toLowerCase(Locale.ROOT))) return k;
        throw new IllegalArgumentException("unknown server '" + label + "'; known: " + labels());
    }

    static String labels() {
        return String.join(", ", java.util.Arrays.stream(values()).map(k -> k.label).toList());
    }

    boolean isStator() { return this == STATOR || this == STATOR_MEMORY || this == STATOR_BASELINE; }

    /**
     * Whether the request matrix of this server is measured in every round: Stator's durable
     * mode and its baseline, whose difference a comparison with a baseline is about.
     */
    boolean measuredInRounds() { return this == STATOR || this == STATOR_BASELINE; }

    /**
     * Where things live: the project, a cache for installed peers, scratch space for data, and
     * the baseline checkout of Stator (null without {@code --baseline}).
     */
    record Places(Path statorHome, Path cache, Path work, Path baselineHome) {}

    /** What the report calls this server, given the commit of its checkout (null if unknown). */
    String description(String commit) {
        return this == STATOR_BASELINE && commit != null ? "Stator baseline (" + commit + ", durable)" : description;
    }

    /**
     * The short commit a checkout is at, with a word when its tracked files differ from it (the
     * numbers are then not that commit's); null when it is not the top of a git checkout (a copy
     * inside another repository's ignored files would otherwise take that repository's commit).
     */
    static String gitCommit(Path checkout) {
        try {
            Path out = Files.createTempFile("stator-git-", ".txt");
            try {
                if (run(List.of("git", "-C", checkout.toString(), "rev-parse", "--show-toplevel"), out) != 0
                        || !Files.isSameFile(Path.of(Files.readString(out).trim()), checkout)) {
                    return null;
                }
                if (run(List.of("git", "-C", checkout.toString(), "rev-parse", "--short", "HEAD"), out) != 0) return null;
                String commit = Files.readString(out).trim();
                if (run(List.of("git", "-C", checkout.toString(), "status", "--porcelain", "--untracked-files=no"), out) == 0
                        && !Files.readString(out).isBlank()) {
                    commit += " with uncommitted changes";
                }
                return commit;
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The command that starts this server on the port; installs it first when needed. */
    List<String> command(Places places, int port, Path dataDir) throws IOException {
        String p = Integer.toString(port);
        return switch (this) {
            case NGINX -> NginxServer.command(dataDir, port);
            case TRIVIAL -> List.of(javaBinary(), "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                    BenchCommand.class.getName(), "trivial-server", "--port", p);
            case STATOR, STATOR_BASELINE -> {
                List<String> c = new ArrayList<>(List.of(checkout(places).resolve("bin/stator").toString(), "--port", p,
                        "--data-dir", dataDir.toString()));
                c.addAll(reportThroughput(checkout(places)));
                yield c;
            }
            case STATOR_MEMORY -> {
                List<String> c = new ArrayList<>(List.of(places.statorHome().resolve("bin/stator").toString(), "--port", p,
                        "--in-memory"));
                c.addAll(reportThroughput(places.statorHome()));
                yield c;
            }
            case DYNALITE_MEMORY, DYNALITE_DISK -> {
                List<String> c = new ArrayList<>(List.of("node", installDynalite(places.cache()).toString(),
                        "--host", "127.0.0.1", "--port", p,
                        // Tables are ACTIVE at once: the benchmark measures requests, not DynamoDB's table delays.
                        "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"));
                if (this == DYNALITE_DISK) c.addAll(List.of("--path", dataDir.toString()));
                yield c;
            }
            case MOTO -> List.of(motoServer(), "-H", "127.0.0.1", "-p", p);
        };
    }

    /**
     * The benchmark measures speed, not DynamoDB's throughput: its loads and its hot key go far past
     * what a new DynamoDB table takes, so Stator runs with {@code --throughput report} (capacity is
     * still computed and admitted, nothing is refused: admission's cost stays in the figures). A
     * checkout from before the option gets nothing.
     */
    private static List<String> reportThroughput(Path checkout) {
        Path cli = checkout.resolve("stator-server/src/main/java/io/stator/server/cli/StatorCommand.java");
        try {
            return Files.readString(cli).contains("\"--throughput\"") ? List.of("--throughput", "report") : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Why this server cannot run here, or null when it can. */
    String unavailable(Places places) {
        try {
            switch (this) {
                case NGINX -> {
                    if (NginxServer.binary() == null) return "nginx is not installed (as root: apt-get install -y nginx-light)";
                }
                case DYNALITE_MEMORY, DYNALITE_DISK -> {
                    if (!onPath("node") || !onPath("npm")) return "node and npm are not installed";
                    installDynalite(places.cache());
                }
                case MOTO -> {
                    if (motoServer() == null) return "moto_server is not installed";
                }
                case STATOR, STATOR_MEMORY, STATOR_BASELINE -> {
                    // The first start after a build builds what is missing and makes the JDK's
                    // ahead-of-time class cache; a user pays that once, so it is not timed.
                    if (checkout(places) == null) return "no --baseline DIR, the checkout of Stator to compare with";
                    Path stator = checkout(places).resolve("bin/stator");
                    Path out = Files.createTempFile("stator-prepare-", ".log");
                    try {
                        if (run(List.of(stator.toString(), "--version"), out) != 0) {
                            return (this == STATOR_BASELINE ? stator.toString() : "bin/stator")
                                    + " --version failed: " + Files.readString(out).trim();
                        }
                    } finally {
                        Files.deleteIfExists(out);
                    }
                }
                default -> { }
            }
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** The checkout of Stator whose bin/stator starts this server; null for the other servers. */
    Path checkout(Places places) {
        return switch (this) {
            case STATOR, STATOR_MEMORY -> places.statorHome();
            case STATOR_BASELINE -> places.baselineHome();
            default -> null;
        };
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Installs dynalite from npm into the cache once. Its LevelDB binding (classic-level) ships
     * prebuilt binaries for Linux x64, so the install needs no compiler and no install scripts.
     */
    static synchronized Path installDynalite(Path cache) throws IOException {
        Path dir = cache.resolve("dynalite-" + DYNALITE_VERSION);
        Path cli = dir.resolve("node_modules/dynalite/cli.js");
        if (Files.exists(cli)) return cli;
        Files.createDirectories(dir);
        System.err.println("stator-bench: installing dynalite " + DYNALITE_VERSION + " with npm into " + dir);
        int exit = run(List.of("npm", "install", "--prefix", dir.toString(), "--no-audit", "--no-fund",
                "dynalite@" + DYNALITE_VERSION), dir.resolve("npm-install.log"));
        if (exit != 0 || !Files.exists(cli)) {
            throw new IOException("npm install dynalite failed (exit " + exit + "), see " + dir.resolve("npm-install.log"));
        }
        return cli;
    }

    /**
     * The moto_server script itself rather than pyenv's shim, when pyenv is there: the shim adds
     * a shell and pyenv's own start to moto's startup time.
     */
    private static String motoServer() throws IOException {
        if (onPath("pyenv")) {
            Path out = Files.createTempFile("pyenv-which", ".txt");
            try {
                if (run(List.of("pyenv", "which", "moto_server"), out) == 0) {
                    String path = Files.readString(out).trim();
                    if (!path.isEmpty() && Files.isExecutable(Path.of(path))) return path;
                }
            } finally {
                Files.deleteIfExists(out);
            }
        }
        return onPath("moto_server") ? "moto_server" : null;
    }

    private static boolean onPath(String program) {
        return which(program) != null;
    }

    /** The program's path on PATH, or null. */
    static Path which(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return Path.of(dir, program);
        }
        return null;
    }

    private static int run(List<String> command, Path output) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
