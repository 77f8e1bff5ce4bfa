package io.stator.server.console;

import io.stator.core.model.AttributeValue;
import io.stator.server.advisor.AttributeText;
import io.stator.server.advisor.RecordJson;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/** How the console's templates write figures: one place, so that every page reads alike. */
public final class Format {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private Format() {}

    public static String units(double units) {
        return units == Math.rint(units) && Math.abs(units) < 1e15
                ? String.format(Locale.ROOT, "%,d", (long) units) : String.format(Locale.ROOT, "%,.1f", units);
    }

    /** A share (1.0 is 100%) as a whole percentage. */
    public static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    public static String dollars(Double dollars) {
        if (dollars == null) return "-";
        return dollars >= 100 ? String.format(Locale.ROOT, "$%,.0f", dollars) : String.format(Locale.ROOT, "$%,.2f", dollars);
    }

    public static String bytes(double bytes) {
        if (bytes < 1024) return String.format(Locale.ROOT, "%.0f B", bytes);
        if (bytes < 1024 * 1024) return String.format(Locale.ROOT, "%.1f KB", bytes / 1024);
        if (bytes < 1024.0 * 1024 * 1024) return String.format(Locale.ROOT, "%.1f MB", bytes / 1024 / 1024);
        return String.format(Locale.ROOT, "%.2f GB", bytes / 1024 / 1024 / 1024);
    }

    /** A second since the epoch as UTC time of day. */
    public static String second(long second) {
        return TIME.format(Instant.ofEpochSecond(second));
    }

    public static String minute(long minute) {
        return second(minute * 60).substring(0, 5);
    }

    public static String millis(long millis) {
        return DATE_TIME.format(Instant.ofEpochMilli(millis)) + String.format(Locale.ROOT, ".%03d", millis % 1000);
    }

    public static String key(Map<String, AttributeValue> key) {
        return key == null ? "(hidden)" : AttributeText.key(key);
    }

    public static String value(AttributeValue value) {
        return value == null ? "" : AttributeText.value(value);
    }

    /** A chart's data: the same JSON as the read API's twin of the page. */
    public static String json(Object value) {
        return RecordJson.of(value);
    }

    /** A share's class in the stylesheet: quiet, warm, hot, over the ceiling. */
    public static String heat(double share) {
        if (share > 1.0) return "over";
        if (share >= 0.8) return "hot";
        if (share >= 0.5) return "warm";
        return "quiet";
    }
}
