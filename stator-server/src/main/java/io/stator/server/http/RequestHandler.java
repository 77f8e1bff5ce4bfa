package io.stator.server.http;

/**
 * What {@link NettyHttpServer} serves, and how it should serve each request: on a worker thread
 * ({@link #handle}, the default); on the event-loop thread that read it, when it is brief
 * ({@link #isBrief}, {@link #handleBrief}); or on a worker among the few that lengthy requests
 * may hold at once ({@link #isLengthy}), so that however many Scans run, other requests still
 * find a worker and a core.
 */
@FunctionalInterface
public interface RequestHandler {

    /** Serves a request on a worker thread, where it may wait (for the disk, for memory). */
    HttpReply handle(HttpRequestData request);

    /** Whether the request is served on its event loop: a little work, and no waiting. */
    default boolean isBrief(HttpRequestData request) {
        return false;
    }

    /**
     * Serves a brief request on its event loop: it must not wait for anything. Returns null, having
     * done nothing, when the request turns out to be too much work for the event loop (a long
     * condition, say): it is then served as a lengthy request.
     */
    default HttpReply handleBrief(HttpRequestData request) {
        return handle(request);
    }

    /** Whether the request's work may be long (it reads many items), so that few such run at once. */
    default boolean isLengthy(HttpRequestData request) {
        return false;
    }

    /**
     * A judge for a request whose reply its headers already decide, so that its body is never
     * held ({@link EarlyReplies}), or null to read it whole. Called on the event loop, at the
     * request's headers.
     */
    default EarlyReplies.BodyJudge judge(HttpRequestData head) {
        return null;
    }
}
