package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.stator.storage.CollectionStore;
import io.stator.storage.CollectionStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The collection-store contract on a real three-node Cassandra cluster, replication factor 3
 * (commits as lightweight transactions at SERIAL/QUORUM).
 */
@ExtendWith(CassandraClusterExtension.class)
class CassandraCollectionStoreTest extends CollectionStoreContract {

    private static CollectionStore store;

    @BeforeAll
    static void open(CqlSession session) {
        CassandraCollectionStore.createKeyspace(session, "stator_contract", 3);
        store = new CassandraCollectionStore(session, "stator_contract");
    }

    @Override
    protected CollectionStore store() {
        return store;
    }
}
