package io.stator.server.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.stator.server.http.Connections.Phase;

/**
 * One connection's progress through its requests, told to {@link Connections} whenever it
 * changes phase. Two handlers see it: this one, first in the pipeline, sees every read of raw
 * bytes (before TLS, so a handshake counts as the start of the first request); {@link
 * #requests()}, right after the HTTP decoder, sees where each request's headers and body end,
 * and each reply going out.
 *
 * <p>A read is passed on first and the phase settled after: the decoder handles what arrived
 * within the same call, so a request that arrives in one read goes from waiting to busy in one
 * move. Everything here runs on the connection's event loop.
 *
 * <p>One blind spot, accepted: when one read holds the end of a request and the start of the
 * next (pipelining), the decoder keeps that start to itself, and the connection counts as busy,
 * then idle, until more bytes come; the header timeout then runs from those. So a pipelining
 * client gains at most one idle timeout, and SDKs, which send a request only after the reply to
 * the previous one, are never in that case. (Seeing the decoder's buffer would mean replacing
 * Netty's HttpServerCodec, which is final, and with it its handling of HEAD and of pipelining
 * depth.)
 */
final class Connection extends ChannelInboundHandlerAdapter {

    final Channel channel;
    private final Connections connections;
    private final RequestTracker requests = new RequestTracker();

    // Guarded by the Connections monitor.
    Phase phase = Phase.CLOSED;
    long since;
    boolean counted;
    Connection previous;
    Connection next;

    // The event loop's own.
    /** Bytes of a request have come and its last byte has not (a new connection counts as started). */
    private boolean receiving = true;
    /** Nothing has been received since the connection opened. */
    private boolean fresh = true;
    /** The current request's headers are in. */
    private boolean headersDone;
    /** Requests whose headers have come and whose final reply has not been written. */
    private int repliesOwed;
    /** The phase last told to {@link Connections}. */
    private Phase settled = Phase.FRESH;

    Connection(Channel channel, Connections connections) {
        this.channel = channel;
        this.connections = connections;
    }

    /** The handler to place right after the HTTP decoder. */
    ChannelHandler requests() { return requests; }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        fresh = false;
        receiving = true;
        ctx.fireChannelRead(msg);
        settle();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connections.release(this);
        ctx.fireChannelInactive();
    }

    private void settle() {
        Phase now;
        if (receiving) now = fresh ? Phase.FRESH : headersDone ? Phase.BODY : Phase.HEADERS;
        else now = repliesOwed > 0 ? Phase.BUSY : Phase.IDLE;
        if (now != settled) {
            settled = now;
            connections.move(this, now);
        }
    }

    /** Sees decoded requests come in and replies go out. */
    private final class RequestTracker extends ChannelDuplexHandler {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            // A FullHttpRequest (the decoder's answer to a malformed one) is both.
            if (msg instanceof HttpRequest) {
                receiving = true;
                headersDone = true;
                repliesOwed++;
            }
            if (msg instanceof LastHttpContent) {
                receiving = false;
                headersDone = false;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            // 1xx replies (100 Continue) are not the reply a request is owed.
            if (msg instanceof HttpResponse response && response.status().code() >= 200 && repliesOwed > 0) {
                repliesOwed--;
                settle();
            }
            ctx.write(msg, promise);
        }
    }
}
