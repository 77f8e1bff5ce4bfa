package io.stator.server.testing;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** The simplest valid CreateTable requests, for tests to adjust. */
public final class Tables {

    /** The partition key of the tables made here: a string. */
    public static final String PARTITION_KEY = "pk";

    private Tables() {}

    /** An on-demand table keyed by the string {@link #PARTITION_KEY}. */
    public static CreateTableRequest.Builder onDemand(String name) {
        return hashKeyOnly(name).billingMode(BillingMode.PAY_PER_REQUEST);
    }

    /** A provisioned table keyed by the string {@link #PARTITION_KEY}. */
    public static CreateTableRequest.Builder provisioned(String name, long readCapacityUnits, long writeCapacityUnits) {
        return hashKeyOnly(name).billingMode(BillingMode.PROVISIONED)
                .provisionedThroughput(t -> t.readCapacityUnits(readCapacityUnits).writeCapacityUnits(writeCapacityUnits));
    }

    private static CreateTableRequest.Builder hashKeyOnly(String name) {
        return CreateTableRequest.builder().tableName(name)
                .attributeDefinitions(definition(PARTITION_KEY, ScalarAttributeType.S))
                .keySchema(key(PARTITION_KEY, KeyType.HASH));
    }

    public static AttributeDefinition definition(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    public static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
