package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.api.Actions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The request records are the service model's shapes: the committed sources are exactly what
 * {@link RequestRecordsGenerator} makes of the bundled model for the operations Stator serves.
 * Run with {@code -Dstator.regenerate=true} to rewrite them after the model or the served
 * operations changed; add {@code -Dstator.addOperations=Name,...} to generate the records of an
 * operation before its action is registered (the registration names its input record).
 */
class RequestRecordsTest {

    private static final Path SOURCES = Path.of("src/main/java/io/stator/server/protocol/request");

    @Test
    void committedRecordsAreWhatTheServiceModelGives() throws IOException {
        Set<String> operations = new TreeSet<>(new Actions(null, () -> "").names());
        for (String added : System.getProperty("stator.addOperations", "").split(",")) {
            if (!added.isBlank()) operations.add(added.trim());
        }
        Map<String, String> generated = RequestRecordsGenerator.generate(operations);
        if (Boolean.getBoolean("stator.regenerate")) write(generated);
        Set<String> committed = generatedFiles();
        assertEquals(new TreeSet<>(generated.keySet()), committed,
                "generated request records missing or stale: regenerate them (see RequestRecordsGenerator)");
        for (Map.Entry<String, String> e : generated.entrySet()) {
            assertEquals(e.getValue(), Files.readString(SOURCES.resolve(e.getKey())),
                    e.getKey() + " differs from the service model: regenerate it (see RequestRecordsGenerator)");
        }
    }

    @Test
    void accessorsAreNamedAsTheAwsSdkNamesThem() {
        assertEquals("tableName", RequestRecordsGenerator.accessor("TableName"));
        assertEquals("sseSpecification", RequestRecordsGenerator.accessor("SSESpecification"));
        assertEquals("kmsMasterKeyId", RequestRecordsGenerator.accessor("KMSMasterKeyId"));
        assertEquals("sseType", RequestRecordsGenerator.accessor("SSEType"));
        assertEquals("nullValue", RequestRecordsGenerator.accessor("NULL"));
    }

    @Test
    void everyServedOperationHasItsRequestRecord() {
        ServiceModel model = ServiceModel.get();
        for (String operation : new Actions(null, () -> "").names()) {
            ServiceModel.Operation op = model.operation(operation) != null ? model.operation(operation)
                    : ServiceModel.streams().operation(operation);
            Object read = RequestReader.parse("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8), op.input()).request();
            assertEquals(op.input().name(), read.getClass().getSimpleName(), operation);
        }
    }

    private static void write(Map<String, String> generated) throws IOException {
        for (String stale : generatedFiles()) {
            if (!generated.containsKey(stale)) Files.delete(SOURCES.resolve(stale));
        }
        for (Map.Entry<String, String> e : generated.entrySet()) Files.writeString(SOURCES.resolve(e.getKey()), e.getValue());
    }

    /** The committed files that the generator wrote (they start with its header). */
    private static Set<String> generatedFiles() throws IOException {
        Set<String> files = new TreeSet<>();
        try (Stream<Path> list = Files.list(SOURCES)) {
            for (Path p : (Iterable<Path>) list::iterator) {
                if (Files.readString(p).startsWith(RequestRecordsGenerator.HEADER.substring(0, 40))) {
                    files.add(p.getFileName().toString());
                }
            }
        }
        assertTrue(Files.isDirectory(SOURCES), SOURCES.toAbsolutePath().toString());
        return files;
    }
}
