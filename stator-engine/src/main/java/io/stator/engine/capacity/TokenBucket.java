package io.stator.engine.capacity;

/**
 * Capacity units that refill at a steady rate up to a ceiling: DynamoDB's throughput in one
 * dimension (reads or writes) of one table, index or partition. DynamoDB "applies rate limits per
 * second" (developer guide, ProvisionedThroughput); a bucket refilled continuously from the clock
 * is that limit without a timer.
 *
 * <p>A request may {@link #canStart start} while the bucket holds anything, and {@link #take}
 * then leaves it in debt if it cost more; the debt throttles the requests that follow (whether
 * DynamoDB lets one request drive a bucket negative is not documented: dynamodb-throughput.md,
 * section 8, "UNKNOWN").
 *
 * <p><b>Burst.</b> A bucket may also bank what it could not hold, its unused capacity, up to
 * {@value #BURST_SECONDS} seconds of its rate: DynamoDB "retains up to five minutes (300 seconds)
 * of unused read and write capacity", which "can be consumed quickly—even faster than the
 * per-second" rate (developer guide, burst-adaptive-capacity). The bank pays only for what one
 * request costs beyond one second of the rate: a request the per-second limit cannot hold (a
 * transaction of several large items on one partition) is served from burst instead of leaving a
 * debt that throttles the requests after it. Requests of ordinary size, however many, never touch
 * the bank: "burst capacity can't alleviate partition-level throttling" of a hot partition (AWS
 * knowledge center, dynamodb-spiky-workloads-short-intervals). A bucket whose ceiling is already
 * its burst (a provisioned table's, 300 seconds) has no bank.
 *
 * <p>Each bucket is its own monitor: a table's buckets are contended only by that table's
 * requests, and a partition's by its partition's. No lock is global.
 */
final class TokenBucket {

    /** How much unused capacity a bank keeps, in seconds of its rate. */
    static final int BURST_SECONDS = 300;

    private boolean banks;
    private double ratePerSecond;
    private double capacity;
    private double balance;
    private double burst;
    private long refilledMillis;

    /** A bucket refilling at {@code ratePerSecond} up to {@code capacity}, full at {@code nowMillis}; no bank. */
    TokenBucket(double ratePerSecond, double capacity, long nowMillis) {
        this(ratePerSecond, capacity, false, nowMillis);
    }

    /**
     * @param banks whether it banks unused capacity for requests larger than a second; a new bank
     *              starts full, as the bucket does (a choice: the burst of a new table is not
     *              documented, dynamodb-throughput.md section 14)
     */
    TokenBucket(double ratePerSecond, double capacity, boolean banks, long nowMillis) {
        this.banks = banks;
        this.ratePerSecond = ratePerSecond;
        this.capacity = capacity;
        this.balance = capacity;
        this.burst = bankCapacity();
        this.refilledMillis = nowMillis;
    }

    /** The units a second it refills at: what it admits when kept busy. */
    synchronized double ratePerSecond() { return ratePerSecond; }

    /** May a read start now: does the bucket hold any unit at all? */
    synchronized boolean canStart(long nowMillis) {
        refill(nowMillis);
        return balance > 0;
    }

    /**
     * Takes {@code units}: what they come to beyond one second of the rate from the bank while it
     * holds any, the rest from the bucket, into debt if need be.
     */
    synchronized void take(double units, long nowMillis) {
        refill(nowMillis);
        if (units > ratePerSecond && burst > 0) {
            double fromBurst = Math.min(units - ratePerSecond, burst);
            burst -= fromBurst;
            units -= fromBurst;
        }
        balance -= units;
    }

    /**
     * Takes units other servers took (many requests summed over an exchange, not one large
     * request): from the bucket only, never from the bank, into debt if need be.
     */
    synchronized void takeElsewhere(double units, long nowMillis) {
        refill(nowMillis);
        balance -= units;
    }

    /** A new rate and ceiling (UpdateTable, a split, on-demand scaling); the balance and the bank are kept, capped. */
    synchronized void reshape(double newRatePerSecond, double newCapacity, long nowMillis) {
        reshape(newRatePerSecond, newCapacity, banks, nowMillis);
    }

    /** As {@link #reshape(double, double, long)}, banking from now on or not (a switch of capacity mode). */
    synchronized void reshape(double newRatePerSecond, double newCapacity, boolean bank, long nowMillis) {
        refill(nowMillis);
        boolean opened = bank && !banks;
        banks = bank;
        ratePerSecond = newRatePerSecond;
        capacity = newCapacity;
        balance = Math.min(balance, capacity);
        burst = opened ? bankCapacity() : Math.min(burst, bankCapacity());
    }

    synchronized double balance(long nowMillis) {
        refill(nowMillis);
        return balance;
    }

    /** The unused capacity banked (0 for a bucket without a bank). */
    synchronized double burst(long nowMillis) {
        refill(nowMillis);
        return burst;
    }

    private double bankCapacity() {
        return banks ? BURST_SECONDS * ratePerSecond : 0;
    }

    private void refill(long nowMillis) {
        long elapsed = nowMillis - refilledMillis;
        if (elapsed <= 0) return; // a clock moved back (a test's) refills nothing
        refilledMillis = nowMillis;
        double refilled = balance + ratePerSecond * elapsed / 1000.0;
        if (refilled <= capacity) {
            balance = refilled;
            return;
        }
        // What the bucket cannot hold was unused: banked, up to its limit.
        balance = capacity;
        if (banks) burst = Math.min(bankCapacity(), burst + refilled - capacity);
    }
}
