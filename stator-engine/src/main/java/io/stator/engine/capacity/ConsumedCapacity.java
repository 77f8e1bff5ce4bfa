package io.stator.engine.capacity;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one operation consumed: units on the table and on each secondary index that it read or
 * wrote (DynamoDB reports them apart with ReturnConsumedCapacity=INDEXES, and their sum with
 * TOTAL). An index that cost nothing is absent. Vector indexes are metered apart, in bytes
 * (VectorWriteRequestBytes), and count in no total of units.
 */
public record ConsumedCapacity(double tableUnits, Map<String, Double> globalIndexUnits,
                               Map<String, Double> localIndexUnits, Map<String, Double> vectorIndexBytes) {

    public static ConsumedCapacity ofTable(double units) {
        return new ConsumedCapacity(units, Map.of(), Map.of(), Map.of());
    }

    public double total() {
        double total = tableUnits;
        for (double u : globalIndexUnits.values()) total += u;
        for (double u : localIndexUnits.values()) total += u;
        return total;
    }

    /**
     * The same work done in a transaction: the table's part costs twice (a prepare and a commit
     * of each item), the index parts do not change (as measured on DynamoDB, 2026).
     */
    public ConsumedCapacity transactional() {
        return new ConsumedCapacity(tableUnits * 2, globalIndexUnits, localIndexUnits, vectorIndexBytes);
    }

    /** Collects index units as a write or read goes through the indexes. */
    public static final class Builder {
        private double tableUnits;
        private Map<String, Double> global;
        private Map<String, Double> local;
        private Map<String, Double> vector;

        public Builder table(double units) {
            tableUnits += units;
            return this;
        }

        public Builder index(String name, boolean isGlobal, double units) {
            if (units <= 0) return this;
            Map<String, Double> map;
            if (isGlobal) {
                if (global == null) global = new LinkedHashMap<>();
                map = global;
            } else {
                if (local == null) local = new LinkedHashMap<>();
                map = local;
            }
            map.merge(name, units, Double::sum);
            return this;
        }

        /** Bytes written to a vector index (VectorWriteRequestBytes). */
        public Builder vectorIndex(String name, double bytes) {
            if (bytes <= 0) return this;
            if (vector == null) vector = new LinkedHashMap<>();
            vector.merge(name, bytes, Double::sum);
            return this;
        }

        /** Adds what another operation consumed (several items of one table, in a batch). */
        public Builder add(ConsumedCapacity c) {
            table(c.tableUnits());
            c.globalIndexUnits().forEach((name, u) -> index(name, true, u));
            c.localIndexUnits().forEach((name, u) -> index(name, false, u));
            c.vectorIndexBytes().forEach(this::vectorIndex);
            return this;
        }

        public ConsumedCapacity build() {
            return new ConsumedCapacity(tableUnits, global == null ? Map.of() : global, local == null ? Map.of() : local,
                    vector == null ? Map.of() : vector);
        }
    }
}
