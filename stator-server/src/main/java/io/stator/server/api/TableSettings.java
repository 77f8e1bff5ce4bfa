package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.EngineConfig;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.SseSpecification;
import io.stator.engine.table.TableDefinition.SseType;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.server.protocol.Struct;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.Instant;
import java.util.UUID;

/**
 * Table settings that CreateTable and UpdateTable share, read and checked as DynamoDB checks
 * them: throughput bounds, table class, server-side encryption, stream labels.
 */
final class TableSettings {

    /** Above this DynamoDB calls a throughput value out of bounds (a validation error). */
    static final long THROUGHPUT_BOUND = 1_000_000_000_000L;
    /** DynamoDB's default per-table quota of read and of write capacity units. */
    static final long TABLE_MAX_CAPACITY_UNITS = 40_000;
    /** DynamoDB's default per-account quota. */
    static final long ACCOUNT_MAX_CAPACITY_UNITS = 80_000;

    private static final DateTimeFormatter STREAM_LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");

    private TableSettings() {}

    /** Checks a ProvisionedThroughput structure's values against DynamoDB's bounds. */
    static void checkThroughputBounds(Struct throughput) {
        long read = throughput.longValue("ReadCapacityUnits");
        long write = throughput.longValue("WriteCapacityUnits");
        if (read > THROUGHPUT_BOUND) {
            throw DynamoDbException.validation("Given value " + read + " for ReadCapacityUnits is out of bounds");
        }
        if (write > THROUGHPUT_BOUND) {
            throw DynamoDbException.validation("Given value " + write + " for WriteCapacityUnits is out of bounds");
        }
    }

    /** The account's per-table quota: LimitExceededException above it. */
    static void checkThroughputQuota(Struct throughput, String region) {
        long read = throughput.longValue("ReadCapacityUnits");
        long write = throughput.longValue("WriteCapacityUnits");
        if (read > TABLE_MAX_CAPACITY_UNITS) throw aboveQuota("ReadCapacityUnits", read, region);
        if (write > TABLE_MAX_CAPACITY_UNITS) throw aboveQuota("WriteCapacityUnits", write, region);
    }

    private static DynamoDbException aboveQuota(String what, long value, String region) {
        return DynamoDbException.limitExceeded("The requested " + what + ", " + value
                + ", is above the per table maximum for the account in " + region + ". Per table maximum: "
                + TABLE_MAX_CAPACITY_UNITS);
    }

    static TableClass tableClass(String value) {
        try {
            return TableClass.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw DynamoDbException.validation("Invalid table-class parameter provided. Please try again with a "
                    + "valid table-class value: [STANDARD, STANDARD_INFREQUENT_ACCESS].");
        }
    }

    /**
     * Reads an SSESpecification: null for DynamoDB's default encryption (an AWS owned key), else
     * KMS encryption with the key's ARN.
     */
    static SseSpecification sse(Struct spec, EngineConfig config) {
        Boolean enabled = spec.bool("Enabled");
        String type = spec.string("SSEType");
        String keyId = spec.string("KMSMasterKeyId");
        if (Boolean.FALSE.equals(enabled)) {
            if (type != null) throw DynamoDbException.invalidParameter("SSEType can not be specified if Enabled is false");
            if (keyId != null) {
                throw DynamoDbException.invalidParameter("KMSMasterKeyId can not be specified if Enabled is false");
            }
            return null;
        }
        if ("AES256".equals(type)) throw DynamoDbException.invalidParameter("SSEType AES256 is not supported");
        if (enabled == null && type == null) {
            if (keyId != null) {
                throw DynamoDbException.invalidParameter("SSEType KMS is required if KMSMasterKeyId is specified");
            }
            return null;
        }
        if (type == null && keyId != null) {
            throw DynamoDbException.invalidParameter("SSEType KMS is required if KMSMasterKeyId is specified");
        }
        return new SseSpecification(SseType.KMS, kmsKeyArn(keyId, config));
    }

    private static String kmsKeyArn(String keyId, EngineConfig config) {
        String prefix = "arn:aws:kms:" + config.region() + ":" + config.accountId() + ":";
        if (keyId == null) {
            // The AWS managed key (alias/aws/dynamodb) has a fixed id per account and region.
            String seed = "alias/aws/dynamodb:" + config.region() + ":" + config.accountId();
            return prefix + "key/" + UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
        }
        if (keyId.startsWith("arn:")) return keyId;
        if (keyId.startsWith("alias/")) return prefix + keyId;
        return prefix + "key/" + keyId;
    }

    /** DynamoDB's stream label: the creation time, ISO-8601 with milliseconds and no zone. */
    static String streamLabel(Instant now) {
        return STREAM_LABEL.format(LocalDateTime.ofInstant(now, ZoneOffset.UTC));
    }

    static TableDefinition.StreamViewType streamViewType(String value) {
        return TableDefinition.StreamViewType.valueOf(value);
    }
}
