package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/** The advisor's read API (docs/advisor.md) as tests read it: GET, 200, JSON. */
public final class AdvisorApi {

    private AdvisorApi() {}

    /** {@code target}'s answer, asserted 200 and JSON. */
    public static JsonNode get(int port, String target) {
        RawHttp.Response r = RawHttp.exchange(port, new RawHttp.Request("GET", target, Map.of(), new byte[0]));
        assertEquals(200, r.status(), r.toString());
        assertEquals("application/json", r.header("content-type"));
        return JsonNode.parser().parse(r.bodyText());
    }

    /** A table's findings, the most severe first. */
    public static List<JsonNode> findings(int port, String table) {
        return field(get(port, "/stator/advisor/findings?table=" + table), "findings").asArray();
    }

    /** A table's findings with this id (F1 to F17). */
    public static List<JsonNode> findings(int port, String table, String id) {
        return findings(port, table).stream().filter(f -> field(f, "id").asString().equals(id)).toList();
    }

    /** The node at {@code path} under {@code node}, or an AssertionError that shows {@code node}. */
    public static JsonNode field(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) n = n.field(p).orElseThrow(() -> new AssertionError("no " + p + " in " + node));
        return n;
    }

    public static double number(JsonNode node, String... path) {
        return Double.parseDouble(field(node, path).asNumber());
    }

    public static String string(JsonNode node, String... path) {
        return field(node, path).asString();
    }
}
