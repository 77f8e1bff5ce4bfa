package io.stator.storage.rocksdb;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A filesystem of its own for a test, small enough to fill: a tmpfs mounted on a directory of
 * the test's ({@code mount -t tmpfs -o size=N tmpfs DIR}). Mounting needs root (or
 * CAP_SYS_ADMIN); where it is refused, {@link #mount} skips the test and says why. The disk is
 * filled with a ballast file and freed by deleting it; closing unmounts it.
 *
 * <p>The server's tests use it too (this module's test jar).
 */
public final class SmallDisk implements AutoCloseable {

    private final Path root;
    private final Path ballast;

    private SmallDisk(Path root) {
        this.root = root;
        this.ballast = root.resolve("ballast");
    }

    /** Mounts a tmpfs of {@code bytes} on {@code directory} (created), or skips the test. */
    public static SmallDisk mount(Path directory, long bytes) throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"),
                "skipped: a tmpfs can only be mounted on Linux");
        Files.createDirectories(directory);
        String refusal = run(List.of("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", directory.toString()));
        Assumptions.assumeTrue(refusal == null, () -> "skipped: cannot mount a " + (bytes >> 20)
                + " MB tmpfs on " + directory + " (mounting needs root): " + refusal);
        return new SmallDisk(directory);
    }

    public Path root() {
        return root;
    }

    public long freeBytes() throws IOException {
        return Files.getFileStore(root).getUsableSpace();
    }

    /** Writes a ballast file until only about {@code bytes} are left free. */
    public void fillLeaving(long bytes) throws IOException {
        byte[] chunk = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(ballast)) {
            long toWrite = freeBytes() - bytes;
            while (toWrite > 0) {
                int n = (int) Math.min(chunk.length, toWrite);
                out.write(chunk, 0, n);
                toWrite -= n;
            }
        }
    }

    /** Shortens the ballast until about {@code bytes} are free. */
    public void freeUntil(long bytes) throws IOException {
        try (FileChannel file = FileChannel.open(ballast, StandardOpenOption.WRITE)) {
            file.truncate(Math.max(0, file.size() - (bytes - freeBytes())));
        }
    }

    /** Deletes the ballast: its space is free again. */
    public void free() throws IOException {
        Files.deleteIfExists(ballast);
    }

    /** Unmounts (lazily if something still holds a file open there). */
    @Override
    public void close() throws IOException {
        if (run(List.of("umount", root.toString())) != null) {
            String failure = run(List.of("umount", "-l", root.toString()));
            if (failure != null) throw new IOException("cannot unmount " + root + ": " + failure);
        }
    }

    /** Runs a command; null when it succeeded, else what it printed (or why it could not run). */
    private static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return String.join(" ", command) + " did not finish";
            }
            return process.exitValue() == 0 ? null : "exit " + process.exitValue() + ": " + output;
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
