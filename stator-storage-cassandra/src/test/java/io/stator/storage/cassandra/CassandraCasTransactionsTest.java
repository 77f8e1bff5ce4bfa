package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.stator.engine.cluster.CasTransactionsContract;
import io.stator.storage.CollectionStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Transactions on compare-and-set on a real three-node Cassandra cluster at replication factor
 * 3: the bank-transfer audit from two instances (two "servers"), transactions stopped at every
 * step, exact concurrent increments. Fewer accounts and transfers than on RocksDB: every step is
 * a Paxos round on a small machine.
 */
@ExtendWith(CassandraClusterExtension.class)
class CassandraCasTransactionsTest extends CasTransactionsContract {

    private static CollectionStore store;

    @BeforeAll
    static void open(CqlSession session) {
        CassandraCollectionStore.createKeyspace(session, "stator_transactions", 3);
        store = new CassandraCollectionStore(session, "stator_transactions");
    }

    @Override
    protected CollectionStore store() {
        return store;
    }

    @Override
    protected int accounts() { return 12; }

    @Override
    protected int transfersPerWriter() { return 8; }
}
