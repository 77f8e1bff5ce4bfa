package io.stator.server.transfer;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.transfer.Exports;
import io.stator.engine.transfer.Imports;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/**
 * A server's exports and imports (the engine's, {@code engine/transfer}) and where they go
 * (StatorServer chooses: a real S3-compatible endpoint with --s3-endpoint, else a directory,
 * --s3-dir, by default {@code <data dir>/s3}), read and written in DynamoDB's formats.
 */
public final class Transfers implements AutoCloseable {

    private final ObjectStore store;
    private final Exports exports;
    private final Imports imports;

    public Transfers(Engine engine, ObjectStore store) {
        this.store = store;
        this.exports = engine.exports(new ExportFiles(store));
        this.imports = engine.imports(new ImportObjects(store));
    }

    public ObjectStore store() { return store; }

    public Exports exports() { return exports; }

    public Imports imports() { return imports; }

    /** Waits until the exports and imports queued so far are done (tests, the command line). */
    public void awaitIdle() throws Exception {
        exports.awaitIdle();
        imports.awaitIdle();
    }

    /** The server's transfers; a server without them (an engine embedded by a test) refuses the operation. */
    public static Transfers require(Transfers transfers) {
        if (transfers == null) {
            throw DynamoDbException.validation("This server has no S3 for exports and imports");
        }
        return transfers;
    }

    /**
     * Where a page starts: at the job a NextToken names (an ARN, or its hex form), or at the start;
     * DynamoDB's ValidationException for a token that names none.
     */
    public static int pageStart(List<String> arns, String nextToken) {
        if (nextToken == null) return 0;
        for (int i = 0; i < arns.size(); i++) {
            String arn = arns.get(i);
            if (nextToken.equals(arn) || nextToken.equals(hexToken(arn))) return i;
        }
        throw DynamoDbException.validation("Invalid Request: Provided nextToken is invalid: " + nextToken);
    }

    /** An ARN as hex, padded to whole 16-character groups of at least 112 (ListImports' NextToken pattern). */
    public static String hexToken(String arn) {
        StringBuilder hex = new StringBuilder(HexFormat.of().formatHex(arn.getBytes(StandardCharsets.UTF_8)));
        while (hex.length() % 16 != 0 || hex.length() < 112) hex.append('0');
        return hex.toString();
    }

    /** Where a directory store keeps its buckets, or null on S3. */
    public Path directory() {
        return store instanceof DirectoryObjectStore d ? d.root() : null;
    }

    @Override
    public void close() {
        exports.close();
        imports.close();
        if (store instanceof S3ObjectStore s3) s3.close();
    }
}
