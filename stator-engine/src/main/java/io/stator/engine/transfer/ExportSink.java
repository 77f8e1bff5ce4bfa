package io.stator.engine.transfer;

import io.stator.core.model.AttributeValue;
import io.stator.engine.backup.PointInTimeRecovery;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;

/**
 * Where an export's items go: the front end's object store (S3, or a directory standing in for it)
 * in DynamoDB's export layout and formats. The engine keeps the export's lifecycle and counts; the
 * sink only writes.
 */
public interface ExportSink {

    /**
     * Starts writing an export: its bucket prepared and checked ({@link NoSuchBucket} when it
     * does not exist), its start marked.
     */
    Files open(ExportDescription export) throws IOException;

    /** One export's files being written. */
    interface Files {
        void item(Map<String, AttributeValue> item) throws IOException;

        /** An incremental export's change, with its old image when {@code oldImages}. */
        void change(PointInTimeRecovery.ItemChange change, boolean oldImages) throws IOException;

        /** Ends the export's files (its manifests, with its counts) at {@code end}; the summary manifest's key. */
        String finish(ExportDescription export, Instant end) throws IOException;
    }

    /** S3's answer when the bucket is missing, as a failed export reports it (FailureCode S3NoSuchBucket). */
    final class NoSuchBucket extends IOException {
        public NoSuchBucket() {
            super("The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket)");
        }
    }
}
