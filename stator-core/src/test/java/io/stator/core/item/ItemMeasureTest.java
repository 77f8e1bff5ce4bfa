package io.stator.core.item;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.stator.core.model.AttributeValue;
import io.stator.core.testing.RandomValues;
import java.util.ArrayList;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Measuring stored bytes and lazy decoding agree with the decoded item. */
class ItemMeasureTest {

    @Test
    void measuringTheStoredBytesEqualsMeasuringTheDecodedItem() {
        Random r = new Random(11);
        for (int i = 0; i < 3000; i++) {
            Map<String, AttributeValue> item = RandomValues.item(r, 4);
            byte[] bytes = ItemCodec.encode(item);
            String sortKey = item.isEmpty() || r.nextBoolean() ? null
                    : new ArrayList<>(item.keySet()).get(r.nextInt(item.size()));
            ItemCodec.Sizes sizes = ItemCodec.measure(bytes, sortKey);
            assertEquals(ItemSize.of(item), sizes.itemSize());
            assertEquals(PageSize.of(item, sortKey), sizes.pageSize());
        }
    }

    @Test
    void aStoredItemDecodesWhatIsAskedForAndAllOfItWhenIterated() {
        Random r = new Random(12);
        for (int i = 0; i < 1000; i++) {
            Map<String, AttributeValue> item = RandomValues.item(r, 3);
            StoredItem stored = new StoredItem(ItemCodec.encode(item));
            for (String name : item.keySet()) assertEquals(item.get(name), stored.get(name));
            assertNull(stored.get("\u0000not-there"));
            assertEquals(item, Map.copyOf(stored));
        }
        StoredItem withNull = new StoredItem(ItemCodec.encode(Map.of("n", AttributeValue.NULL.INSTANCE)));
        assertEquals(AttributeValue.NULL.INSTANCE, withNull.get("n"));
    }
}
