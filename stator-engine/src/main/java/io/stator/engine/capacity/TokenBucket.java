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
 * <p>Each bucket is its own monitor: a table's buckets are contended only by that table's
 * requests, and a partition's by its partition's. No lock is global.
 */
final class TokenBucket {

    private double ratePerSecond;
    private double capacity;
    private double balance;
    private long refilledMillis;

    /** A bucket refilling at {@code ratePerSecond} up to {@code capacity}, full at {@code nowMillis}. */
    TokenBucket(double ratePerSecond, double capacity, long nowMillis) {
        this.ratePerSecond = ratePerSecond;
        this.capacity = capacity;
        this.balance = capacity;
        this.refilledMillis = nowMillis;
    }

    /** May a read start now: does the bucket hold any unit at all? */
    synchronized boolean canStart(long nowMillis) {
        refill(nowMillis);
        return balance > 0;
    }

    /** Takes {@code units}, into debt if need be. */
    synchronized void take(double units, long nowMillis) {
        refill(nowMillis);
        balance -= units;
    }

    /** A new rate and ceiling (UpdateTable, a split, on-demand scaling); the balance is kept, capped. */
    synchronized void reshape(double newRatePerSecond, double newCapacity, long nowMillis) {
        refill(nowMillis);
        ratePerSecond = newRatePerSecond;
        capacity = newCapacity;
        balance = Math.min(balance, capacity);
    }

    synchronized double balance(long nowMillis) {
        refill(nowMillis);
        return balance;
    }

    private void refill(long nowMillis) {
        long elapsed = nowMillis - refilledMillis;
        if (elapsed <= 0) return; // a clock moved back (a test's) refills nothing
        balance = Math.min(capacity, balance + ratePerSecond * elapsed / 1000.0);
        refilledMillis = nowMillis;
    }
}
