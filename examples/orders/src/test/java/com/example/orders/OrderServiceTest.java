package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.embedded.StatorClock;
import io.stator.embedded.junit.StatorIndex;
import io.stator.embedded.junit.StatorInject;
import io.stator.embedded.junit.StatorTable;
import io.stator.embedded.junit.StatorTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;

/** The order service against a real DynamoDB API: an embedded Stator, one per class, reset between tests. */
@StatorTest(seedFiles = "/orders-seed.json")
@StatorTable(name = "orders", partitionKey = "id",
        globalIndexes = @StatorIndex(name = "byStatus", partitionKey = "status", sortKey = "id"),
        ttlAttribute = "expiresAt")
class OrderServiceTest {

    @StatorInject
    DynamoDbEnhancedClient client;

    @StatorInject
    StatorClock clock;

    OrderService service;

    @BeforeEach
    void createService() {
        // The service reads the server's clock, so that drafts expire on the server's time.
        service = new OrderService(client, clock);
    }

    @Test
    void seededOrdersAreFoundByStatus() {
        assertEquals(List.of("o-1", "o-3"), service.idsWithStatus("OPEN"));
        assertEquals(List.of("o-2"), service.idsWithStatus("SHIPPED"));
    }

    @Test
    void anOrderIsPlacedOnce() {
        assertTrue(service.place(new Order("o-9", "carol", "OPEN", 42)));
        assertFalse(service.place(new Order("o-9", "mallory", "OPEN", 1)), "the condition keeps the first");
        assertEquals("carol", service.find("o-9").getCustomer());
    }

    @Test
    void eachTestStartsFromTheSeed() {
        assertNull(service.find("o-9"), "the order another test placed is gone");
        assertNotNull(service.find("o-1"));
    }

    @Test
    void aDraftExpiresWhenItsTimeHasCome() {
        service.saveDraft(new Order("d-1", "dave", null, 7));
        clock.advance(Duration.ofMinutes(30));
        assertNotNull(service.find("d-1"), "half an hour on, the draft is kept");

        clock.advance(Duration.ofHours(2));
        assertNull(service.find("d-1"), "two hours on, Time to Live has deleted it");
        assertEquals(List.of(), service.idsWithStatus("DRAFT"));
    }
}
