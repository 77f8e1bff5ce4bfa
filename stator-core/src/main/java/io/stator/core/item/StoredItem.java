package io.stator.core.item;

import io.stator.core.model.AttributeValue;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * An item as a map that decodes its stored bytes lazily: {@link #get} decodes just the
 * attribute asked for ({@link ItemCodec#decodeAttribute}), and only iterating over the whole
 * map decodes all of it. A filter that reads two attributes of a fifty-attribute item, and
 * rejects it, never pays for the other forty-eight; a response writes it from the bytes
 * ({@link #visit}), never decoding it at all. Not thread-safe; read-only.
 */
public final class StoredItem extends AbstractMap<String, AttributeValue> {

    /** Marks an attribute looked up and found absent (compared by identity). */
    private static final AttributeValue ABSENT = new AttributeValue.S("absent");

    private final byte[] bytes;
    private Map<String, AttributeValue> decoded;
    private Map<String, AttributeValue> looked;

    public StoredItem(byte[] bytes) {
        this.bytes = bytes;
    }

    @Override
    public AttributeValue get(Object key) {
        if (decoded != null) return decoded.get(key);
        if (!(key instanceof String name)) return null;
        if (looked == null) looked = new HashMap<>(4);
        AttributeValue v = looked.get(name);
        if (v == null) {
            v = ItemCodec.decodeAttribute(bytes, name);
            looked.put(name, v == null ? ABSENT : v);
            return v;
        }
        return v == ABSENT ? null : v;
    }

    @Override
    public boolean containsKey(Object key) {
        return get(key) != null;
    }

    /** The whole item, decoded once. */
    public Map<String, AttributeValue> decoded() {
        if (decoded == null) decoded = ItemCodec.decode(bytes);
        return decoded;
    }

    /**
     * Hands the whole item to {@code visitor} from its stored bytes ({@link ItemCodec#visit}),
     * decoding none of it: how a read's response writes an item without a decoded copy of it.
     */
    public <E extends Exception> void visit(ItemVisitor<E> visitor) throws E {
        ItemCodec.visit(bytes, visitor);
    }

    @Override
    public Set<Entry<String, AttributeValue>> entrySet() {
        return decoded().entrySet();
    }
}
