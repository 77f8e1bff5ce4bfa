package io.stator.engine.advisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A table's largest items read or written one at a time over the last hour, the ones at least
 * {@link LargeItems#WARN_BYTES}: the keys F12 shows. Only large items reach it, so its lock is
 * taken by a rare request, never by the common one.
 */
final class LargestItems {

    static final int KEPT = 10;
    static final long SPAN_MILLIS = 3_600_000;

    /** One item as last seen. */
    record Seen(KeyBytes item, long bytes, long timeMillis) {}

    private final List<Seen> kept = new ArrayList<>(KEPT + 1);

    /** An item of {@code bytes} read or written at {@code nowMillis}. */
    synchronized void offer(KeyBytes item, long bytes, long nowMillis) {
        kept.removeIf(s -> s.timeMillis() < nowMillis - SPAN_MILLIS || s.item().equals(item));
        kept.add(new Seen(item, bytes, nowMillis));
        if (kept.size() > KEPT) kept.remove(smallest());
    }

    private int smallest() {
        int at = 0;
        for (int i = 1; i < kept.size(); i++) if (kept.get(i).bytes() < kept.get(at).bytes()) at = i;
        return at;
    }

    /** The items seen in the last hour before {@code nowMillis}, the largest first. */
    synchronized List<Seen> since(long nowMillis) {
        List<Seen> out = new ArrayList<>();
        for (Seen s : kept) if (s.timeMillis() >= nowMillis - SPAN_MILLIS) out.add(s);
        out.sort(Comparator.comparingLong(Seen::bytes).reversed());
        return out;
    }
}
