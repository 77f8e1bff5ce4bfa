package io.stator.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A section of the report written by its own subcommand ({@code soak}, {@code streams},
 * {@code vectors}, {@code replication}) rather than by {@code compare}: it lies between two HTML comments, so that its
 * next run replaces it in place and a {@code compare} run keeps it.
 */
record ReportSection(String name) {

    static final ReportSection SOAK = new ReportSection("soak");
    static final ReportSection STREAMS = new ReportSection("streams");
    static final ReportSection VECTORS = new ReportSection("vectors");
    static final ReportSection REPLICATION = new ReportSection("replication");

    /** Every section compare keeps, in the order they go after its own text. */
    static final ReportSection[] KEPT = {STREAMS, SOAK, VECTORS, REPLICATION};

    String begin() { return "<!-- " + name + ": written by stator-bench " + name + " -->"; }

    String end() { return "<!-- end of " + name + " -->"; }

    /** The section (markers included, a line break after) in {@code text}, or null. */
    String find(String text) {
        int begin = text.indexOf(begin());
        int end = text.indexOf(end());
        return begin >= 0 && end > begin ? text.substring(begin, end + end().length()) + "\n" : null;
    }

    /** Wraps a section's body in its markers. */
    String wrap(String body) {
        return begin() + "\n" + body + end() + "\n";
    }

    /** Writes the section into the report: in place of the last run's, else at its end. */
    void write(Path report, String section) throws IOException {
        String text = Files.exists(report) ? Files.readString(report) : "";
        int begin = text.indexOf(begin());
        int end = text.indexOf(end());
        if (begin >= 0 && end > begin) {
            text = text.substring(0, begin) + section + text.substring(end + end().length()).replaceFirst("^\n", "");
        } else {
            text = text + (text.isEmpty() || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n") + section;
        }
        if (report.getParent() != null) Files.createDirectories(report.getParent());
        Files.writeString(report, text);
    }
}
