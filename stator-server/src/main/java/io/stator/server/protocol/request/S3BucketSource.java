// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;

/** DynamoDB's {@code S3BucketSource}, as a request carries it. */
public record S3BucketSource(
        String s3BucketOwner,
        String s3Bucket,
        String s3KeyPrefix) implements ModelStructure {

    /** The members, in the model's order: the record's components. */
    static final List<String> MEMBERS = List.of(
            "S3BucketOwner",
            "S3Bucket",
            "S3KeyPrefix");

    /** The record of the members' values, in the model's order. */
    static S3BucketSource of(Object[] values) {
        return new S3BucketSource(
                (String) values[0],
                (String) values[1],
                (String) values[2]);
    }

    @Override
    public Object member(int index) {
        return switch (index) {
            case 0 -> s3BucketOwner;
            case 1 -> s3Bucket;
            case 2 -> s3KeyPrefix;
            default -> throw new IndexOutOfBoundsException(index);
        };
    }
}
