package io.stator.bench;

import java.util.List;
import java.util.Locale;

/**
 * A grouped bar chart as SVG text, written by hand: no AWT, no fonts to install, and a file
 * that diffs as text. Values span orders of magnitude across servers (a Python server and the
 * machine's ceiling), so the value axis is logarithmic and every bar carries its number.
 */
final class BarChart {

    /** One group of bars (a workload); {@code values[i]} belongs to series i, NaN when not measured. */
    record Group(String label, double[] values) {}

    record Series(String label, String color) {}

    private static final int BAR = 12;
    private static final int GROUP_GAP = 26;
    private static final int LEFT = 70;
    private static final int PLOT_HEIGHT = 240;
    private static final int TOP = 40;
    /** Wide enough for a workload's name under its group, however few the bars. */
    private static final int MIN_GROUP = 84;

    private BarChart() {}

    /** Stacks the panels vertically with one legend on top. */
    static String render(List<Series> series, List<Panel> panels) {
        int groups = panels.stream().mapToInt(p -> p.groups.size()).max().orElse(1);
        // At least wide enough for the legend and the panel titles.
        int width = Math.max(780, LEFT + groups * groupWidth(series) + 20);
        int legendRows = (series.size() + 2) / 3;
        int legendHeight = 18 * legendRows + 10;
        int panelHeight = TOP + PLOT_HEIGHT + 70;
        int height = legendHeight + panels.size() * panelHeight;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                width, height));
        svg.append(String.format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        for (int i = 0; i < series.size(); i++) {
            int x = LEFT + (i % 3) * 230;
            int y = 8 + (i / 3) * 18;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", x, y, series.get(i).color, x + 16, y + 10, escape(series.get(i).label)));
        }
        int y0 = legendHeight;
        for (Panel p : panels) {
            renderPanel(svg, series, p, y0);
            y0 += panelHeight;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** One chart: a title, its unit, and the groups of bars. */
    record Panel(String title, List<Group> groups) {}

    private static void renderPanel(StringBuilder svg, List<Series> series, Panel panel, int y0) {
        double max = 1;
        double min = Double.MAX_VALUE;
        for (Group g : panel.groups) {
            for (double v : g.values) {
                if (v > 0 && !Double.isNaN(v)) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        double lo = Math.floor(Math.log10(min == Double.MAX_VALUE ? 1 : min));
        double hi = Math.ceil(Math.log10(max));
        if (hi <= lo) hi = lo + 1;
        int plotTop = y0 + TOP;
        int plotBottom = plotTop + PLOT_HEIGHT;
        int plotRight = LEFT + panel.groups.size() * groupWidth(series);
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s</text>%n",
                LEFT, y0 + 20, escape(panel.title)));
        for (double e = lo; e <= hi; e++) {
            int y = (int) Math.round(plotBottom - (e - lo) / (hi - lo) * PLOT_HEIGHT);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LEFT, y, plotRight, y, LEFT - 6, y + 4, axisLabel(Math.pow(10, e))));
        }
        int x = LEFT + (groupWidth(series) - series.size() * BAR) / 2;
        for (Group g : panel.groups) {
            for (int i = 0; i < series.size(); i++) {
                double v = i < g.values.length ? g.values[i] : Double.NaN;
                if (v > 0 && !Double.isNaN(v)) {
                    double h = Math.max(1, (Math.log10(v) - lo) / (hi - lo) * PLOT_HEIGHT);
                    int bx = x + i * BAR;
                    svg.append(String.format(Locale.ROOT,
                            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s %s: %s</title></rect>%n",
                            bx, plotBottom - h, BAR - 1, h, series.get(i).color, escape(series.get(i).label),
                            escape(g.label), valueLabel(v)));
                    svg.append(String.format(Locale.ROOT,
                            "<text transform=\"translate(%d,%.1f) rotate(-90)\" font-size=\"8\">%s</text>%n",
                            bx + BAR - 3, plotBottom - h - 3, valueLabel(v)));
                }
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x + series.size() * BAR / 2, plotBottom + 16, escape(g.label)));
            x += groupWidth(series);
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                LEFT, plotBottom, plotRight, plotBottom));
    }

    private static int groupWidth(List<Series> series) {
        return Math.max(MIN_GROUP, series.size() * BAR + GROUP_GAP);
    }

    private static String axisLabel(double v) {
        if (v >= 1e6) return String.format(Locale.ROOT, "%.0fM", v / 1e6);
        if (v >= 1e3) return String.format(Locale.ROOT, "%.0fk", v / 1e3);
        if (v >= 1) return String.format(Locale.ROOT, "%.0f", v);
        return String.format(Locale.ROOT, "%s", v >= 0.1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v));
    }

    static String valueLabel(double v) {
        if (v >= 1e6) return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        if (v >= 1e4) return String.format(Locale.ROOT, "%.0fk", v / 1e3);
        if (v >= 1e3) return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        if (v >= 10) return String.format(Locale.ROOT, "%.0f", v);
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
