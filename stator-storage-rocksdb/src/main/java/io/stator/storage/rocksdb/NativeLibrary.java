package io.stator.storage.rocksdb;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.NativeLibraryLoader;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

/**
 * Loads RocksDB's JNI library without leaving a copy of it on disk.
 *
 * <p>RocksDB's own loader copies the library (15 MB) out of its jar into a new file in the temp
 * directory at every start, and deletes it only when the JVM exits normally. A server that is
 * killed ({@code kill -9}), crashes, or stops on {@code -XX:+ExitOnOutOfMemoryError} leaves that
 * file behind, and tests that kill servers on purpose fill {@code /tmp} with them.
 *
 * <p>Here the copy goes into a directory of its own, which is deleted as soon as the library is
 * loaded: on Linux and macOS a loaded library no longer needs its file (the process keeps its
 * mapping), so however the process ends afterwards, nothing is left. RocksDB's loader copies the
 * library once per class loader, so the {@link RocksDB#loadLibrary()} that follows only marks it
 * loaded. Where a loaded library cannot be deleted (Windows), the directory stays and RocksDB's
 * delete-on-exit applies as before; where the library comes from {@code java.library.path}, the
 * directory stays empty and goes.
 *
 * <p>Copying 15 MB costs a quarter of a second at every start, a quarter of the server's startup
 * budget. So {@code bin/stator} names a cache directory in its build output (the system property
 * {@value #CACHE_PROPERTY}): the library is copied there once per RocksDB version and loaded
 * from there at every later start.
 */
final class NativeLibrary {

    /** A directory where the library is kept between starts; unset, it is copied at every start. */
    static final String CACHE_PROPERTY = "stator.nativeLibraryCache";

    private NativeLibrary() {}

    /** Loads the library once; later calls do nothing. */
    static synchronized void load() {
        String cache = System.getProperty(CACHE_PROPERTY);
        if (cache != null && loadCached(Path.of(cache))) return;
        Path directory = null;
        try {
            directory = Files.createTempDirectory("stator-rocksdbjni-");
            NativeLibraryLoader.getInstance().loadLibrary(directory.toString());
        } catch (IOException e) {
            // No directory or no copy: RocksDB's own loader below does it its way.
        } finally {
            if (directory != null) deleteQuietly(directory);
        }
        RocksDB.loadLibrary();
    }

    /** Loads the library from the cache, copying it there first if needed; false if it cannot. */
    private static boolean loadCached(Path cache) {
        String resource = Environment.getJniLibraryFileName("rocksdb");
        // RocksDB.loadLibrary(paths) looks for the library under another name than its jar holds
        // it ("librocksdbjnijni-linux64.so" for "librocksdbjni-linux64.so"): kept under the name
        // it looks for, else every start fell back to the copy.
        String fileName = Environment.getJniLibraryFileName("rocksdbjni");
        try {
            // One directory per RocksDB jar: a new version never loads an old copy.
            Path jar = Path.of(RocksDB.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path directory = cache.resolve(jar.getFileName().toString().replaceFirst("\\.jar$", ""));
            Path library = directory.resolve(fileName);
            if (!Files.isRegularFile(library)) {
                Files.createDirectories(directory);
                Path partial = Files.createTempFile(directory, fileName, ".partial");
                try (InputStream in = RocksDB.class.getClassLoader().getResourceAsStream(resource)) {
                    if (in == null) return false;
                    Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                    // Renamed whole: a server starting at the same moment finds no file or all of it.
                    Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    Files.deleteIfExists(partial);
                }
            }
            RocksDB.loadLibrary(List.of(directory.toString()));
            return true;
        } catch (IOException | URISyntaxException | RuntimeException | UnsatisfiedLinkError e) {
            return false; // copied at this start instead, as without a cache
        }
    }

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            List<Path> deepestFirst = paths.sorted(Comparator.reverseOrder()).toList();
            for (Path path : deepestFirst) Files.deleteIfExists(path);
        } catch (IOException e) {
            // A library in use cannot be deleted on some systems; delete-on-exit remains.
        }
    }
}
