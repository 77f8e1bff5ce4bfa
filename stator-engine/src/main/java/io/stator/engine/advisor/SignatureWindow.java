package io.stator.engine.advisor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open window of one table's access patterns: a counter set per signature, for at most
 * {@value #MAX_SIGNATURES} signatures (a workload whose begins_with prefixes are all different
 * would make one each); the patterns past them are counted together under {@link #OTHERS}.
 */
final class SignatureWindow implements Rolling.Period {

    static final int MAX_SIGNATURES = 256;
    /** Where the patterns past {@link #MAX_SIGNATURES} are counted. */
    static final Signature OTHERS = new Signature(Operation.GET_ITEM, "others", null, "", List.of(), null, false, false,
            0, List.of(), List.of());

    private final long period;
    private final ConcurrentHashMap<Signature, SignatureCounters> patterns = new ConcurrentHashMap<>();

    SignatureWindow(long period) {
        this.period = period;
    }

    @Override
    public long period() { return period; }

    SignatureCounters of(Signature s) {
        SignatureCounters c = patterns.get(s);
        if (c != null) return c;
        if (patterns.size() >= MAX_SIGNATURES) s = OTHERS;
        return patterns.computeIfAbsent(s, x -> new SignatureCounters());
    }

    Map<Signature, PatternFigures> figures() {
        Map<Signature, PatternFigures> out = new LinkedHashMap<>();
        patterns.forEach((s, c) -> out.put(s, c.figures(s)));
        return out;
    }

    /** A second's figures: its calls and units become each pattern's peak per second. */
    Map<Signature, PatternFigures> secondFigures() {
        Map<Signature, PatternFigures> out = new LinkedHashMap<>();
        patterns.forEach((s, c) -> {
            PatternFigures f = c.figures(s);
            out.put(s, f.withPeaks(f.calls(), f.totalHalves()));
        });
        return out;
    }
}
