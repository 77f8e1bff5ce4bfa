package io.stator.server.protocol;

import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.server.protocol.Shape.StructureShape;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.Unvalidated;
import io.stator.server.protocol.request.WireEnum;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A digest (SHA-256) of a whole request but some of its members, to tell whether two requests
 * are the same (TransactWriteItems' ClientRequestToken: a retry with another request is
 * refused). Members are taken by name in the model's order, maps in request order: a retry sends
 * the same request again, in the same order.
 */
public final class RequestDigest {

    private RequestDigest() {}

    public static byte[] of(ModelStructure request, String... excludedMembers) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        digest(sha, request, Set.of(excludedMembers));
        return sha.digest();
    }

    private static void digest(MessageDigest sha, ModelStructure structure, Set<String> excluded) {
        StructureShape shape = ServiceModel.get().structure(structure.getClass().getSimpleName());
        List<String> members = shape.declaredMembers();
        sha.update((byte) '{');
        for (int i = 0; i < members.size(); i++) {
            Object value = structure.member(i);
            if (value == null || excluded.contains(members.get(i))) continue;
            digest(sha, members.get(i));
            digest(sha, value);
        }
        sha.update((byte) '}');
    }

    private static void digest(MessageDigest sha, Object value) {
        switch (value) {
            case ModelStructure s -> digest(sha, s, Set.of());
            case Unvalidated<?> u -> digest(sha, u.raw());
            case Map<?, ?> m -> {
                sha.update((byte) '{');
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    digest(sha, e.getKey());
                    digest(sha, e.getValue());
                }
                sha.update((byte) '}');
            }
            case List<?> l -> {
                sha.update((byte) '[');
                for (Object o : l) digest(sha, o);
                sha.update((byte) ']');
            }
            case AttributeValue v -> {
                byte[] encoded = ItemCodec.encode(Map.of("", v));
                sha.update((byte) 'a');
                sha.update(ByteBuffer.allocate(4).putInt(encoded.length).array());
                sha.update(encoded);
            }
            case byte[] b -> {
                sha.update((byte) 'b');
                sha.update(ByteBuffer.allocate(4).putInt(b.length).array());
                sha.update(b);
            }
            default -> {
                String spelled = value instanceof WireEnum e ? e.wireName() : String.valueOf(value);
                byte[] text = spelled.getBytes(StandardCharsets.UTF_8);
                sha.update((byte) 's');
                sha.update(ByteBuffer.allocate(4).putInt(text.length).array());
                sha.update(text);
            }
        }
    }
}
