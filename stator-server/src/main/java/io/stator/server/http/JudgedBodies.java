package io.stator.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;

/**
 * Before the aggregator, which holds a request's whole body: a request whose reply its headers
 * decide ({@link EarlyReplies}) has its body handed to its judge a chunk at a time, each chunk
 * let go at once, and then goes on as a {@link JudgedRequest} with no body, which the dispatch
 * answers with the judge's reply in the request's turn (replies leave in the order requests came).
 * Every other request passes through untouched, and so does one whose body is small (64 KB at
 * most, by its Content-Length): held, it costs less than asking, so the requests clients send
 * every moment pay nothing here but a look at one header.
 *
 * <p>The limits stay the aggregator's: a Content-Length over the limit is left to it (its 413
 * without reading the body); a chunked body that outgrows the limit is answered 413 here too, and
 * the connection closed, as the aggregator does. A client that expects 100 Continue is told to go
 * on, as the aggregator would tell it. One instance per connection, on its event loop.
 */
final class JudgedBodies extends ChannelInboundHandlerAdapter {

    /** A judged request, its body gone: the dispatch sends {@link #reply} in its turn. */
    static final class JudgedRequest extends DefaultFullHttpRequest {
        final HttpReply reply;

        JudgedRequest(HttpRequest head, HttpReply reply, boolean close) {
            super(head.protocolVersion(), head.method(), head.uri(), Unpooled.EMPTY_BUFFER, head.headers().copy(),
                    EmptyHttpHeaders.INSTANCE);
            if (close) headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            this.reply = reply;
        }
    }

    /** A body this large or smaller is held as any other: judging it would cost more than holding it. */
    static final long SMALL_BODY_BYTES = 64 << 10;

    private final EarlyReplies early;
    private final long maxBodyBytes;
    /** The request whose body is being judged, and its judge; null between such requests. */
    private HttpRequest head;
    private EarlyReplies.BodyJudge judge;
    private long bodyBytes;
    /** After a body past the limit: what the connection still sends is dropped until it closes. */
    private boolean discarding;

    JudgedBodies(EarlyReplies early, long maxBodyBytes) {
        this.early = early;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (judge != null && msg instanceof HttpContent content) {
            try {
                judge(ctx, content);
            } finally {
                content.release();
            }
            return;
        }
        if (msg instanceof HttpRequest request && !(msg instanceof FullHttpRequest)
                && request.decoderResult().isSuccess() && worthJudging(request)) {
            EarlyReplies.BodyJudge found = early.judge(NettyHttpServer.requestData(request, new byte[0]));
            if (found != null) {
                if (HttpUtil.is100ContinueExpected(request)) {
                    ctx.writeAndFlush(new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.CONTINUE));
                }
                head = request;
                judge = found;
                bodyBytes = 0;
                return; // a request head holds no buffer
            }
        }
        ctx.fireChannelRead(msg);
    }

    private void judge(ChannelHandlerContext ctx, HttpContent content) {
        ByteBuf bytes = content.content();
        bodyBytes += bytes.readableBytes();
        if (bodyBytes > maxBodyBytes) {
            // As the aggregator answers a chunked body past the limit: 413, and the connection closed.
            discarding = true;
            ctx.fireChannelRead(new JudgedRequest(head, new HttpReply(413, new byte[0]), true));
            head = null;
            judge = null;
            return;
        }
        if (bytes.isReadable()) {
            for (ByteBuffer chunk : bytes.nioBuffers()) judge.accept(chunk);
        }
        if (content instanceof LastHttpContent) {
            HttpRequest judged = head;
            HttpReply reply = judge.reply(bodyBytes);
            head = null;
            judge = null;
            ctx.fireChannelRead(new JudgedRequest(judged, reply, false));
        }
    }

    /**
     * A body larger than {@link #SMALL_BODY_BYTES} and within the limit (the aggregator refuses a
     * larger Content-Length unread), or a chunked one, whose size is not known.
     */
    private boolean worthJudging(HttpRequest request) {
        long length = HttpUtil.getContentLength(request, -1L);
        return length > SMALL_BODY_BYTES ? length <= maxBodyBytes : HttpUtil.isTransferEncodingChunked(request);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        head = null;
        judge = null;
    }
}
