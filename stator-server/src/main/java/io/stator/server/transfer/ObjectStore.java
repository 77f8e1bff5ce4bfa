package io.stator.server.transfer;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Where exports are written and imports read: S3's buckets and keys, as a local directory
 * ({@code --s3-dir}: bucket {@code b}, key {@code p/x} is {@code DIR/b/p/x}) or a real
 * S3-compatible endpoint ({@code --s3-endpoint}).
 */
public interface ObjectStore {

    void put(String bucket, String key, byte[] content) throws IOException;

    InputStream get(String bucket, String key) throws IOException;

    /** The keys under a prefix, in key order. */
    List<String> list(String bucket, String prefix) throws IOException;

    /** True when the bucket exists (an export to or an import from a missing bucket fails, as on S3). */
    boolean bucketExists(String bucket) throws IOException;

    /**
     * Makes the bucket an export is about to write to, where making one is this store's to do:
     * a directory standing in for S3 creates it; S3 itself leaves buckets to their owners.
     */
    default void prepareBucket(String bucket) throws IOException { }
}
