package io.stator.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.CommandProcess.Result;
import io.stator.server.testing.StatorTestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/lib/java-home.sh}, which bin/stator and mvnw source to find a JDK 21 or newer, run by
 * {@code sh} against fake JDKs (a {@code bin/java} that reports a version, and a
 * {@code bin/javac}), so each case is the same on any machine. {@code STATOR_JVM_DIRS} stands in
 * for /usr/lib/jvm.
 */
class JavaHomeScriptTest {

    /** The repository: tests run in stator-server/. */
    private static final Path REPO = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
    private static final Path SCRIPT = REPO.resolve("bin/lib/java-home.sh");
    private static final String NOT_FOUND = "stator: no JDK 21 or newer found (looked at JAVA_HOME, the javac on "
            + "PATH and %s); install one or set JAVA_HOME\n";

    private Path dir;
    private Path jvms;
    private Path pathBin;

    @BeforeEach
    void createFakeJdks() throws IOException {
        dir = Files.createTempDirectory("stator-java-home-");
        jvms = Files.createDirectories(dir.resolve("jvms"));
        pathBin = Files.createDirectories(dir.resolve("path-bin"));
    }

    @AfterEach
    void deleteFakeJdks() {
        StatorTestServer.deleteRecursively(dir);
    }

    /** A JDK home whose java reports {@code version} as java.specification.version. */
    private Path fakeJdk(Path parent, String name, String version) throws IOException {
        Path bin = Files.createDirectories(parent.resolve(name).resolve("bin"));
        executable(bin.resolve("java"), "#!/bin/sh\necho \"    java.specification.version = " + version + "\" >&2\n");
        executable(bin.resolve("javac"), "#!/bin/sh\nexit 0\n");
        return parent.resolve(name);
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Puts a JDK's javac first on PATH, as a symlink, as distributions install it. */
    private void javacOnPath(Path jdk) throws IOException {
        Files.createSymbolicLink(pathBin.resolve("javac"), jdk.resolve("bin/javac"));
    }

    /** Sources the script in sh with this environment, and prints what it chose. */
    private Result source(Map<String, String> env) throws Exception {
        return run(List.of("sh", "-c", ". \"$0\" && echo \"JAVA_HOME=$JAVA_HOME\" "
                + "&& echo \"OPTS=$STATOR_JVM_COMPAT_OPTS\"", SCRIPT.toString()), env);
    }

    /** Runs with JAVA_HOME and STATOR_JVM_DIRS as given (else unset), the fakes first on PATH. */
    private Result run(List<String> command, Map<String, String> env) throws Exception {
        Map<String, String> environment = new HashMap<>();
        environment.put("JAVA_HOME", null);
        environment.put("STATOR_JVM_DIRS", null);
        // sed, sort, ls and friends come from the system.
        environment.put("PATH", pathBin + ":/usr/bin:/bin");
        environment.putAll(env);
        return CommandProcess.run(command, dir, environment, Duration.ofSeconds(60));
    }

    @Test
    void usesJavaHomeWhenItIs21OrNewer() throws Exception {
        Path jdk21 = fakeJdk(dir, "jdk21", "21");
        fakeJdk(jvms, "jdk-25", "25");

        Result r = source(Map.of("JAVA_HOME", jdk21.toString(), "STATOR_JVM_DIRS", jvms.toString()));

        assertEquals(new Result(0, "JAVA_HOME=" + jdk21 + "\nOPTS=\n", ""), r);
    }

    @Test
    void passesOverAnOlderJavaHomeAndJavacForTheNewestJdkInTheJvmDirectories() throws Exception {
        Path jdk17 = fakeJdk(dir, "jdk17", "17");
        javacOnPath(fakeJdk(dir, "other17", "1.8"));
        fakeJdk(jvms, "java-17-openjdk", "17");
        fakeJdk(jvms, "jdk-21", "21");
        Path jdk25 = fakeJdk(jvms, "jdk-25", "25");

        Result r = source(Map.of("JAVA_HOME", jdk17.toString(), "STATOR_JVM_DIRS", jvms.toString()));

        // JDK 24 and later warn about sun.misc.Unsafe unless told it is allowed.
        assertEquals(new Result(0, "JAVA_HOME=" + jdk25 + "\nOPTS=--sun-misc-unsafe-memory-access=allow\n", ""), r);
    }

    @Test
    void usesTheJdkOfTheJavacOnPathWhenJavaHomeIsUnset() throws Exception {
        Path jdk22 = fakeJdk(dir, "jdk22", "22");
        javacOnPath(jdk22);
        fakeJdk(jvms, "jdk-25", "25");

        Result r = source(Map.of("STATOR_JVM_DIRS", jvms.toString()));

        assertEquals(new Result(0, "JAVA_HOME=" + jdk22 + "\nOPTS=\n", ""), r);
    }

    @Test
    void searchesEveryDirectoryInStatorJvmDirs() throws Exception {
        Path more = Files.createDirectories(dir.resolve("more-jvms"));
        javacOnPath(fakeJdk(dir, "jdk17", "17"));
        fakeJdk(jvms, "jdk-17", "17");
        Path jdk23 = fakeJdk(more, "jdk-23", "23");

        Result r = source(Map.of("STATOR_JVM_DIRS", jvms + " " + more));

        assertEquals(new Result(0, "JAVA_HOME=" + jdk23 + "\nOPTS=\n", ""), r);
    }

    @Test
    void saysInOneLineThatNoJdk21IsFoundAndFails() throws Exception {
        Path jdk17 = fakeJdk(dir, "jdk17", "17");
        javacOnPath(jdk17);
        fakeJdk(jvms, "java-17-openjdk", "17");
        fakeJdk(jvms, "jdk-20", "20");

        Result r = source(Map.of("JAVA_HOME", jdk17.toString(), "STATOR_JVM_DIRS", jvms.toString()));

        assertEquals(new Result(1, "", NOT_FOUND.formatted(jvms)), r);
    }

    @Test
    void binStatorStopsWithThatLineWhenNoJdk21IsFound() throws Exception {
        Path jdk17 = fakeJdk(dir, "jdk17", "17");
        javacOnPath(jdk17);

        Result r = run(List.of(REPO.resolve("bin/stator").toString(), "--help"),
                Map.of("JAVA_HOME", jdk17.toString(), "STATOR_JVM_DIRS", jvms.toString()));

        assertEquals(new Result(1, "", NOT_FOUND.formatted(jvms)), r);
    }

    @Test
    void findsTheJdkRunningThisTest() throws Exception {
        // A real JDK, to keep the fakes honest: the script must read the version from it too.
        String javaHome = Path.of(System.getProperty("java.home")).toRealPath().toString();

        Result r = source(Map.of("JAVA_HOME", javaHome, "STATOR_JVM_DIRS", jvms.toString()));

        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.stdout().startsWith("JAVA_HOME=" + javaHome + "\n"), r::toString);
    }
}
