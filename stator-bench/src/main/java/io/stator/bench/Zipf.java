package io.stator.bench;

import java.util.SplittableRandom;

/**
 * Zipf-distributed ranks in {@code [0, n)}: rank 0 is the hottest. The algorithm of Gray et al.,
 * "Quickly Generating Billion-Record Synthetic Databases" (SIGMOD 1994), as YCSB uses it, with
 * YCSB's default skew 0.99: about 1% of a million keys take half of the requests.
 */
final class Zipf {

    static final double YCSB_SKEW = 0.99;

    private final long n;
    private final double theta;
    private final double alpha;
    private final double zetaN;
    private final double eta;

    Zipf(long n, double theta) {
        this.n = n;
        this.theta = theta;
        double zeta2 = zeta(2, theta);
        this.zetaN = zeta(n, theta);
        this.alpha = 1.0 / (1.0 - theta);
        this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN);
    }

    long next(SplittableRandom random) {
        double u = random.nextDouble();
        double uz = u * zetaN;
        if (uz < 1.0) return 0;
        if (uz < 1.0 + Math.pow(0.5, theta)) return 1;
        long rank = (long) (n * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(rank, n - 1);
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) sum += 1 / Math.pow(i, theta);
        return sum;
    }
}
