package io.stator.server.cli;

import io.stator.engine.Engine;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableSpecs;
import io.stator.engine.transfer.ExportDescription;
import io.stator.engine.transfer.ImportDescription;
import io.stator.engine.transfer.Imports;
import io.stator.server.ServerOptions;
import io.stator.server.StorageBackends;
import io.stator.server.transfer.DirectoryObjectStore;
import io.stator.server.transfer.Transfers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stator export} and {@code stator import}: a table dumped to, or loaded from, files in
 * DynamoDB's export formats, offline, on a data directory no server has open (RocksDB allows one
 * process), with a progress line. The files are laid out as on S3 under a directory (bucket b,
 * prefix p: DIR/b/p/...), so an export here is what ImportTable reads, and DynamoDB's own exports
 * load here.
 */
final class TransferCommands {

    private TransferCommands() {}

    @Command(name = "export", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Dumps a table of a data directory (no server may have it open) in DynamoDB's export "
                    + "layout: DIR/BUCKET/PREFIX/AWSDynamoDB/<id>/manifest-summary.json, data/*.json.gz ...")
    static final class Export implements Callable<Integer> {
        @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The server's data directory.")
        Path dataDir;

        @Option(names = "--table", required = true, description = "The table to export.")
        String table;

        @Option(names = "--to", required = true, paramLabel = "DIR", description = "Where to write (stands in for S3).")
        Path to;

        @Option(names = "--bucket", description = "The bucket under --to (default: ${DEFAULT-VALUE}).")
        String bucket = "export";

        @Option(names = "--prefix", description = "The key prefix in the bucket (default: none).")
        String prefix;

        @Option(names = "--format", description = "DYNAMODB_JSON or ION (default: ${DEFAULT-VALUE}).")
        String format = "DYNAMODB_JSON";

        @Override
        public Integer call() throws Exception {
            if (!format.equals("DYNAMODB_JSON") && !format.equals("ION")) {
                System.err.println("stator export: --format must be DYNAMODB_JSON or ION");
                return 2;
            }
            try (Engine engine = open(dataDir);
                 Transfers transfers = new Transfers(engine, new DirectoryObjectStore(to))) {
                long start = System.nanoTime();
                ExportDescription done;
                try (Progress progress = new Progress("exporting " + table, () -> {
                    ExportDescription e = transfers.exports().running();
                    return e == null ? null : e.itemCount();
                })) {
                    done = transfers.exports().exportNow(table, bucket, prefix, ExportDescription.Format.valueOf(format));
                    System.out.println(to.resolve(bucket).resolve(done.exportManifest()));
                }
                report("exported", done.itemCount(), start);
            }
            return 0;
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Loads files in DynamoDB's export formats (or CSV) into a new table of a data directory "
                    + "(no server may have it open), as ImportTable does: every object under DIR/BUCKET/PREFIX.")
    static final class Import implements Callable<Integer> {
        @Option(names = "--data-dir", required = true, paramLabel = "DIR", description = "The server's data directory.")
        Path dataDir;

        @Option(names = "--from", required = true, paramLabel = "DIR", description = "Where the files are (stands in for S3).")
        Path from;

        @Option(names = "--bucket", required = true, description = "The bucket under --from.")
        String bucket;

        @Option(names = "--prefix", description = "The key prefix of the files, e.g. AWSDynamoDB/<id>/data/ (default: all).")
        String prefix = "";

        @Option(names = "--format", description = "DYNAMODB_JSON, ION or CSV (default: ${DEFAULT-VALUE}).")
        String format = "DYNAMODB_JSON";

        @Option(names = "--compression", description = "GZIP, ZSTD or NONE (default: ${DEFAULT-VALUE}, as exports are).")
        String compression = "GZIP";

        @Option(names = "--table", required = true, description = "The table to create.")
        String table;

        @Option(names = "--key", required = true, paramLabel = "NAME:TYPE[,NAME:TYPE]",
                description = "The partition key and the optional sort key, each S, N or B: pk:S,sk:N")
        String key;

        @Override
        public Integer call() throws Exception {
            List<TableDefinition.AttributeDefinition> attributes = new ArrayList<>();
            List<TableSpecs.KeyElement> keySchema = new ArrayList<>();
            String[] parts = key.split(",");
            for (int i = 0; i < parts.length; i++) {
                String[] nameType = parts[i].split(":");
                if (parts.length > 2 || nameType.length != 2 || !nameType[1].matches("[SNB]")) {
                    System.err.println("stator import: --key must be NAME:TYPE or NAME:TYPE,NAME:TYPE with types S, N, B");
                    return 2;
                }
                attributes.add(new TableDefinition.AttributeDefinition(nameType[0],
                        io.stator.core.model.AttributeValue.Type.valueOf(nameType[1])));
                keySchema.add(new TableSpecs.KeyElement(nameType[0], i == 0 ? "HASH" : "RANGE"));
            }
            CreateTableSpec spec = new CreateTableSpec(table, attributes, keySchema, "PAY_PER_REQUEST", null, null, null,
                    null, null, null, null, null, null, null, null, null);
            try (Engine engine = open(dataDir);
                 Transfers transfers = new Transfers(engine, new DirectoryObjectStore(from))) {
                long start = System.nanoTime();
                ImportDescription started = transfers.imports().start(new Imports.Request(null, bucket, null, prefix,
                        ImportDescription.InputFormat.valueOf(format), null, null,
                        ImportDescription.Compression.valueOf(compression), spec));
                try (Progress progress = new Progress("importing into " + table, () -> {
                    ImportDescription i = transfers.imports().running();
                    return i == null ? null : i.processedItemCount();
                })) {
                    transfers.awaitIdle();
                    ImportDescription done = transfers.imports().describe(started.importArn());
                    progress.finish();
                    report("imported", done.importedItemCount(), start);
                    System.out.println(done.status() + ": " + done.importedItemCount()
                            + " items imported, " + done.errorCount() + " errors (see the lines above)");
                    return done.status() == ImportDescription.Status.COMPLETED ? 0 : 1;
                }
            }
        }
    }

    private static Engine open(Path dataDir) throws Exception {
        if (!Files.isDirectory(dataDir)) throw new IllegalArgumentException("no data directory " + dataDir);
        ServerOptions options = ServerOptions.defaults(dataDir.toAbsolutePath());
        return new Engine(StorageBackends.open(options), options.engineConfig());
    }

    private static void report(String what, Long itemCount, long startNanos) {
        if (itemCount == null) return;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long items = itemCount;
        System.err.printf("stator: %s %,d items in %.1f s (%,.0f items/s)%n", what, items, seconds, items / seconds);
    }

    /** A progress line on stderr, rewritten every half second: items so far and their rate. */
    private static final class Progress implements AutoCloseable {
        private final Thread thread;
        private volatile boolean done;

        Progress(String what, Supplier<Long> itemsSoFar) {
            long start = System.nanoTime();
            thread = Thread.ofPlatform().daemon().start(() -> {
                while (!done) {
                    Long items = itemsSoFar.get();
                    if (items != null) {
                        double seconds = Math.max(0.001, (System.nanoTime() - start) / 1e9);
                        System.err.printf("\r%s: %,d items (%,.0f/s)   ", what, items, items / seconds);
                    }
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        void finish() {
            done = true;
        }

        @Override
        public void close() throws InterruptedException {
            done = true;
            thread.interrupt();
            thread.join();
            System.err.println();
        }
    }
}
