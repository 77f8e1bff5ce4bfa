package io.stator.core.item;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.core.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The four 1 MB page boundaries recorded against DynamoDB (dynalite's query tests, run against
 * AWS): 25 items of a 10-character partition key, a 2-character sort key "b" and one large string
 * attribute, named "e" or with a 255-character name.
 */
class PageSizeTest {

    private static List<Map<String, AttributeValue>> items(String bigName, int length, int... lastLengths) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            int n = length;
            if (i >= 25 - lastLengths.length) n = lastLengths[i - (25 - lastLengths.length)];
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("a", new AttributeValue.S("2947192835"));
            item.put("b", new AttributeValue.S(String.format("%02d", i)));
            item.put(bigName, new AttributeValue.S("e".repeat(n)));
            items.add(item);
        }
        return items;
    }

    /** Reads as a page does: stop once the total reaches 1 MiB, the crossing item included. */
    private static long[] page(List<Map<String, AttributeValue>> items) {
        long total = 0;
        int count = 0;
        for (Map<String, AttributeValue> item : items) {
            if (total >= PageSize.PAGE_LIMIT) break;
            total += PageSize.of(item, "b");
            count++;
        }
        return new long[] {count, total};
    }

    @Test
    void justUnderOneMegabyteWithALongAttributeName() {
        long[] page = page(items("e".repeat(255), 41645));
        assertEquals(25, page[0]);
        assertEquals(1_048_575, page[1]); // under: the page could go on
    }

    @Test
    void justOverOneMegabyte() {
        long[] page = page(items("e", 41645, 41646));
        assertEquals(25, page[0]);
        assertEquals(1_048_576, page[1]); // reached: the page ends with the last item
    }

    @Test
    void theItemThatCrossesTheLimitIsIncluded() {
        List<Map<String, AttributeValue>> items = items("e".repeat(255), 43372, 43387, 44999);
        long afterTwentyFour = page(items.subList(0, 24))[1];
        assertEquals(1_048_575, afterTwentyFour);
        assertEquals(25, page(items)[0]);
    }

    @Test
    void reachingTheLimitEndsThePageBeforeTheNextItem() {
        long[] page = page(items("e", 43372, 43388, 44999));
        assertEquals(24, page[0]);
        assertEquals(1_048_576, page[1]);
    }
}
