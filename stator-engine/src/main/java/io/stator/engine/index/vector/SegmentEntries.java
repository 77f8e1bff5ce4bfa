package io.stator.engine.index.vector;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.util.BytesRef;

/**
 * The entries of one segment of a {@link VectorGraph}'s index, read back by document: the
 * vector as it was put (the graph's format keeps float vectors as given) and the key. Documents
 * are read in increasing order, as Lucene's iterators go; one instance serves one search.
 */
final class SegmentEntries {

    private final FloatVectorValues vectors;
    private final KnnVectorValues.DocIndexIterator positions;
    private final BinaryDocValues keys;

    private SegmentEntries(FloatVectorValues vectors, BinaryDocValues keys) {
        this.vectors = vectors;
        this.positions = vectors.iterator();
        this.keys = keys;
    }

    /** The segment's entries, or null when it has none (every entry has a vector). */
    static SegmentEntries of(LeafReader reader, String vectorField, String keyField)
            throws IOException {
        FloatVectorValues vectors = reader.getFloatVectorValues(vectorField);
        return vectors == null ? null
                : new SegmentEntries(vectors, DocValues.getBinary(reader, keyField));
    }

    /** The vector of {@code doc}, valid until the next call; no earlier doc than the last. */
    float[] vector(int doc) throws IOException {
        if (positions.docID() < doc) {
            positions.advance(doc);
        }
        if (positions.docID() != doc) {
            throw new IllegalStateException("no vector for document " + doc);
        }
        return vectors.vectorValue(positions.index());
    }

    /** The key of {@code doc}, a copy; no earlier doc than the last. */
    byte[] key(int doc) throws IOException {
        if (!keys.advanceExact(doc)) {
            throw new IllegalStateException("no key for document " + doc);
        }
        BytesRef key = keys.binaryValue();
        return Arrays.copyOfRange(key.bytes, key.offset, key.offset + key.length);
    }
}
