package com.example.orders;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbTable;
import software.amazon.awssdk.enhanced.dynamodb.Expression;
import software.amazon.awssdk.enhanced.dynamodb.Key;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.enhanced.dynamodb.model.PutItemEnhancedRequest;
import software.amazon.awssdk.enhanced.dynamodb.model.QueryConditional;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** Places, finds and lists orders in the "orders" table. */
public class OrderService {

    /** How long a draft order lives before Time to Live removes it. */
    public static final Duration DRAFT_LIFETIME = Duration.ofHours(1);

    private final DynamoDbTable<Order> orders;
    private final Clock clock;

    public OrderService(DynamoDbEnhancedClient client, Clock clock) {
        this.orders = client.table("orders", TableSchema.fromBean(Order.class));
        this.clock = clock;
    }

    /** Places an order; false when one with the same id exists already (nothing is overwritten). */
    public boolean place(Order order) {
        try {
            orders.putItem(PutItemEnhancedRequest.builder(Order.class).item(order)
                    .conditionExpression(Expression.builder().expression("attribute_not_exists(id)").build())
                    .build());
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    /** Saves a draft, which expires after {@link #DRAFT_LIFETIME}. */
    public void saveDraft(Order order) {
        order.setStatus("DRAFT");
        order.setExpiresAt(clock.instant().plus(DRAFT_LIFETIME).getEpochSecond());
        orders.putItem(order);
    }

    public Order find(String id) {
        return orders.getItem(Key.builder().partitionValue(id).build());
    }

    /** The ids of the orders in a status, in id order (the "byStatus" index). */
    public List<String> idsWithStatus(String status) {
        return orders.index("byStatus")
                .query(QueryConditional.keyEqualTo(Key.builder().partitionValue(status).build()))
                .stream().flatMap(page -> page.items().stream()).map(Order::getId).toList();
    }
}
