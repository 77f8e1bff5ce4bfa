package io.stator.storage.rocksdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.NativeLibraryLoader;
import org.rocksdb.RocksDB;

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
 */
final class NativeLibrary {

    private NativeLibrary() {}

    /** Loads the library once; later calls do nothing. */
    static synchronized void load() {
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

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            List<Path> deepestFirst = paths.sorted(Comparator.reverseOrder()).toList();
            for (Path path : deepestFirst) Files.deleteIfExists(path);
        } catch (IOException e) {
            // A library in use cannot be deleted on some systems; delete-on-exit remains.
        }
    }
}
