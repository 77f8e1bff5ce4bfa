package io.stator.engine.transfer;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.TableDefinition;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Where an import's items come from: the front end's object store (S3, or a directory standing in
 * for it) and file formats (DYNAMODB_JSON, ION, CSV, compressed or not). The engine keeps the
 * import's lifecycle, counters and errors; the source only reads.
 */
public interface ImportSource {

    /** The keys of the objects under the prefix, in key order; an IOException when the bucket does not exist. */
    List<String> objects(String bucket, String prefix) throws IOException;

    /**
     * Reads one object of the import (its format and compression as the import says; a CSV's key
     * attributes typed as the table defines them) and hands the reader its uncompressed size, then
     * each item, or the error its line is, in order, until the reader returns false.
     *
     * @throws Unreadable when the object cannot be read, decompressed or parsed at all
     */
    void read(ImportDescription importing, TableDefinition table, String key, Items items) throws Unreadable;

    /** Takes an object's size and items. */
    interface Items {
        void size(long uncompressedBytes);

        /** One line's item, or the error it is (the other null); false to skip the rest of the object. */
        boolean item(Map<String, AttributeValue> item, RuntimeException error);
    }

    /** An object that cannot be read: counted as one item processed, in error, with this message. */
    final class Unreadable extends IOException {
        public Unreadable(String message) {
            super(message);
        }
    }
}
