package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.transfer.ItemFormats;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryUnavailableException;

/**
 * A full export in DYNAMODB_JSON as a reader that knows only DynamoDB's export layout sees it, in
 * a directory standing for S3 ({@code --s3-dir}): the summary manifest, the files manifest it
 * names, the data files that one lists. Checks on the way that the export is whole: the summary's
 * and the description's item counts are the data files' lines, and its {@code data/} directory
 * holds only the files the manifest lists (a reader that takes the directory, as ImportTable of
 * that prefix does, sees no other).
 */
public final class ExportedItems {

    private static final Pattern DATA_FILE = Pattern.compile("\"dataFileS3Key\":\"([^\"]+)\"");
    private static final Pattern ITEM_COUNT = Pattern.compile("\"itemCount\":(\\d+)");

    private ExportedItems() {}

    /**
     * Exports the table to {@code bucket/prefix} once point-in-time recovery, just enabled, has
     * its history's base (copied in the background: exports are refused until it is ready).
     */
    public static void exportOnceRecoveryIsReady(DynamoDbClient client, String tableArn, String bucket, String prefix,
                                                 Duration wait) {
        Eventually.until("point-in-time recovery's base is ready", wait, () -> {
            try {
                client.exportTableToPointInTime(b -> b.tableArn(tableArn).s3Bucket(bucket).s3Prefix(prefix));
                return true;
            } catch (PointInTimeRecoveryUnavailableException notYet) {
                return false;
            }
        }, ready -> ready);
    }

    /** The items of a COMPLETED export into {@code bucket} under {@code s3}. */
    public static Set<Map<String, AttributeValue>> of(Path s3, String bucket, ExportDescription export)
            throws IOException {
        Path root = s3.resolve(bucket);
        String summary = Files.readString(root.resolve(export.exportManifest()));
        Matcher summaryCount = ITEM_COUNT.matcher(summary);
        assertTrue(summaryCount.find(), summary);
        Path base = root.resolve(export.exportManifest()).getParent();
        Set<String> listed = new HashSet<>();
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        long lines = 0;
        for (String entry : Files.readAllLines(base.resolve("manifest-files.json"))) {
            Matcher key = DATA_FILE.matcher(entry);
            assertTrue(key.find(), entry);
            listed.add(key.group(1));
            try (BufferedReader in = new BufferedReader(new InputStreamReader(
                    new GZIPInputStream(Files.newInputStream(root.resolve(key.group(1)))), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.isBlank()) continue;
                    lines++;
                    items.add(sdk(ItemFormats.readJsonItem(line)));
                }
            }
        }
        assertEquals(export.itemCount().longValue(), lines, "the description's ItemCount is the data files' lines");
        assertEquals(Long.parseLong(summaryCount.group(1)), lines, "the summary's itemCount is the data files' lines");
        assertEquals(lines, items.size(), "an item exported twice");
        try (Stream<Path> files = Files.list(base.resolve("data"))) {
            Set<String> present = files.map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .collect(Collectors.toSet());
            assertEquals(listed, present, "the export's data directory holds exactly the files its manifest lists");
        }
        return items;
    }

    /** The SDK's form of an item read with Stator's own reader. */
    public static Map<String, AttributeValue> sdk(Map<String, io.stator.core.model.AttributeValue> item) {
        Map<String, AttributeValue> converted = new HashMap<>();
        item.forEach((name, value) -> converted.put(name, sdk(value)));
        return converted;
    }

    private static AttributeValue sdk(io.stator.core.model.AttributeValue value) {
        return switch (value) {
            case io.stator.core.model.AttributeValue.S v -> AttributeValue.fromS(v.value());
            case io.stator.core.model.AttributeValue.N v -> AttributeValue.fromN(v.value().toString());
            case io.stator.core.model.AttributeValue.B v -> AttributeValue.fromB(SdkBytes.fromByteArray(v.value()));
            case io.stator.core.model.AttributeValue.BOOL v -> AttributeValue.fromBool(v.value());
            case io.stator.core.model.AttributeValue.NULL v -> AttributeValue.fromNul(true);
            case io.stator.core.model.AttributeValue.SS v -> AttributeValue.fromSs(v.values());
            case io.stator.core.model.AttributeValue.NS v -> AttributeValue.fromNs(v.values().stream()
                    .map(Object::toString).toList());
            case io.stator.core.model.AttributeValue.BS v -> AttributeValue.fromBs(v.values().stream()
                    .map(SdkBytes::fromByteArray).toList());
            case io.stator.core.model.AttributeValue.L v -> AttributeValue.fromL(v.values().stream()
                    .map(ExportedItems::sdk).toList());
            case io.stator.core.model.AttributeValue.M v -> AttributeValue.fromM(sdk(v.values()));
        };
    }
}
