package io.stator.storage.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store's process that dies without cleaning up (kill -9, a crash, an exit on OutOfMemoryError)
 * leaves no copy of RocksDB's 15 MB JNI library in its temp directory. (On Windows a loaded
 * library cannot be deleted; RocksDB's delete-on-exit is all there is.)
 */
@DisabledOnOs(OS.WINDOWS)
class NativeLibraryTest {

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aKilledProcessLeavesNoCopyOfTheLibraryBehind() throws Exception {
        Path childTmp = Files.createDirectory(tmp.resolve("child-tmp"));
        List<String> jvm = List.of("-Djava.io.tmpdir=" + childTmp);
        try (ChildProcess child = ChildProcess.start(tmp.resolve("child-stderr.txt"), jvm, "hold",
                tmp.resolve("data").toString())) {
            child.awaitLine("ready;", 60);
            child.killHard();
        }
        try (Stream<Path> left = Files.list(childTmp)) {
            assertEquals(List.of(), left.toList(), "left in the killed process's temp directory");
        }
    }
}
