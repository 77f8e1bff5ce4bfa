package io.stator.server.http;

import java.nio.ByteBuffer;

/**
 * Replies that a request's headers decide, so that its body is never held: the body streams
 * past a judge, a chunk at a time, which sees what little of it the reply may still depend on,
 * and the request is then answered in its turn on the connection. The server asks at each
 * request's headers (see {@link JudgedBodies}); what is judged, and how, is the front end's
 * business, not this layer's.
 */
@FunctionalInterface
public interface EarlyReplies {

    /** No request is judged: every body is read whole. */
    EarlyReplies NONE = head -> null;

    /**
     * A judge for the request {@code head} (its body not read: empty here), or null to read the
     * request whole as usual. Called on the connection's event loop: no blocking.
     */
    BodyJudge judge(HttpRequestData head);

    /** Sees a judged request's body go by, then gives its reply. */
    interface BodyJudge {
        /** The next bytes of the body, valid during the call only. */
        void accept(ByteBuffer bytes);

        /** The reply, once the whole body ({@code bodyBytes} long) has gone by. */
        HttpReply reply(long bodyBytes);
    }
}
