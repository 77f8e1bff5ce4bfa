package io.stator.core.item;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.stator.core.model.AttributeValue;
import io.stator.core.testing.FuzzedValues;
import io.stator.core.testing.InputTimeLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fuzz test (Jazzer) of the item codec. {@link ItemCodec} promises that decoding "trusts
 * nothing": any bytes either decode or throw {@link CorruptItemException}, without looping,
 * overflowing the stack or allocating far beyond their size. So arbitrary bytes go to
 * {@link ItemCodec#decode}, {@link ItemCodec#decodeAttribute}, {@link ItemCodec#measure} and a
 * {@link StoredItem}, and so do the bytes of a generated item with a few bytes changed; whatever
 * decodes must encode and decode back to itself. Generated items must round-trip, and measuring
 * their bytes must equal measuring the item.
 *
 * <p>How the fuzz tests run (verify, the long {@code -Pfuzz} run, the corpus): see
 * {@code io.stator.core.key.KeyEncodingFuzzTest}.
 */
class ItemCodecFuzzTest {

    @FuzzTest
    void itemsDecodeOrFailCleanlyAndRoundTrip(FuzzedDataProvider data) {
        InputTimeLimit.run(null, () -> decodeOrRoundTrip(data));
    }

    private static void decodeOrRoundTrip(FuzzedDataProvider data) {
        switch (data.consumeInt(0, 2)) {
            case 0 -> roundTrip(FuzzedValues.item(data, 3), data);
            case 1 -> {
                byte[] bytes = ItemCodec.encode(FuzzedValues.item(data, 3));
                int changes = data.consumeInt(1, 4);
                for (int i = 0; i < changes && bytes.length > 0; i++) {
                    bytes[data.consumeInt(0, bytes.length - 1)] = data.consumeByte();
                }
                decode(bytes, data.consumeBoolean() ? data.consumeString(8) : null, data);
            }
            default -> {
                String name = data.consumeBoolean() ? data.consumeString(8) : null;
                decode(data.consumeRemainingAsBytes(), name, data);
            }
        }
    }

    private static void decode(byte[] bytes, String name, FuzzedDataProvider data) {
        Map<String, AttributeValue> decoded = null;
        try {
            decoded = ItemCodec.decode(bytes);
        } catch (CorruptItemException expected) {
            // Not an item.
        }
        try {
            ItemCodec.measure(bytes, name);
        } catch (CorruptItemException e) {
            // Measuring skips over values without building them, but checks as much: what
            // decodes must measure.
            if (decoded != null) throw new AssertionError("decoded, but measuring failed", e);
        }
        try {
            StoredItem stored = new StoredItem(bytes);
            stored.get(name == null ? "" : name);
            if (decoded != null) assertEquals(decoded, stored.decoded());
        } catch (CorruptItemException expected) {
            // A stored item decodes lazily: the attribute asked for, or all of it.
        }
        if (decoded != null) roundTrip(decoded, data);
    }

    private static void roundTrip(Map<String, AttributeValue> item, FuzzedDataProvider data) {
        byte[] bytes = ItemCodec.encode(item);
        assertEquals(item, ItemCodec.decode(bytes));
        List<String> names = new ArrayList<>(item.keySet());
        String sortKey = names.isEmpty() || data.consumeBoolean() ? null : names.get(data.consumeInt(0, names.size() - 1));
        assertEquals(new ItemCodec.Sizes(ItemSize.of(item), PageSize.of(item, sortKey)), ItemCodec.measure(bytes, sortKey));
        for (String name : names) assertEquals(item.get(name), ItemCodec.decodeAttribute(bytes, name));
    }
}
