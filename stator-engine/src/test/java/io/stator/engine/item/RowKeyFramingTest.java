package io.stator.engine.item;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.key.KeyEncoding;
import io.stator.core.key.KeyLayout;
import io.stator.core.key.PartitionHash;
import io.stator.core.model.AttributeValue;
import io.stator.storage.RowKeyFraming;
import io.stator.core.model.DynamoNumber;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engine's key layout (core) and the storage contract's framing (storage) describe one
 * format from two sides that may not depend on each other: every item and index-entry key the
 * layout makes reads back through the framing as its table, kind, hash, partition key and rest.
 */
class RowKeyFramingTest {

    @ParameterizedTest
    @EnumSource(PartitionHash.class)
    void everyKeyTheLayoutMakesIsFramedAsTheContractSays(PartitionHash hash) {
        AttributeValue pk = new AttributeValue.S("partition");
        AttributeValue sk = new AttributeValue.N(DynamoNumber.parse("42.5"));
        byte[] item = KeyLayout.encodeItemKey(hash, 7, 0, pk, sk);
        assertEquals(7, RowKeyFraming.tableId(item));
        assertEquals(0, RowKeyFraming.kind(item));
        assertEquals(KeyLayout.hashOf(item), RowKeyFraming.hash(item));
        assertArrayEquals(KeyEncoding.encode(pk), RowKeyFraming.partitionKey(item));
        assertArrayEquals(KeyEncoding.encode(sk), RowKeyFraming.clustering(item));
        assertArrayEquals(item, RowKeyFraming.rowKey(7, 0, RowKeyFraming.hash(item), RowKeyFraming.partitionKey(item),
                RowKeyFraming.clustering(item)));

        byte[] entry = KeyLayout.encodeIndexEntryKey(hash, 7, 3, List.of(new AttributeValue.S("gsi")), List.of(sk), pk, sk);
        assertEquals(3, RowKeyFraming.kind(entry));
        assertEquals(hash.of(List.of(new AttributeValue.S("gsi"))),
                RowKeyFraming.hash(entry));
        assertArrayEquals(KeyLayout.indexPartitionBytes(List.of(new AttributeValue.S("gsi"))),
                RowKeyFraming.partitionKey(entry));

        // A local-index entry of the item is in the item's collection.
        byte[] local = KeyLayout.encodeIndexEntryKey(hash, 7, 1, List.of(pk), List.of(new AttributeValue.S("x")), pk, sk);
        assertTrue(RowKeyFraming.sameCollection(item, local));
    }
}
