package io.stator.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import org.HdrHistogram.Histogram;

/**
 * The {@code scan} workload: reads the whole table with Scan, page after page (DynamoDB's pages
 * end at 1 MB), on one connection as a single client would, and reports items per second. The
 * latency histogram is per page. Each page's request carries the previous page's
 * LastEvaluatedKey, so it is signed as it goes. A slow server's scan stops at a time budget;
 * its rate is then that of the part it scanned.
 */
final class FullScan {

    private static final JsonFactory JSON = new JsonFactory();

    private FullScan() {}

    /** Scans the whole table, or as much as {@code budgetSeconds} allows (then fewer items than the table's count). */
    static RunResult run(DynamoRequests requests, BenchTable table, CpuClock server, double budgetSeconds)
            throws IOException {
        Histogram pages = RunResult.newHistogram();
        RunResult.CpuSample cpu0 = RunResult.CpuSample.take(server);
        long items = 0;
        long t0 = System.nanoTime();
        try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
            String startKey = null;
            do {
                long sent = System.nanoTime();
                int status = connection.exchange(requests.build("Scan", table.scanPage(startKey)));
                if (status != 200) {
                    throw new IOException("Scan answered " + status + ": " + connection.bodyText());
                }
                pages.recordValue(Math.max(1, System.nanoTime() - sent));
                Page page = parse(connection);
                items += page.count;
                startKey = page.lastEvaluatedKey;
            } while (startKey != null && System.nanoTime() - t0 < budgetSeconds * 1e9);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        double[] cores = RunResult.CpuSample.take(server).coresSince(cpu0, seconds);
        return new RunResult(items, 0, seconds, pages, pages, cores[0], cores[1], cores[2], null, RunResult.JAVA);
    }

    private record Page(long count, String lastEvaluatedKey) {}

    /** Reads Count and LastEvaluatedKey (copied as JSON text) and skips the items themselves. */
    private static Page parse(HttpConnection connection) throws IOException {
        long count = 0;
        String lastKey = null;
        try (JsonParser p = JSON.createParser(connection.bodyBuffer(), connection.bodyOffset(), connection.bodyLength())) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IOException("Scan answered " + connection.bodyText());
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "Count" -> count = p.getLongValue();
                    case "LastEvaluatedKey" -> {
                        StringWriter text = new StringWriter();
                        try (JsonGenerator g = JSON.createGenerator(text)) {
                            g.copyCurrentStructure(p);
                        }
                        lastKey = text.toString();
                    }
                    default -> p.skipChildren();
                }
            }
        }
        return new Page(count, lastKey);
    }
}
