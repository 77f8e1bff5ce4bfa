package io.stator.engine.item;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.engine.table.KeySchema;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/** DynamoDB's rule that key attributes are scalars: no expression may reach inside one. */
public final class KeyPaths {

    private KeyPaths() {}

    public static void checkNoNestedKeyPaths(KeySchema schema, Collection<Path> paths) {
        checkNoNestedKeyPaths(paths, name -> schema.isKeyAttribute(name) ? "Key" : null);
    }

    /**
     * @param keyKind how DynamoDB names an attribute's kind of key in the error ("Key" for the
     *                table's, "IndexKey" for an index's), or null when it is not a key
     */
    public static void checkNoNestedKeyPaths(Collection<Path> paths, Function<String, String> keyKind) {
        for (Path p : paths) {
            String kind = p.isTopLevel() ? null : keyKind.apply(p.topLevelName());
            if (kind != null) {
                throw DynamoDbException.validation("Key attributes must be scalars; list random access '[]' and map "
                        + "lookup '.' are not allowed: " + kind + ": " + p.topLevelName());
            }
        }
    }

    /** Names the partition key before the sort key when both are updated, as DynamoDB does (dynalite). */
    public static void checkNotUpdatingKey(KeySchema schema, Collection<String> updatedTopLevelNames) {
        for (String keyName : schema.hasSortKey() ? List.of(schema.partitionKey(), schema.sortKey())
                : List.of(schema.partitionKey())) {
            if (updatedTopLevelNames.contains(keyName)) {
                throw DynamoDbException.invalidParameter("Cannot update attribute " + keyName
                        + ". This attribute is part of the key");
            }
        }
    }
}
