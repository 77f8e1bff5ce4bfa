package com.example.orders;

import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbBean;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSecondaryPartitionKey;
import software.amazon.awssdk.enhanced.dynamodb.mapper.annotations.DynamoDbSecondarySortKey;

/** An order: keyed by its id, found by status through the "byStatus" index, gone after expiresAt. */
@DynamoDbBean
public class Order {
    private String id;
    private String customer;
    private String status;
    private long total;
    private Long expiresAt;

    public Order() {}

    public Order(String id, String customer, String status, long total) {
        this.id = id;
        this.customer = customer;
        this.status = status;
        this.total = total;
    }

    @DynamoDbPartitionKey
    @DynamoDbSecondarySortKey(indexNames = "byStatus")
    public String getId() { return id; }
    public void setId(String id) { this.id = id; }

    public String getCustomer() { return customer; }
    public void setCustomer(String customer) { this.customer = customer; }

    @DynamoDbSecondaryPartitionKey(indexNames = "byStatus")
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }

    public long getTotal() { return total; }
    public void setTotal(long total) { this.total = total; }

    /** Epoch seconds after which DynamoDB's Time to Live deletes the order (drafts only). */
    public Long getExpiresAt() { return expiresAt; }
    public void setExpiresAt(Long expiresAt) { this.expiresAt = expiresAt; }
}
