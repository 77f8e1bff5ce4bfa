package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.StoredItem;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.testing.RandomValues;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** An item written from its stored bytes is the same JSON, byte for byte, as the item decoded. */
class AttributeValueJsonTest {

    @Test
    void aStoredItemIsWrittenAsItsDecodedFormIs() throws IOException {
        Random random = new Random(29);
        for (int i = 0; i < 2_000; i++) {
            Map<String, AttributeValue> item = RandomValues.item(random, 4);
            assertSameJson(item);
        }
    }

    @Test
    void charactersJsonEscapesAreEscapedAlike() throws IOException {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("quote\"back\\slash\u0001\n", new AttributeValue.S("\"\\/\b\f\n\r\t\u0000\u001f\u007f é€😀 \u2028"));
        item.put("set", new AttributeValue.SS(List.of("\"", "\u0002", "😀")));
        item.put("numbers", new AttributeValue.NS(List.of(DynamoNumber.parse("-1.5E+3"), DynamoNumber.parse("0.001"))));
        item.put("nested", new AttributeValue.M(Map.of("l", new AttributeValue.L(List.of(
                AttributeValue.NULL.INSTANCE, AttributeValue.BOOL.TRUE, new AttributeValue.B(new byte[] {0, -1}),
                new AttributeValue.BS(List.of(new byte[] {1}, new byte[0])), new AttributeValue.M(Map.of()))))));
        item.put("", new AttributeValue.S(""));
        assertSameJson(item);
    }

    private static void assertSameJson(Map<String, AttributeValue> item) throws IOException {
        byte[] stored = ItemCodec.encode(item);
        String decoded = json(ItemCodec.decode(stored));
        assertEquals(decoded, json(new StoredItem(stored)), () -> "item " + item);
    }

    private static String json(Map<String, AttributeValue> item) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = ResponseBody.JSON.createGenerator(out, JsonEncoding.UTF8)) {
            AttributeValueJson.writeItem(g, item);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
