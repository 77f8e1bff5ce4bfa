package io.stator.engine.index.vector;

import java.io.IOException;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * The codec of a {@link VectorGraph}'s index: Lucene's default, with HNSW graphs of the chosen
 * shape (float vectors, not quantized, so that the vectors read back are the ones put) that take
 * vectors up to DynamoDB's 4,096 dimensions. Lucene's formats refuse more than 1,024 by default;
 * the limit is a default of the format's, not one of the graph's, and {@code getMaxDimensions}
 * is where it is raised.
 *
 * <p>The index is only ever read through the writer that wrote it (near-real-time readers, never
 * opened from a commit), so the segments are read with these very formats, never looked up by
 * name; the names are still the delegates' own.
 */
final class GraphCodec extends FilterCodec {

    private final KnnVectorsFormat vectors;

    GraphCodec(int maxConnections, int beamWidth, int maxDimensions) {
        super(Codec.getDefault().getName(), Codec.getDefault());
        this.vectors = new WideVectors(
                new Lucene99HnswVectorsFormat(maxConnections, beamWidth), maxDimensions);
    }

    @Override
    public KnnVectorsFormat knnVectorsFormat() {
        return vectors;
    }

    /** A vectors format as another, but with a higher limit on dimensions. */
    private static final class WideVectors extends KnnVectorsFormat {

        private final KnnVectorsFormat delegate;
        private final int maxDimensions;

        WideVectors(KnnVectorsFormat delegate, int maxDimensions) {
            super(delegate.getName());
            this.delegate = delegate;
            this.maxDimensions = maxDimensions;
        }

        @Override
        public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
            return delegate.fieldsWriter(state);
        }

        @Override
        public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
            return delegate.fieldsReader(state);
        }

        @Override
        public int getMaxDimensions(String fieldName) {
            return maxDimensions;
        }

        @Override
        public String toString() {
            return delegate + " up to " + maxDimensions + " dimensions";
        }
    }
}
