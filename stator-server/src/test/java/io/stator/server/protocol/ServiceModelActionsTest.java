package io.stator.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.api.Actions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/dynamodb/README.md lists every action of AWS's DynamoDB and DynamoDB Streams models with
 * Stator's state for it: the table names exactly the models' actions, and says "served" exactly
 * for those Stator registers (the others answer UnknownOperationException, with their reason).
 */
class ServiceModelActionsTest {

    private static final Path README = Path.of("../docs/dynamodb/README.md");

    @Test
    void theReadmeListsEveryActionOfTheModelsWithItsState() throws IOException {
        Map<String, String> listed = new TreeMap<>();
        for (String line : Files.readAllLines(README)) {
            String[] cells = line.split("\\|");
            if (cells.length == 4 && cells[2].trim().startsWith("DynamoDB")) listed.put(cells[1].trim(), cells[3].trim());
        }
        Set<String> model = new TreeSet<>(ServiceModel.get().operationNames());
        model.addAll(ServiceModel.streams().operationNames());
        assertEquals(model, listed.keySet(), "the README's table against the models");
        Set<String> served = new TreeSet<>(new Actions(null, () -> "").names());
        for (Map.Entry<String, String> e : listed.entrySet()) {
            boolean saysServed = e.getValue().startsWith("served");
            assertEquals(served.contains(e.getKey()), saysServed, e.getKey() + ": " + e.getValue());
            if (!saysServed) assertTrue(e.getValue().contains("UnknownOperationException"), e.getKey());
        }
    }
}
