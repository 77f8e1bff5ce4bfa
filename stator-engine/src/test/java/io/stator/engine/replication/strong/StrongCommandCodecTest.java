package io.stator.engine.replication.strong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StrongCommandCodecTest {

    private static final StrongCommand COMMAND = new StrongCommand("eu-west-3", 1_796_000_000_000L,
            List.of(new byte[] {1, 2, 3}, new byte[0]), new byte[] {9, 8, 7, 6});

    @Test
    void anEntryDecodesToWhatWasEncoded() {
        UUID proposal = UUID.randomUUID();
        StrongCommandCodec.Entry entry = StrongCommandCodec.decode(ByteBuffer.wrap(StrongCommandCodec.encode(proposal, COMMAND)));
        assertEquals(new StrongCommandCodec.Entry(proposal, COMMAND), entry);
    }

    @Test
    void theLayoutIsTheDocumentedOne() {
        byte[] bytes = StrongCommandCodec.encode(new UUID(1, 2),
                new StrongCommand("r", 0x10203, List.of(new byte[] {5}), new byte[] {6}));
        assertEquals("02" + "0000000000000001" + "0000000000000002" + "0001" + "72" + "0000000000010203" + "00000001"
                + "00000001" + "05" + "00000001" + "06", HexFormat.of().formatHex(bytes));
    }

    @Test
    void anEntryOfTheFirstFormatHasNoTime() {
        byte[] first = HexFormat.of().parseHex("01" + "0000000000000001" + "0000000000000002" + "0001" + "72"
                + "00000001" + "00000001" + "05" + "00000001" + "06");
        assertEquals(new StrongCommand("r", 0, List.of(new byte[] {5}), new byte[] {6}),
                StrongCommandCodec.decode(ByteBuffer.wrap(first)).command());
    }

    @Test
    void aCorruptEntryIsRefusedNotMisread() {
        byte[] bytes = StrongCommandCodec.encode(UUID.randomUUID(), COMMAND);
        for (int length = 0; length < bytes.length; length++) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThrows(IllegalArgumentException.class, () -> StrongCommandCodec.decode(ByteBuffer.wrap(truncated)));
        }
        byte[] trailing = Arrays.copyOf(bytes, bytes.length + 1);
        assertThrows(IllegalArgumentException.class, () -> StrongCommandCodec.decode(ByteBuffer.wrap(trailing)));
        byte[] format = bytes.clone();
        format[0] = 3;
        assertThrows(IllegalArgumentException.class, () -> StrongCommandCodec.decode(ByteBuffer.wrap(format)));
        byte[] count = bytes.clone();
        ByteBuffer.wrap(count).putInt(1 + 16 + 2 + "eu-west-3".length() + 8, Integer.MAX_VALUE);
        assertThrows(IllegalArgumentException.class, () -> StrongCommandCodec.decode(ByteBuffer.wrap(count)));
    }

    @Test
    void aCommandIsAValue() {
        byte[] payload = {1};
        StrongCommand command = new StrongCommand("r", List.of(new byte[] {2}), payload);
        payload[0] = 7;
        assertEquals(new StrongCommand("r", List.of(new byte[] {2}), new byte[] {1}), command);
        assertThrows(IllegalArgumentException.class, () -> new StrongCommand("r", List.of(), payload));
        assertThrows(IllegalArgumentException.class, () -> new StrongCommand("", List.of(payload), payload));
    }
}
