package io.stator.engine.index.vector;

import io.stator.engine.index.vector.VectorGraph.Hit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.CollectionTerminatedException;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;

/**
 * An exact search over a {@link VectorGraph}'s index: every live entry the query matches is
 * scored by {@link VectorScores} and the best {@code k} kept. For the queries the graph cannot
 * rank (a zero query vector under COSINE or DOT_PRODUCT, where every entry ties; a EUCLIDEAN
 * query beyond the graph's f32 range); linear in the entries.
 */
final class ExactTopK implements CollectorManager<ExactTopK.Best, List<Hit>> {

    private final Distance distance;
    private final float[] query;
    private final int k;
    private final String vectorField;
    private final String keyField;

    ExactTopK(Distance distance, float[] query, int k, String vectorField, String keyField) {
        this.distance = distance;
        this.query = query;
        this.k = k;
        this.vectorField = vectorField;
        this.keyField = keyField;
    }

    @Override
    public Best newCollector() {
        return new Best();
    }

    @Override
    public List<Hit> reduce(Collection<Best> collectors) {
        List<Hit> hits = new ArrayList<>();
        for (Best best : collectors) {
            hits.addAll(best.worstFirst);
        }
        return hits;
    }

    /** The best {@code k} entries of one slice of segments, the worst of them at the head. */
    final class Best implements Collector {

        private final Comparator<Hit> worseFirst = VectorScores.ranking(distance).reversed();
        private final PriorityQueue<Hit> worstFirst = new PriorityQueue<>(worseFirst);

        @Override
        public LeafCollector getLeafCollector(LeafReaderContext context) throws IOException {
            SegmentEntries entries = SegmentEntries.of(context.reader(), vectorField, keyField);
            if (entries == null) {
                throw new CollectionTerminatedException();
            }
            return new LeafCollector() {
                @Override
                public void setScorer(Scorable scorer) {
                }

                @Override
                public void collect(int doc) throws IOException {
                    double score = VectorScores.score(distance, query, entries.vector(doc));
                    Hit worst = worstFirst.peek();
                    if (worstFirst.size() == k
                            && VectorScores.compare(distance, score, worst.score()) > 0) {
                        return;
                    }
                    Hit hit = new Hit(entries.key(doc), score);
                    if (worstFirst.size() < k) {
                        worstFirst.add(hit);
                    } else if (worseFirst.compare(hit, worst) > 0) {
                        worstFirst.poll();
                        worstFirst.add(hit);
                    }
                }
            };
        }

        @Override
        public ScoreMode scoreMode() {
            return ScoreMode.COMPLETE_NO_SCORES;
        }
    }
}
