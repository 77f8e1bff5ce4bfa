package io.stator.core.model;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One DynamoDB attribute value: exactly one of the ten data types.
 *
 * <p>Values are immutable once built. Sets keep the order they arrived in (DynamoDB promises no
 * order for sets, so any order is faithful) and hold no duplicates: {@code AttributeValues}
 * checks that before one is built from client input. Binary values hold their array without
 * copying; callers must not modify it afterwards.
 */
public sealed interface AttributeValue {

    /** DynamoDB's name for this value's type: "S", "N", "B", "SS", ... */
    Type type();

    enum Type {
        S, N, B, SS, NS, BS, M, L, BOOL, NULL;

        /** True for the three types a key attribute may have. */
        public boolean isScalarKeyType() {
            return this == S || this == N || this == B;
        }
    }

    record S(String value) implements AttributeValue {
        public Type type() { return Type.S; }
    }

    record N(DynamoNumber value) implements AttributeValue {
        public Type type() { return Type.N; }
    }

    record B(byte[] value) implements AttributeValue {
        public Type type() { return Type.B; }

        @Override public boolean equals(Object o) {
            return o instanceof B other && Arrays.equals(value, other.value);
        }

        @Override public int hashCode() { return Arrays.hashCode(value); }

        @Override public String toString() { return "B[" + value.length + " bytes]"; }
    }

    record SS(List<String> values) implements AttributeValue {
        public Type type() { return Type.SS; }
    }

    record NS(List<DynamoNumber> values) implements AttributeValue {
        public Type type() { return Type.NS; }
    }

    record BS(List<byte[]> values) implements AttributeValue {
        public Type type() { return Type.BS; }

        @Override public boolean equals(Object o) {
            if (!(o instanceof BS other) || other.values.size() != values.size()) return false;
            for (int i = 0; i < values.size(); i++) {
                if (!Arrays.equals(values.get(i), other.values.get(i))) return false;
            }
            return true;
        }

        @Override public int hashCode() {
            int h = 1;
            for (byte[] v : values) h = 31 * h + Arrays.hashCode(v);
            return h;
        }
    }

    record M(Map<String, AttributeValue> values) implements AttributeValue {
        public Type type() { return Type.M; }
    }

    record L(List<AttributeValue> values) implements AttributeValue {
        public Type type() { return Type.L; }
    }

    record BOOL(boolean value) implements AttributeValue {
        public static final BOOL TRUE = new BOOL(true);
        public static final BOOL FALSE = new BOOL(false);

        public static BOOL of(boolean value) { return value ? TRUE : FALSE; }

        public Type type() { return Type.BOOL; }
    }

    record NULL() implements AttributeValue {
        public static final NULL INSTANCE = new NULL();

        public Type type() { return Type.NULL; }
    }
}
