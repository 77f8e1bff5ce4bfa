package io.stator.core.item;

import io.stator.core.key.KeyEncoding;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.model.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stored bytes of an item: a compact binary encoding of {@code Map<String, AttributeValue>}.
 *
 * <p>Why this shape: every read decodes items and most requests need only a few attributes (a
 * condition on one, a projection of two, the key). So the top level carries an offset table, and
 * {@link #decodeAttribute} finds one attribute by reading only the names, then decodes just its
 * value. Lengths are varints so small items stay small, and the offset table is 2 bytes per
 * attribute unless the item body passes 64 KiB. Numbers use {@link KeyEncoding}'s N encoding
 * (about half the bytes of the decimal text, and no parsing on the way back). Decoding copies
 * nothing but the values themselves: strings are built straight from the buffer.
 *
 * <p>Robustness: decoding trusts nothing. Every length and count is checked against the bytes
 * that remain, nesting is bounded by {@link #MAX_NESTING_DEPTH}, and anything malformed throws
 * {@link CorruptItemException}, so damaged bytes can neither loop, overflow the stack, nor
 * allocate much more than their own size.
 *
 * <h2>Stored format (version 1). Versioned: it must never change silently.</h2>
 * Items written today are read back years later; a change needs a new version number, and the
 * decoder keeps reading every older version. Do not renumber the tags.
 * <pre>
 * item      := version:u8 (=1)  width:u8 (2 or 4)  count:varint  attribute*  offset*
 *   attribute := name value
 *   offset    := `width` bytes, big-endian: where the i-th attribute (its name) starts,
 *                counted from byte 0 of the item. `width` is 2 if the last attribute ends by
 *                byte 65535, else 4. The offset table is the last count * width bytes.
 *   Attributes are in the order of the map that was encoded, and are decoded in that order.
 * name      := length:varint  UTF-8 bytes
 * value     := tag:u8 payload
 *   0x01 S     length:varint UTF-8 bytes
 *   0x02 N     KeyEncoding's N encoding (self-delimiting, 1..21 bytes)
 *   0x03 B     length:varint bytes
 *   0x04 SS    count:varint  (length:varint UTF-8 bytes)*
 *   0x05 NS    count:varint  (N encoding)*
 *   0x06 BS    count:varint  (length:varint bytes)*
 *   0x07 M     count:varint  (name value)*      entries in the map's order
 *   0x08 L     count:varint  value*
 *   0x09 BOOL false, 0x0A BOOL true, 0x0B NULL: no payload
 * varint    := unsigned LEB128, 7 bits per byte, least significant group first, at most 5 bytes,
 *              value at most 2^31 - 1
 * </pre>
 */
public final class ItemCodec {

    /** The version written by {@link #encode}, in the first byte. */
    public static final int FORMAT_VERSION = 1;

    /**
     * The deepest nesting of maps and lists the codec writes or reads: a top-level M or L is
     * level 1. DynamoDB allows 32 levels; this is twice that, so the codec is never the limit a
     * valid item meets, yet corrupt bytes cannot recurse without bound.
     */
    public static final int MAX_NESTING_DEPTH = 64;

    // Type tags: part of the stored format. Never renumber.
    static final int TAG_S = 0x01;
    static final int TAG_N = 0x02;
    static final int TAG_B = 0x03;
    static final int TAG_SS = 0x04;
    static final int TAG_NS = 0x05;
    static final int TAG_BS = 0x06;
    static final int TAG_M = 0x07;
    static final int TAG_L = 0x08;
    static final int TAG_FALSE = 0x09;
    static final int TAG_TRUE = 0x0A;
    static final int TAG_NULL = 0x0B;

    /** Collections are presized up to this many elements; beyond it they grow as they fill. */
    private static final int MAX_PRESIZE = 1024;

    private ItemCodec() {}

    // ---------------------------------------------------------------------------------------
    // Encoding

    /**
     * Encodes an item.
     *
     * @throws IllegalArgumentException if a name or value is null, or maps and lists nest deeper
     *                                  than {@link #MAX_NESTING_DEPTH}
     */
    public static byte[] encode(Map<String, AttributeValue> item) {
        int count = item.size();
        Writer w = new Writer(Math.max(64, 24 * count + 16));
        w.buf[0] = (byte) FORMAT_VERSION;
        w.pos = 2; // byte 1, the offset width, is known once the body is written
        w.writeVarint(count);
        int[] offsets = new int[count];
        int i = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            if (i == count) throw new IllegalArgumentException("Item changed while being encoded");
            offsets[i++] = w.pos;
            w.writeString(checkName(e.getKey()));
            writeValue(w, e.getValue(), 0);
        }
        if (i != count) throw new IllegalArgumentException("Item changed while being encoded");
        int width = w.pos <= 0xFFFF ? 2 : 4;
        w.buf[1] = (byte) width;
        w.ensure(count * width);
        byte[] buf = w.buf;
        int p = w.pos;
        for (int offset : offsets) {
            if (width == 4) {
                buf[p++] = (byte) (offset >>> 24);
                buf[p++] = (byte) (offset >>> 16);
            }
            buf[p++] = (byte) (offset >>> 8);
            buf[p++] = (byte) offset;
        }
        return Arrays.copyOf(buf, p);
    }

    /** @param level how many maps and lists enclose this value */
    private static void writeValue(Writer w, AttributeValue value, int level) {
        if (value == null) throw new IllegalArgumentException("Null attribute value");
        switch (value.type()) {
            case S -> {
                w.writeByte(TAG_S);
                w.writeString(((AttributeValue.S) value).value());
            }
            case N -> {
                w.writeByte(TAG_N);
                w.writeNumber(((AttributeValue.N) value).value());
            }
            case B -> {
                w.writeByte(TAG_B);
                w.writeBytes(((AttributeValue.B) value).value());
            }
            case SS -> {
                List<String> values = ((AttributeValue.SS) value).values();
                w.writeByte(TAG_SS);
                w.writeVarint(values.size());
                for (int i = 0, n = values.size(); i < n; i++) w.writeString(values.get(i));
            }
            case NS -> {
                List<DynamoNumber> values = ((AttributeValue.NS) value).values();
                w.writeByte(TAG_NS);
                w.writeVarint(values.size());
                for (int i = 0, n = values.size(); i < n; i++) w.writeNumber(values.get(i));
            }
            case BS -> {
                List<byte[]> values = ((AttributeValue.BS) value).values();
                w.writeByte(TAG_BS);
                w.writeVarint(values.size());
                for (int i = 0, n = values.size(); i < n; i++) w.writeBytes(values.get(i));
            }
            case M -> {
                Map<String, AttributeValue> values = ((AttributeValue.M) value).values();
                checkEncodeDepth(level + 1);
                w.writeByte(TAG_M);
                int count = values.size();
                w.writeVarint(count);
                int written = 0;
                for (Map.Entry<String, AttributeValue> e : values.entrySet()) {
                    w.writeString(checkName(e.getKey()));
                    writeValue(w, e.getValue(), level + 1);
                    written++;
                }
                if (written != count) throw new IllegalArgumentException("Map changed while being encoded");
            }
            case L -> {
                List<AttributeValue> values = ((AttributeValue.L) value).values();
                checkEncodeDepth(level + 1);
                w.writeByte(TAG_L);
                w.writeVarint(values.size());
                for (int i = 0, n = values.size(); i < n; i++) writeValue(w, values.get(i), level + 1);
            }
            case BOOL -> w.writeByte(((AttributeValue.BOOL) value).value() ? TAG_TRUE : TAG_FALSE);
            case NULL -> w.writeByte(TAG_NULL);
        }
    }

    private static void checkEncodeDepth(int level) {
        if (level > MAX_NESTING_DEPTH) {
            throw new IllegalArgumentException("Maps and lists nest deeper than " + MAX_NESTING_DEPTH + " levels");
        }
    }

    private static String checkName(String name) {
        if (name == null) throw new IllegalArgumentException("Null attribute name");
        return name;
    }

    /** A growable output buffer; the codec's only allocation besides the result. */
    private static final class Writer {
        byte[] buf;
        int pos;

        Writer(int capacity) {
            buf = new byte[capacity];
        }

        void ensure(int extra) {
            if (extra > buf.length - pos) {
                long needed = (long) pos + extra;
                if (needed > Integer.MAX_VALUE - 8) throw new IllegalArgumentException("Item too large to encode");
                buf = Arrays.copyOf(buf, (int) Math.max(needed, Math.min((long) buf.length * 2, Integer.MAX_VALUE - 8)));
            }
        }

        void writeByte(int b) {
            ensure(1);
            buf[pos++] = (byte) b;
        }

        void writeVarint(int v) {
            ensure(5);
            while ((v & ~0x7F) != 0) {
                buf[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
        }

        void writeBytes(byte[] b) {
            writeVarint(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }

        /** Refuses a lone surrogate, which Java's encoder would write as '?' (see {@link Utf8}). */
        void writeString(String s) {
            writeBytes(Utf8.encode(s));
        }

        void writeNumber(DynamoNumber n) {
            ensure(KeyEncoding.MAX_NUMBER_LENGTH);
            pos = KeyEncoding.writeNumber(n, buf, pos);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Decoding

    /**
     * Decodes a whole item. Maps come back as {@link LinkedHashMap}s in the order they were
     * written; the caller owns the returned collections.
     *
     * @throws CorruptItemException if the bytes are not a well-formed item
     */
    public static Map<String, AttributeValue> decode(byte[] item) {
        Reader r = new Reader(item);
        int count = r.openItem();
        LinkedHashMap<String, AttributeValue> map = LinkedHashMap.newLinkedHashMap(count);
        for (int i = 0; i < count; i++) {
            if (r.offset(i) != r.pos) throw corrupt("offset table entry " + i + " does not match attribute start " + r.pos);
            String name = r.readString();
            if (map.put(name, r.readValue(0)) != null) throw corrupt("duplicate attribute name '" + name + "'");
        }
        if (r.pos != r.limit) throw corrupt((r.limit - r.pos) + " unread bytes before the offset table");
        return map;
    }

    /**
     * Decodes one top-level attribute without decoding the others, or returns null if the item
     * has no attribute of that name.
     *
     * @throws CorruptItemException if the bytes are not a well-formed item
     */
    public static AttributeValue decodeAttribute(byte[] item, String name) {
        Reader r = new Reader(item);
        int count = r.openItem();
        for (int i = 0; i < count; i++) {
            int offset = r.offset(i);
            if (offset < r.bodyStart || offset >= r.limit) throw corrupt("offset table entry " + i + " out of range: " + offset);
            r.pos = offset;
            int len = r.readLength();
            if (Utf8.equals(item, r.pos, len, name)) {
                r.pos += len;
                return r.readValue(0);
            }
        }
        return null;
    }

    /**
     * Walks a whole item, handing each attribute to {@code visitor} in stored order without
     * decoding it (see {@link ItemVisitor}): what {@link #decode} builds, as events. The bytes are
     * checked as {@link #decode} checks them, except that a repeated name is not looked for.
     *
     * @throws CorruptItemException if the bytes are not a well-formed item (events up to the
     *                              fault have been delivered)
     */
    public static <E extends Exception> void visit(byte[] item, ItemVisitor<E> visitor) throws E {
        Reader r = new Reader(item);
        int count = r.openItem();
        for (int i = 0; i < count; i++) {
            if (r.offset(i) != r.pos) throw corrupt("offset table entry " + i + " does not match attribute start " + r.pos);
            int len = r.readLength();
            visitor.name(item, r.pos, len);
            r.pos += len;
            r.visitValue(visitor, 0);
        }
        if (r.pos != r.limit) throw corrupt((r.limit - r.pos) + " unread bytes before the offset table");
    }

    /**
     * An item's two sizes, read off its stored bytes without decoding it: its size as DynamoDB
     * bills and limits it ({@link ItemSize}) and its share of a Query or Scan page
     * ({@link PageSize}). Equal to computing both on the decoded item, but allocates nothing
     * besides the numbers it must decode, so pages can be measured at the speed of a byte walk.
     *
     * @param sortKeyName the table's sort key attribute, or null
     */
    public static Sizes measure(byte[] item, String sortKeyName) {
        Reader r = new Reader(item);
        int count = r.openItem();
        long itemSize = 0;
        long pageAttributes = 0;
        long sortKeySize = 0;
        for (int i = 0; i < count; i++) {
            int nameLength = r.readLength();
            boolean sortKey = sortKeyName != null && Utf8.equals(item, r.pos, nameLength, sortKeyName);
            r.pos += nameLength;
            long plain = r.measureValue(0);
            itemSize += nameLength + plain;
            if (sortKey) sortKeySize = plain;
            else pageAttributes += r.stored + 1;
        }
        return new Sizes(itemSize, PageSize.fromParts(pageAttributes, sortKeySize));
    }

    /** See {@link #measure}. */
    public record Sizes(long itemSize, long pageSize) {}

    /** Reads one item; the bounds of everything it reads are checked. */
    private static final class Reader {
        final byte[] buf;
        int pos;
        /** The end of the attributes: where the offset table starts. */
        int limit;
        int bodyStart;
        int width;

        Reader(byte[] item) {
            buf = item;
            limit = item.length;
        }

        /** Reads the header and returns the attribute count; positions on the first attribute. */
        int openItem() {
            if (buf.length < 3) throw corrupt("item of " + buf.length + " bytes is too short");
            int version = buf[0] & 0xFF;
            if (version != FORMAT_VERSION) throw corrupt("unsupported item format version " + version);
            width = buf[1];
            if (width != 2 && width != 4) throw corrupt("bad offset width " + width);
            pos = 2;
            int count = readVarint();
            bodyStart = pos;
            // Each attribute takes at least 2 body bytes (name length, tag) and `width` offset bytes.
            if ((long) count * (width + 2) > buf.length - pos) {
                throw corrupt("attribute count " + count + " does not fit in " + buf.length + " bytes");
            }
            limit = buf.length - count * width;
            return count;
        }

        int offset(int i) {
            int p = limit + i * width;
            int value = ((buf[p] & 0xFF) << 8) | (buf[p + 1] & 0xFF);
            if (width == 4) value = (value << 16) | ((buf[p + 2] & 0xFF) << 8) | (buf[p + 3] & 0xFF);
            return value;
        }

        int readByte() {
            if (pos >= limit) throw truncated();
            return buf[pos++] & 0xFF;
        }

        int readVarint() {
            int result = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                if (pos >= limit) throw truncated();
                int b = buf[pos++];
                result |= (b & 0x7F) << shift;
                if (b >= 0) { // high bit clear: last byte
                    if (shift == 28 && (b & 0x78) != 0) throw corrupt("varint exceeds 2^31 - 1");
                    return result;
                }
            }
            throw corrupt("varint longer than 5 bytes");
        }

        int readLength() {
            int len = readVarint();
            if (len > limit - pos) throw corrupt("length " + len + " runs past the end (" + (limit - pos) + " bytes left)");
            return len;
        }

        int readCount(int minElementBytes) {
            int count = readVarint();
            if (count > (limit - pos) / minElementBytes) {
                throw corrupt("count " + count + " cannot fit in the " + (limit - pos) + " bytes left");
            }
            return count;
        }

        String readString() {
            int len = readLength();
            String s = new String(buf, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return s;
        }

        byte[] readBytes() {
            int len = readLength();
            byte[] b = Arrays.copyOfRange(buf, pos, pos + len);
            pos += len;
            return b;
        }

        DynamoNumber readNumber() {
            try {
                int end = KeyEncoding.numberEnd(buf, pos, limit);
                DynamoNumber n = KeyEncoding.decodeNumber(buf, pos, end);
                pos = end;
                return n;
            } catch (IllegalArgumentException e) {
                throw new CorruptItemException("Corrupt item: bad number at byte " + pos + ": " + e.getMessage(), e);
            }
        }

        /** @param level how many maps and lists enclose this value */
        AttributeValue readValue(int level) {
            int tag = readByte();
            switch (tag) {
                case TAG_S:
                    return new AttributeValue.S(readString());
                case TAG_N:
                    return new AttributeValue.N(readNumber());
                case TAG_B:
                    return new AttributeValue.B(readBytes());
                case TAG_SS: {
                    int count = readCount(1);
                    ArrayList<String> values = new ArrayList<>(Math.min(count, MAX_PRESIZE));
                    for (int i = 0; i < count; i++) values.add(readString());
                    return new AttributeValue.SS(values);
                }
                case TAG_NS: {
                    int count = readCount(1);
                    ArrayList<DynamoNumber> values = new ArrayList<>(Math.min(count, MAX_PRESIZE));
                    for (int i = 0; i < count; i++) values.add(readNumber());
                    return new AttributeValue.NS(values);
                }
                case TAG_BS: {
                    int count = readCount(1);
                    ArrayList<byte[]> values = new ArrayList<>(Math.min(count, MAX_PRESIZE));
                    for (int i = 0; i < count; i++) values.add(readBytes());
                    return new AttributeValue.BS(values);
                }
                case TAG_M: {
                    checkDecodeDepth(level + 1);
                    int count = readCount(2);
                    LinkedHashMap<String, AttributeValue> values = LinkedHashMap.newLinkedHashMap(Math.min(count, MAX_PRESIZE));
                    for (int i = 0; i < count; i++) {
                        String name = readString();
                        if (values.put(name, readValue(level + 1)) != null) {
                            throw corrupt("duplicate map key '" + name + "'");
                        }
                    }
                    return new AttributeValue.M(values);
                }
                case TAG_L: {
                    checkDecodeDepth(level + 1);
                    int count = readCount(1);
                    ArrayList<AttributeValue> values = new ArrayList<>(Math.min(count, MAX_PRESIZE));
                    for (int i = 0; i < count; i++) values.add(readValue(level + 1));
                    return new AttributeValue.L(values);
                }
                case TAG_FALSE:
                    return AttributeValue.BOOL.FALSE;
                case TAG_TRUE:
                    return AttributeValue.BOOL.TRUE;
                case TAG_NULL:
                    return AttributeValue.NULL.INSTANCE;
                default:
                    throw corrupt("unknown type tag 0x" + Integer.toHexString(tag) + " at byte " + (pos - 1));
            }
        }

        /** Hands one value to the visitor, as {@link #readValue} would decode it. */
        <E extends Exception> void visitValue(ItemVisitor<E> v, int level) throws E {
            int tag = readByte();
            switch (tag) {
                case TAG_S -> {
                    int len = readLength();
                    v.string(buf, pos, len);
                    pos += len;
                }
                case TAG_N -> v.number(readNumber());
                case TAG_B -> {
                    int len = readLength();
                    v.binary(buf, pos, len);
                    pos += len;
                }
                case TAG_SS, TAG_BS -> {
                    int count = readCount(1);
                    v.beginSet(tag == TAG_SS ? "SS" : "BS", count);
                    for (int i = 0; i < count; i++) {
                        int len = readLength();
                        if (tag == TAG_SS) v.string(buf, pos, len);
                        else v.binary(buf, pos, len);
                        pos += len;
                    }
                    v.endSet();
                }
                case TAG_NS -> {
                    int count = readCount(1);
                    v.beginSet("NS", count);
                    for (int i = 0; i < count; i++) v.number(readNumber());
                    v.endSet();
                }
                case TAG_M -> {
                    checkDecodeDepth(level + 1);
                    int count = readCount(2);
                    v.beginMap(count);
                    for (int i = 0; i < count; i++) {
                        int len = readLength();
                        v.name(buf, pos, len);
                        pos += len;
                        visitValue(v, level + 1);
                    }
                    v.endMap();
                }
                case TAG_L -> {
                    checkDecodeDepth(level + 1);
                    int count = readCount(1);
                    v.beginList(count);
                    for (int i = 0; i < count; i++) visitValue(v, level + 1);
                    v.endList();
                }
                case TAG_FALSE -> v.bool(false);
                case TAG_TRUE -> v.bool(true);
                case TAG_NULL -> v.nullValue();
                default -> throw corrupt("unknown type tag 0x" + Integer.toHexString(tag) + " at byte " + (pos - 1));
            }
        }

        /** The stored size ({@link PageSize}) of the value {@link #measureValue} last measured. */
        long stored;

        /** Skips over one value, returning its plain size and leaving its stored size in {@link #stored}. */
        long measureValue(int level) {
            int tag = readByte();
            switch (tag) {
                case TAG_S: {
                    int len = readLength();
                    pos += len;
                    stored = len + (len < 128 ? 1 : len < 16384 ? 2 : 3);
                    return len;
                }
                case TAG_N: {
                    int size = ItemSize.ofNumber(readNumber());
                    stored = size + 1;
                    return size;
                }
                case TAG_B: {
                    int len = readLength();
                    pos += len;
                    stored = len + 1;
                    return len;
                }
                case TAG_SS:
                case TAG_BS: {
                    int count = readCount(1);
                    long size = 0;
                    for (int i = 0; i < count; i++) {
                        int len = readLength();
                        pos += len;
                        size += len;
                    }
                    stored = size + count + 1;
                    return size;
                }
                case TAG_NS: {
                    int count = readCount(1);
                    long size = 0;
                    for (int i = 0; i < count; i++) size += ItemSize.ofNumber(readNumber());
                    stored = size + count + 1;
                    return size;
                }
                case TAG_M: {
                    checkDecodeDepth(level + 1);
                    int count = readCount(2);
                    long size = 3;
                    long storedSize = 3 + count;
                    for (int i = 0; i < count; i++) {
                        int nameLength = readLength();
                        pos += nameLength;
                        size += 1 + nameLength + measureValue(level + 1);
                        storedSize += stored + 1;
                    }
                    stored = storedSize;
                    return size;
                }
                case TAG_L: {
                    checkDecodeDepth(level + 1);
                    int count = readCount(1);
                    long size = 3;
                    long storedSize = 3;
                    for (int i = 0; i < count; i++) {
                        size += 1 + measureValue(level + 1);
                        storedSize += 1 + stored;
                    }
                    stored = storedSize;
                    return size;
                }
                case TAG_FALSE:
                case TAG_TRUE:
                    stored = 1;
                    return 1;
                case TAG_NULL:
                    stored = 0;
                    return 1;
                default:
                    throw corrupt("unknown type tag 0x" + Integer.toHexString(tag) + " at byte " + (pos - 1));
            }
        }

        private void checkDecodeDepth(int level) {
            if (level > MAX_NESTING_DEPTH) throw corrupt("maps and lists nest deeper than " + MAX_NESTING_DEPTH + " levels");
        }

        private CorruptItemException truncated() {
            return corrupt("truncated at byte " + pos);
        }
    }

    private static CorruptItemException corrupt(String detail) {
        return new CorruptItemException("Corrupt item: " + detail);
    }
}
