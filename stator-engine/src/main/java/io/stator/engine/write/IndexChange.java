package io.stator.engine.write;

import io.stator.core.key.KeyLayout;
import io.stator.engine.capacity.Usage;
import io.stator.engine.index.IndexEntry;
import io.stator.engine.table.IndexDefinition;

/** One index's entry before and after a write, when the write changes it. */
record IndexChange(IndexDefinition index, IndexEntry before, IndexEntry after) {
    boolean moved() {
        return before != null && !IndexEntry.sameKey(before, after);
    }

    Usage.IndexWrite usage() {
        return new Usage.IndexWrite(index.name(), index.id(), index.global(), index.isVector(),
                moved() ? before.size() : -1,
                after == null ? -1 : after.size(), KeyLayout.hashOf((after != null ? after : before).key()));
    }
}
