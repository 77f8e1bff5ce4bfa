package io.stator.engine.shared;

import io.stator.engine.table.Catalog;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * What each server sharing its storage does in the background: it reads the catalog again every
 * second (other servers' CreateTable, UpdateTable and DeleteTable reach it within a second; a
 * table it has never seen is read at once, see {@link Catalog#find}), then what follows it (the
 * streams' catalog, {@link io.stator.engine.streams.Streams#refreshShared}), and finishes the
 * transactions that a server left undecided or half applied ({@link
 * io.stator.engine.write.CasTransactions#recover}), so that intents on items nobody reads are
 * settled too.
 */
public final class SharedUpkeep implements AutoCloseable {

    private static final Logger LOG = System.getLogger(SharedUpkeep.class.getName());
    static final long CATALOG_EVERY_MILLIS = 1_000;
    static final long RECOVERY_EVERY_MILLIS = 5_000;

    private final Thread thread;
    private volatile boolean closed;

    private SharedUpkeep(SharedStorage storage, Catalog catalog, Runnable catalogRead) {
        this.thread = Thread.ofPlatform().daemon().name("stator-shared-upkeep")
                .unstarted(() -> run(storage, catalog, catalogRead));
    }

    /** @param catalogRead run after each re-read of the catalog (the streams follow it) */
    public static SharedUpkeep start(SharedStorage storage, Catalog catalog, Runnable catalogRead) {
        SharedUpkeep upkeep = new SharedUpkeep(storage, catalog, catalogRead);
        upkeep.thread.start();
        return upkeep;
    }

    private void run(SharedStorage storage, Catalog catalog, Runnable catalogRead) {
        long nextRecovery = System.currentTimeMillis() + RECOVERY_EVERY_MILLIS;
        while (!closed) {
            try {
                Thread.sleep(CATALOG_EVERY_MILLIS);
                catalog.refresh();
                catalogRead.run();
                if (System.currentTimeMillis() >= nextRecovery) {
                    storage.transactions().recover();
                    nextRecovery = System.currentTimeMillis() + RECOVERY_EVERY_MILLIS;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The backend may be unreachable for a while (a node restarting): try again later.
                if (!closed) LOG.log(Level.WARNING, "shared storage upkeep failed; retrying: " + e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
