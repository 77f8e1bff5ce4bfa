package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Path;
import io.stator.engine.table.KeySchema;
import java.util.Collection;
import java.util.List;

/** DynamoDB's rule that key attributes are scalars: no expression may reach inside one. */
final class KeyPaths {

    private KeyPaths() {}

    static void checkNoNestedKeyPaths(KeySchema schema, Collection<Path> paths) {
        for (Path p : paths) {
            if (!p.isTopLevel() && schema.isKeyAttribute(p.topLevelName())) {
                throw DynamoDbException.validation("Key attributes must be scalars; list random access '[]' and map "
                        + "lookup '.' are not allowed: Key: " + p.topLevelName());
            }
        }
    }

    /** Names the partition key before the sort key when both are updated, as DynamoDB does (dynalite). */
    static void checkNotUpdatingKey(KeySchema schema, Collection<String> updatedTopLevelNames) {
        for (String keyName : schema.hasSortKey() ? List.of(schema.partitionKey(), schema.sortKey())
                : List.of(schema.partitionKey())) {
            if (updatedTopLevelNames.contains(keyName)) {
                throw DynamoDbException.invalidParameter("Cannot update attribute " + keyName
                        + ". This attribute is part of the key");
            }
        }
    }
}
