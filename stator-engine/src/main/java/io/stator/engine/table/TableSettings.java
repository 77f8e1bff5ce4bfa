package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.TableDefinition.OnDemandThroughput;
import io.stator.engine.table.TableDefinition.SseSpecification;
import io.stator.engine.table.TableDefinition.SseType;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import io.stator.engine.table.TableSpecs.OnDemand;
import io.stator.engine.table.TableSpecs.Sse;
import io.stator.engine.table.TableSpecs.Throughput;
import io.stator.engine.table.TableSpecs.Warm;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.Instant;
import java.util.UUID;

/**
 * Table settings that CreateTable and UpdateTable share, read and checked as DynamoDB checks
 * them: provisioned, on-demand and warm throughput, table class, server-side encryption, stream
 * labels.
 */
public final class TableSettings {

    /** Above this DynamoDB calls a throughput value out of bounds (a validation error). */
    public static final long THROUGHPUT_BOUND = 1_000_000_000_000L;
    /** DynamoDB's default per-table quota of read and of write capacity units. */
    public static final long TABLE_MAX_CAPACITY_UNITS = 40_000;
    /** DynamoDB's default per-account quota. */
    public static final long ACCOUNT_MAX_CAPACITY_UNITS = 80_000;
    /** An on-demand maximum of -1 means there is none. */
    static final long NO_MAXIMUM = -1;
    static final OnDemandThroughput NO_ON_DEMAND_MAXIMUMS = new OnDemandThroughput(NO_MAXIMUM, NO_MAXIMUM);

    private static final DateTimeFormatter STREAM_LABEL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS");

    private TableSettings() {}

    /** Checks a ProvisionedThroughput structure's values against DynamoDB's bounds. */
    static void checkThroughputBounds(Throughput throughput) {
        long read = throughput.readCapacityUnits();
        long write = throughput.writeCapacityUnits();
        if (read > THROUGHPUT_BOUND) {
            throw DynamoDbException.validation("Given value " + read + " for ReadCapacityUnits is out of bounds");
        }
        if (write > THROUGHPUT_BOUND) {
            throw DynamoDbException.validation("Given value " + write + " for WriteCapacityUnits is out of bounds");
        }
    }

    /** The account's per-table quota: LimitExceededException above it. */
    static void checkThroughputQuota(Throughput throughput, String region) {
        long read = throughput.readCapacityUnits();
        long write = throughput.writeCapacityUnits();
        if (read > TABLE_MAX_CAPACITY_UNITS) throw aboveQuota("ReadCapacityUnits", read, region);
        if (write > TABLE_MAX_CAPACITY_UNITS) throw aboveQuota("WriteCapacityUnits", write, region);
    }

    private static DynamoDbException aboveQuota(String what, long value, String region) {
        return DynamoDbException.limitExceeded("The requested " + what + ", " + value
                + ", is above the per table maximum for the account in " + region + ". Per table maximum: "
                + TABLE_MAX_CAPACITY_UNITS);
    }

    /**
     * Reads an OnDemandThroughput structure over {@code current}: a member given replaces the
     * current maximum, one not given keeps it. A maximum is at least 1, or -1 for "no maximum"
     * where {@code acceptsNoMaximum} (UpdateTable; CreateTable refuses -1).
     */
    static OnDemandThroughput onDemandThroughput(OnDemand spec, OnDemandThroughput current, boolean acceptsNoMaximum) {
        return new OnDemandThroughput(
                onDemandMaximum(spec.maxReadRequestUnits(), "MaxReadRequestUnits", current.maxReadRequestUnits(),
                        acceptsNoMaximum),
                onDemandMaximum(spec.maxWriteRequestUnits(), "MaxWriteRequestUnits", current.maxWriteRequestUnits(),
                        acceptsNoMaximum));
    }

    private static long onDemandMaximum(Long value, String member, long current, boolean acceptsNoMaximum) {
        if (value == null) return current;
        if (value < 1 && !(acceptsNoMaximum && value == NO_MAXIMUM)) {
            throw DynamoDbException.invalidParameter("Requested " + member + " for OnDemandThroughput for table is "
                    + "outside of valid range");
        }
        return value;
    }

    /** DynamoDB's refusal of OnDemandThroughput for a provisioned table, naming the first member given. */
    static DynamoDbException onDemandWhenProvisioned(OnDemand spec) {
        String member = spec.maxReadRequestUnits() != null ? "MaxReadRequestUnits" : "MaxWriteRequestUnits";
        return DynamoDbException.invalidParameter(member + " for OnDemandThroughput cannot be specified when the "
                + "table BillingMode is PROVISIONED");
    }

    /** On-demand maximums are bounded by the per-table quota: LimitExceededException above it. */
    static void checkOnDemandQuota(OnDemandThroughput onDemand, String region) {
        if (onDemand.maxReadRequestUnits() > TABLE_MAX_CAPACITY_UNITS) throw onDemandAboveQuota("Read", region);
        if (onDemand.maxWriteRequestUnits() > TABLE_MAX_CAPACITY_UNITS) throw onDemandAboveQuota("Write", region);
    }

    private static DynamoDbException onDemandAboveQuota(String readOrWrite, String region) {
        return DynamoDbException.limitExceeded("Subscriber limit exceeded: Requested Max" + readOrWrite
                + "RequestUnits for OnDemandThroughput for table exceeds TableMax" + readOrWrite
                + "CapacityUnits of the account in region " + region);
    }

    /**
     * Reads a WarmThroughput structure: each member at least its {@code floor} (a member not given
     * is the floor). {@code floorName} says what the floor is in DynamoDB's refusal ("... is lower
     * than " + floorName), for reads and for writes.
     */
    static WarmThroughput warmThroughput(Warm spec, WarmThroughput floor, String readFloorName,
                                         String writeFloorName) {
        return new WarmThroughput(
                warmMember(spec.readUnitsPerSecond(), "ReadUnitsPerSecond", floor.readUnitsPerSecond(), readFloorName),
                warmMember(spec.writeUnitsPerSecond(), "WriteUnitsPerSecond", floor.writeUnitsPerSecond(),
                        writeFloorName));
    }

    private static long warmMember(Long value, String member, long floor, String floorName) {
        if (value == null) return floor;
        if (value < floor) {
            throw DynamoDbException.invalidParameter("Requested " + member + " for WarmThroughput for table is "
                    + "lower than " + floorName);
        }
        return value;
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
    static SseSpecification sse(Sse spec, TableArns arns) {
        Boolean enabled = spec.enabled();
        String type = spec.sseType();
        String keyId = spec.kmsMasterKeyId();
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
        return new SseSpecification(SseType.KMS, kmsKeyArn(keyId, arns));
    }

    private static String kmsKeyArn(String keyId, TableArns arns) {
        String prefix = "arn:aws:kms:" + arns.region() + ":" + arns.accountId() + ":";
        if (keyId == null) {
            // The AWS managed key (alias/aws/dynamodb) has a fixed id per account and region.
            String seed = "alias/aws/dynamodb:" + arns.region() + ":" + arns.accountId();
            return prefix + "key/" + UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8));
        }
        if (keyId.startsWith("arn:")) return keyId;
        if (keyId.startsWith("alias/")) return prefix + keyId;
        return prefix + "key/" + keyId;
    }

    /** DynamoDB's stream label: the creation time, ISO-8601 with milliseconds and no zone. */
    public static String streamLabel(Instant now) {
        return STREAM_LABEL.format(LocalDateTime.ofInstant(now, ZoneOffset.UTC));
    }

    static TableDefinition.StreamViewType streamViewType(String value) {
        return TableDefinition.StreamViewType.valueOf(value);
    }
}
