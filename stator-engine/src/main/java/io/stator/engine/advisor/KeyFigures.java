package io.stator.engine.advisor;

/**
 * One key's figures in one window, as a report reads them. Units are in halves (see
 * {@link KeyCounter}).
 *
 * @param exact      counted exactly; else estimated by the window's sketches
 * @param errorHalves for an estimate (an upper bound: the truth is never above it), how far below
 *                   it the truth may be, in the ranked measure's halves (or count); 0 when exact
 */
record KeyFigures(KeyBytes key, long readHalves, long writeHalves, long insightsHalves, long throttles,
                  long throttleEvents, long requests, long items, long bytes, boolean exact, long errorHalves) {

    static KeyFigures of(KeyBytes key, KeyCounter c) {
        return new KeyFigures(key, c.readHalves, c.writeHalves, c.insightsHalves(), c.throttles, c.throttleEvents,
                c.requests, c.items, c.bytes, true, 0);
    }
}
