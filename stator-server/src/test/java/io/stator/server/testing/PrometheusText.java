package io.stator.server.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scrape in Prometheus' text format (version 0.0.4), read and checked as Prometheus reads it:
 * every line a HELP, a TYPE or a sample; names and label names valid; label values quoted with
 * only the three escapes the format has; each sample in the family its TYPE line opened (a
 * histogram's as {@code _bucket}, {@code _sum}, {@code _count}); no series twice; histogram
 * buckets cumulative, ending at {@code +Inf} with the count. The Java client of Prometheus has
 * writers of the format but no reader, hence this one. {@link #parse} throws on the first line
 * that breaks a rule.
 */
public final class PrometheusText {

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern META = Pattern.compile("# (HELP|TYPE) (" + NAME + ") ?(.*)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?\\d+)?");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    /** One series: its name, its labels, its value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private final List<Sample> samples;
    private final Map<String, String> types;
    private final Map<String, String> help;

    private PrometheusText(List<Sample> samples, Map<String, String> types, Map<String, String> help) {
        this.samples = samples;
        this.types = types;
        this.help = help;
    }

    public static PrometheusText parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) throw new IllegalArgumentException("the text does not end with a line feed");
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> help = new HashMap<>();
        Set<String> seen = new HashSet<>();
        String family = null;
        int n = 0;
        for (String line : text.split("\n")) {
            n++;
            if (line.isEmpty()) continue;
            if (line.startsWith("#")) {
                Matcher m = META.matcher(line);
                if (!m.matches()) {
                    if (line.startsWith("# HELP") || line.startsWith("# TYPE")) throw bad(n, line, "malformed");
                    continue; // a comment
                }
                String name = m.group(2);
                if (m.group(1).equals("TYPE")) {
                    if (!TYPES.contains(m.group(3))) throw bad(n, line, "unknown type");
                    if (types.put(name, m.group(3)) != null) throw bad(n, line, "a second TYPE for the family");
                    family = name;
                } else {
                    if (help.put(name, m.group(3)) != null) throw bad(n, line, "a second HELP for the family");
                }
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) throw bad(n, line, "not a sample");
            String name = m.group(1);
            if (family == null || !inFamily(name, family, types.get(family))) {
                throw bad(n, line, "outside its family's TYPE (" + family + ")");
            }
            Map<String, String> labels = m.group(3) == null ? Map.of() : labels(m.group(3), n, line);
            double value = value(m.group(4), n, line);
            if (!seen.add(name + new TreeMap<>(labels))) throw bad(n, line, "the same series twice");
            samples.add(new Sample(name, labels, value));
        }
        PrometheusText parsed = new PrometheusText(samples, types, help);
        parsed.checkHistograms();
        return parsed;
    }

    private static boolean inFamily(String name, String family, String type) {
        if (name.equals(family)) return !type.equals("histogram");
        if (type.equals("histogram")) {
            return name.equals(family + "_bucket") || name.equals(family + "_sum") || name.equals(family + "_count");
        }
        if (type.equals("summary")) return name.equals(family + "_sum") || name.equals(family + "_count");
        return false;
    }

    private static Map<String, String> labels(String text, int n, String line) {
        Map<String, String> labels = new LinkedHashMap<>();
        int i = 0;
        while (i < text.length()) {
            int eq = text.indexOf('=', i);
            if (eq < 0) throw bad(n, line, "a label without a value");
            String name = text.substring(i, eq);
            if (!LABEL_NAME.matcher(name).matches()) throw bad(n, line, "label name '" + name + "'");
            if (eq + 1 >= text.length() || text.charAt(eq + 1) != '"') throw bad(n, line, "an unquoted label value");
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < text.length() && text.charAt(j) != '"'; j++) {
                char c = text.charAt(j);
                if (c == '\\') {
                    char e = ++j < text.length() ? text.charAt(j) : ' ';
                    if (e == '\\') value.append('\\');
                    else if (e == '"') value.append('"');
                    else if (e == 'n') value.append('\n');
                    else throw bad(n, line, "escape \\" + e);
                } else {
                    value.append(c);
                }
            }
            if (j >= text.length()) throw bad(n, line, "an unterminated label value");
            if (labels.put(name, value.toString()) != null) throw bad(n, line, "label " + name + " twice");
            i = j + 1;
            if (i < text.length()) {
                if (text.charAt(i) != ',') throw bad(n, line, "labels not separated by commas");
                i++;
            }
        }
        return labels;
    }

    private static double value(String text, int n, String line) {
        switch (text) {
            case "+Inf": return Double.POSITIVE_INFINITY;
            case "-Inf": return Double.NEGATIVE_INFINITY;
            case "NaN": return Double.NaN;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw bad(n, line, "value '" + text + "'");
                }
        }
    }

    /** Buckets of each histogram series cumulative, the last at +Inf and equal to _count. */
    private void checkHistograms() {
        for (Map.Entry<String, String> t : types.entrySet()) {
            if (!t.getValue().equals("histogram")) continue;
            Map<Map<String, String>, TreeMap<Double, Double>> buckets = new HashMap<>();
            for (Sample s : samples) {
                if (!s.name().equals(t.getKey() + "_bucket")) continue;
                Map<String, String> series = new TreeMap<>(s.labels());
                String le = series.remove("le");
                if (le == null) throw new IllegalArgumentException(s + ": a bucket without le");
                buckets.computeIfAbsent(series, k -> new TreeMap<>()).put(value(le, 0, le), s.value());
            }
            for (Map.Entry<Map<String, String>, TreeMap<Double, Double>> b : buckets.entrySet()) {
                double previous = 0;
                for (double count : b.getValue().values()) {
                    if (count < previous) throw new IllegalArgumentException(t.getKey() + b.getKey() + ": buckets not cumulative");
                    previous = count;
                }
                if (b.getValue().lastKey() != Double.POSITIVE_INFINITY) {
                    throw new IllegalArgumentException(t.getKey() + b.getKey() + ": no +Inf bucket");
                }
                double count = value(t.getKey() + "_count", b.getKey());
                if (count != previous) throw new IllegalArgumentException(t.getKey() + b.getKey() + ": +Inf is not _count");
            }
        }
    }

    private static IllegalArgumentException bad(int line, String text, String why) {
        return new IllegalArgumentException("line " + line + ": " + why + ": " + text);
    }

    // ---- reading -------------------------------------------------------------------------------

    public List<Sample> samples() { return samples; }

    /** The TYPE of a family, or null. */
    public String type(String family) { return types.get(family); }

    /** The HELP of a family, or null. */
    public String help(String family) { return help.get(family); }

    /** The samples of that name having all these labels (name, value, name, value, ...). */
    public List<Sample> find(String name, String... labels) {
        List<Sample> found = new ArrayList<>();
        for (Sample s : samples) {
            if (!s.name().equals(name)) continue;
            boolean all = true;
            for (int i = 0; i < labels.length && all; i += 2) all = labels[i + 1].equals(s.labels().get(labels[i]));
            if (all) found.add(s);
        }
        return found;
    }

    /** The value of the one series of that name with exactly these labels; 0 when there is none. */
    public double value(String name, String... labels) {
        Map<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) wanted.put(labels[i], labels[i + 1]);
        return value(name, wanted);
    }

    private double value(String name, Map<String, String> wanted) {
        for (Sample s : samples) {
            if (s.name().equals(name) && new TreeMap<>(s.labels()).equals(new TreeMap<>(wanted))) return s.value();
        }
        return 0;
    }

    /** The sum over the series of that name having these labels. */
    public double sum(String name, String... labels) {
        double sum = 0;
        for (Sample s : find(name, labels)) sum += s.value();
        return sum;
    }
}
