package io.stator.server.transfer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A real S3-compatible endpoint ({@code --s3-endpoint URL}), through the AWS SDK's S3 client with
 * path-style addressing (what S3-compatible servers serve); credentials from the SDK's default
 * chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, ...).
 */
public final class S3ObjectStore implements ObjectStore, AutoCloseable {

    private final S3Client s3;

    public S3ObjectStore(URI endpoint, String region) {
        // Checksums only where S3 requires them and no aws-chunked uploads: what every
        // S3-compatible server accepts (S3Proxy refuses the SDK's default trailing checksums).
        this.s3 = S3Client.builder().endpointOverride(endpoint).region(Region.of(region))
                .forcePathStyle(true)
                .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
                .serviceConfiguration(software.amazon.awssdk.services.s3.S3Configuration.builder()
                        .chunkedEncodingEnabled(false).build())
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build();
    }

    @Override
    public void put(String bucket, String key, byte[] content) throws IOException {
        try {
            s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(content));
        } catch (S3Exception e) {
            throw new IOException("S3 PutObject " + bucket + "/" + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public InputStream get(String bucket, String key) throws IOException {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(key));
        } catch (S3Exception e) {
            throw new IOException("S3 GetObject " + bucket + "/" + key + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<String> list(String bucket, String prefix) throws IOException {
        try {
            List<String> keys = new ArrayList<>();
            for (S3Object o : s3.listObjectsV2Paginator(ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build())
                    .contents()) {
                keys.add(o.key());
            }
            return keys;
        } catch (S3Exception e) {
            throw new IOException("S3 ListObjectsV2 " + bucket + "/" + prefix + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean bucketExists(String bucket) throws IOException {
        try {
            s3.headBucket(b -> b.bucket(bucket));
            return true;
        } catch (NoSuchBucketException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) return false;
            throw new IOException("S3 HeadBucket " + bucket + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        s3.close();
    }
}
