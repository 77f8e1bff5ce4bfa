package io.stator.engine.index;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemCodec;
import io.stator.core.item.ItemSize;
import io.stator.core.key.KeyEncoding;
import io.stator.core.key.KeyLayout;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.model.Utf8;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an item puts in a vector index, and DynamoDB's checks on the vectors and search-schema
 * values writes give it (texts measured against the service: docs/dynamodb/vector-search.md §4.2).
 *
 * <p>An entry sits under the index's HASH value, or, when the search schema has no HASH, in one
 * of {@link #BUCKETS} partitions chosen by the item's partition key (a backend that keeps a
 * partition on few nodes, Cassandra, would otherwise hold a whole index in one partition, which
 * it also cannot key by nothing); and holds the projected attributes with the vector itself as 32-bit floats: a binary
 * attribute under the vector attribute's name, little-endian. Its size is thus DynamoDB's vector
 * write bytes (four bytes a dimension, the attribute's name, the rest of the projected item), and
 * the index keeps the floats, not the decimal text written, as DynamoDB's does. An item without
 * the vector, with one the index cannot take (written before the index existed), or without its
 * HASH value is not in the index.
 */
public final class VectorEntries {

    /** The partitions of an index without a HASH: a search reads each. */
    public static final int BUCKETS = 16;

    /** The largest magnitude a 32-bit float component may have, as DynamoDB states its range. */
    public static final double MAX_COMPONENT = 3.4028235E38;
    private static final String NOT_VALID = "One or more parameter values are not valid. One or more parameter values "
            + "were invalid . ";

    private VectorEntries() {}

    /** The item's entry in the vector index, or null when the item is absent or not in the index. */
    static IndexEntry entry(TableDefinition table, IndexDefinition index, Map<String, AttributeValue> item) {
        if (item == null) return null;
        IndexDefinition.Vector vector = index.vector();
        float[] floats = floats(item.get(vector.attribute()), vector.dimensions());
        if (floats == null) return null;
        KeySchema tableKey = table.keySchema();
        List<AttributeValue> partition;
        if (!index.partitionKey().isEmpty()) {
            KeyAttribute hash = index.partitionKey().get(0);
            AttributeValue v = item.get(hash.name());
            if (v == null || v.type() != hash.type() || emptyOrTooLong(v)) return null;
            partition = List.of(v);
        } else {
            byte[] key = KeyEncoding.encode(item.get(tableKey.partitionKey()));
            partition = bucket(Math.floorMod(java.util.Arrays.hashCode(key), BUCKETS));
        }
        byte[] key = KeyLayout.encodeIndexEntryKey(table.partitionHash(), table.id(), index.id(), partition, List.of(),
                item.get(tableKey.partitionKey()), tableKey.hasSortKey() ? item.get(tableKey.sortKey()) : null);
        Map<String, AttributeValue> stored = new LinkedHashMap<>();
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            if (!e.getKey().equals(vector.attribute()) && index.projects(e.getKey(), tableKey)) {
                stored.put(e.getKey(), e.getValue());
            }
        }
        stored.put(vector.attribute(), new AttributeValue.B(toBytes(floats)));
        return new IndexEntry(key, ItemCodec.encode(stored), ItemSize.of(stored));
    }

    /** The partition of one bucket of an index without a HASH. */
    public static List<AttributeValue> bucket(int bucket) {
        return List.of(new AttributeValue.N(DynamoNumber.of(bucket)));
    }

    /** The vector an entry stores, from its binary form. */
    public static float[] vectorOf(AttributeValue.B stored) {
        ByteBuffer in = ByteBuffer.wrap(stored.value()).order(ByteOrder.LITTLE_ENDIAN);
        float[] v = new float[stored.value().length / Float.BYTES];
        in.asFloatBuffer().get(v);
        return v;
    }

    private static byte[] toBytes(float[] v) {
        ByteBuffer out = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out.asFloatBuffer().put(v);
        return out.array();
    }

    /** The value as a vector of that many 32-bit floats, or null when it is not one. */
    private static float[] floats(AttributeValue value, int dimensions) {
        if (!(value instanceof AttributeValue.L list) || list.values().size() != dimensions) return null;
        float[] v = new float[dimensions];
        for (int i = 0; i < dimensions; i++) {
            if (!(list.values().get(i) instanceof AttributeValue.N n)) return null;
            double d = Double.parseDouble(n.value().toString());
            if (Math.abs(d) > MAX_COMPONENT) return null;
            v[i] = (float) d;
        }
        return v;
    }

    private static boolean emptyOrTooLong(AttributeValue v) {
        return switch (v) {
            case AttributeValue.S s -> s.value().isEmpty() || Utf8.encodedLength(s.value()) > PrimaryKeys.MAX_PARTITION_KEY_BYTES;
            case AttributeValue.B b -> b.value().length == 0 || b.value().length > PrimaryKeys.MAX_PARTITION_KEY_BYTES;
            default -> false;
        };
    }

    /**
     * DynamoDB's checks of the vectors and search-schema values a write gives the table's vector
     * indexes: on a whole item (PutItem) every one, on an update only those it changed (a value
     * written before the index existed is not refused again, measured). Per index in definition
     * order: the vector, then the schema's attributes.
     */
    static void check(TableDefinition table, Map<String, AttributeValue> oldItem, Map<String, AttributeValue> item) {
        for (IndexDefinition index : table.vectorIndexes()) {
            if (index.status() == IndexDefinition.IndexStatus.DELETING) continue;
            IndexDefinition.Vector vector = index.vector();
            AttributeValue v = item.get(vector.attribute());
            if (v != null && changed(oldItem, item, vector.attribute())) checkVector(index, vector, v);
            for (KeyAttribute k : index.partitionKey()) checkSchemaValue(index, k, oldItem, item, true);
            for (KeyAttribute k : vector.inlineFilters()) checkSchemaValue(index, k, oldItem, item, false);
        }
    }

    private static boolean changed(Map<String, AttributeValue> oldItem, Map<String, AttributeValue> item, String name) {
        return oldItem == null || !item.get(name).equals(oldItem.get(name));
    }

    private static void checkVector(IndexDefinition index, IndexDefinition.Vector vector, AttributeValue v) {
        String name = vector.attribute();
        if (!(v instanceof AttributeValue.L list)) {
            throw DynamoDbException.validation(NOT_VALID + "Invalid type for parameter " + name + ", Expected: L, Actual: "
                    + v.type() + ". IndexName: " + index.name());
        }
        if (list.values().size() != vector.dimensions()) {
            throw DynamoDbException.validation(NOT_VALID + "Invalid size for parameter " + name + ", Expected: "
                    + vector.dimensions() + ", Actual: " + list.values().size() + ". IndexName: " + index.name());
        }
        for (int i = 0; i < list.values().size(); i++) {
            AttributeValue e = list.values().get(i);
            if (!(e instanceof AttributeValue.N n)) {
                throw DynamoDbException.validation("One or more parameter values were invalid. Invalid type for parameter "
                        + name + "[" + i + "], Expected: 32-bit floating point number, Actual: " + e.type()
                        + ". IndexName: " + index.name());
            }
            double d = Double.parseDouble(n.value().toString());
            if (Math.abs(d) > MAX_COMPONENT) {
                throw DynamoDbException.validation(NOT_VALID + "Invalid value for parameter " + name + "[" + i + "], Value: "
                        + d + " is outside valid range [-3.4028235E38, 3.4028235E38]. IndexName: " + index.name());
            }
        }
    }

    private static void checkSchemaValue(IndexDefinition index, KeyAttribute k, Map<String, AttributeValue> oldItem,
                                         Map<String, AttributeValue> item, boolean hash) {
        AttributeValue v = item.get(k.name());
        if (v == null || !changed(oldItem, item, k.name())) return;
        if (v.type() != k.type()) {
            throw DynamoDbException.validation("One or more parameter values were invalid. Attribute '" + k.name()
                    + "' type mismatch. Expected: " + k.type() + ", Actual: " + v.type() + ". IndexName: " + index.name());
        }
        if (!hash) return;
        boolean empty = v instanceof AttributeValue.S s ? s.value().isEmpty()
                : v instanceof AttributeValue.B b && b.value().length == 0;
        if (empty) {
            throw new EmptyIndexKeyException("One or more parameter values are not valid. A value specified for a "
                    + "secondary index key is not supported. The AttributeValue for a key attribute cannot contain an "
                    + "empty " + (v instanceof AttributeValue.S ? "string" : "binary") + " value. IndexName: "
                    + index.name() + ", IndexKey: " + k.name());
        }
        if (emptyOrTooLong(v)) {
            // As a global index's partition key (docs/dynamodb/vector-search.md §11 U7).
            int bytes = v instanceof AttributeValue.S s ? Utf8.encodedLength(s.value()) : ((AttributeValue.B) v).value().length;
            throw DynamoDbException.invalidParameter("Size limit exceeded for Index Key " + k.name() + " Actual Size: "
                    + bytes + " bytes Max Size: " + PrimaryKeys.MAX_PARTITION_KEY_BYTES + " bytes IndexName: "
                    + index.name());
        }
    }
}
