package io.stator.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReservedKindsTest {

    /** What the registry is for: a kind added twice, or one an index id could take, fails here. */
    @Test
    void everyReservedKindIsNegativeAndTakenOnce() throws IllegalAccessException {
        Set<Integer> taken = new HashSet<>();
        for (Field f : ReservedKinds.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) continue;
            int kind = f.getInt(null);
            assertTrue(kind < 0, f.getName() + " is " + kind + ": index ids take 0 and up");
            assertTrue(taken.add(kind), f.getName() + " takes " + kind + " a second time");
        }
        assertFalse(taken.isEmpty());
    }
}
