package io.stator.server.transfer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * S3 as a directory ({@code --s3-dir}): a bucket is a directory under the root, created by the
 * first export into it; an object is a file at its key's path, written to a temporary file and moved into place,
 * so a reader never sees half an object.
 */
public final class DirectoryObjectStore implements ObjectStore {

    private final Path root;

    public DirectoryObjectStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() { return root; }

    private Path path(String bucket, String key) throws IOException {
        Path bucketDir = root.resolve(bucket).normalize();
        Path file = bucketDir.resolve(key).normalize();
        // Keys are the server's or the client's: none may leave its bucket ("../").
        if (!bucketDir.startsWith(root) || !file.startsWith(bucketDir) || bucketDir.equals(root)) {
            throw new IOException("invalid bucket or key: " + bucket + "/" + key);
        }
        return file;
    }

    @Override
    public void put(String bucket, String key, byte[] content) throws IOException {
        Path file = path(bucket, key);
        Files.createDirectories(file.getParent());
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.write(partial, content);
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public InputStream get(String bucket, String key) throws IOException {
        return Files.newInputStream(path(bucket, key));
    }

    @Override
    public List<String> list(String bucket, String prefix) throws IOException {
        Path bucketDir = path(bucket, "");
        List<String> keys = new ArrayList<>();
        if (!Files.isDirectory(bucketDir)) return keys;
        try (Stream<Path> files = Files.walk(bucketDir)) {
            files.filter(Files::isRegularFile).forEach(f -> {
                String key = bucketDir.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                if (key.startsWith(prefix) && !key.endsWith(".partial")) keys.add(key);
            });
        }
        keys.sort(null);
        return keys;
    }

    /** A bucket is a directory: one that does not exist fails an import, as a missing bucket does on S3. */
    @Override
    public boolean bucketExists(String bucket) throws IOException {
        return Files.isDirectory(path(bucket, ""));
    }

    /** An export creates its bucket's directory, so that a developer need not make one first. */
    @Override
    public void prepareBucket(String bucket) throws IOException {
        Files.createDirectories(path(bucket, ""));
    }
}
