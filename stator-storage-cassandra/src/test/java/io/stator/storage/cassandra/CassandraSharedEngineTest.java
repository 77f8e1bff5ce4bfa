package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.stator.engine.cluster.SharedEngineContract;
import io.stator.storage.CollectionStore;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two engines on one keyspace of a real three-node Cassandra cluster at replication factor 3, as
 * two Stator servers: the shared catalog, exact increments, Query and Scan pages, the bank
 * audit. Smaller workloads than on RocksDB: every write is a Paxos round on a small machine.
 */
@ExtendWith(CassandraClusterExtension.class)
class CassandraSharedEngineTest extends SharedEngineContract {

    private static CqlSession session;
    private static final AtomicInteger KEYSPACES = new AtomicInteger();

    @BeforeAll
    static void open(CqlSession shared) {
        session = shared;
    }

    @Override
    protected CollectionStore openStore() {
        String keyspace = "stator_shared_" + KEYSPACES.incrementAndGet();
        CassandraCollectionStore.createKeyspace(session, keyspace, 3);
        return new CassandraCollectionStore(session, keyspace);
    }

    @Override
    protected int raceRounds() { return 3; }

    @Override
    protected int incrementsPerWriter() { return 15; }

    @Override
    protected int transfersPerWriter() { return 8; }

    @Override
    protected int indexMovesPerWriter() { return 15; }

    @Override
    protected int streamWritesPerWriter() { return 12; }

    @Override
    protected int backfilledItems() { return 30; }
}
