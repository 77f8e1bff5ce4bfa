package io.stator.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.ThreadFactory;

/**
 * The HTTP/1.1 server, over TLS when given a context: Netty decodes requests (keep-alive, bodies
 * up to DynamoDB's 16 MB limit, larger ones refused with 413 as soon as their Content-Length is
 * seen, without buffering them), hands each to a worker thread, and writes the reply back. Every
 * connection is accounted for by {@link Connections} (timeouts, and the limit on how many are
 * open).
 *
 * <p>A connection's pipeline: {@link Connection} (raw bytes in: where the connection stands),
 * TLS if configured, the HTTP codec, {@link Connection#requests()} (where each request's headers
 * and body end), {@link JudgedBodies} (a request whose reply its headers decide, its body let go
 * as it comes: {@link EarlyReplies}), the aggregator, and the dispatch to a worker.
 *
 * <p>Why worker threads: a request's work is storage work, which may block (a synced write
 * waits for the disk). On a worker a slow write never stalls other connections, and with
 * {@code --fsync} many concurrent writers wait on the same disk flush (RocksDB's group commit)
 * instead of queueing behind each other. Brief requests, which the caller names, skip the
 * hand-off (see {@link DispatchHandler}).
 *
 * <p>Why lengthy requests hold few workers: a read of many items (a Scan page of 1 MB filtered,
 * a BatchGetItem of 16 MB) is work for a core, and forty of them held all 32 workers, so that a
 * synced write queued behind them for seconds, and the event loops got a fortieth of the cores.
 * They take at most {@code lengthyThreads} workers at once ({@link LimitedExecutor}: one per core
 * in StatorServer), waiting in line without a thread; others still find a worker at once.
 */
public final class NettyHttpServer implements AutoCloseable {

    /** DynamoDB refuses request bodies larger than 16 MB. */
    public static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final ExecutorService requestExecutor;
    private final Channel channel;
    private final Connections connections;

    private NettyHttpServer(EventLoopGroup bossGroup, EventLoopGroup workerGroup, ExecutorService requestExecutor,
                            Channel channel, Connections connections) {
        this.bossGroup = bossGroup;
        this.workerGroup = workerGroup;
        this.requestExecutor = requestExecutor;
        this.channel = channel;
        this.connections = connections;
    }

    /**
     * Binds and starts serving, HTTPS when {@code tls} is not null. Throws {@link BindException}
     * when the address cannot be used. Brief requests are served on the event loop that read
     * them, the others on {@code requestThreads} workers, of which lengthy ones hold at most
     * {@code lengthyThreads} at a time (see {@link RequestHandler} and {@link DispatchHandler}).
     */
    public static NettyHttpServer start(String host, int port, int requestThreads, int lengthyThreads,
                                        SslContext tls, ConnectionLimits limits,
                                        RequestHandler handler) throws Exception {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelClass = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        // One event loop per core, not Netty's two: brief requests are served on them, and with
        // fewer loops each wake-up finds more connections ready (server CPU per GetItem 37 -> 29 us).
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                eventLoopThreads(), io);
        ExecutorService executor = newRequestExecutor(requestThreads);
        Executor lengthy = new LimitedExecutor(executor, Math.min(lengthyThreads, requestThreads));
        Connections connections = new Connections(limits);
        long handshakeMillis = limits.headerTimeout().toMillis();
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(channelClass)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            Connection connection = new Connection(ch, connections);
                            if (!connections.admit(connection)) {
                                ch.close();
                                return;
                            }
                            ChannelPipeline pipeline = ch.pipeline().addLast("connection", connection);
                            if (tls != null) {
                                SslHandler ssl = tls.newHandler(ch.alloc());
                                // The header timeout covers the handshake too (it runs from the
                                // opening); SslHandler's own (10 s) must not cut a longer one short.
                                ssl.setHandshakeTimeoutMillis(handshakeMillis);
                                pipeline.addLast("tls", ssl);
                            }
                            pipeline.addLast("codec", new HttpServerCodec(8192, 65536, 8192))
                                    .addLast("requests", connection.requests())
                                    .addLast("judged", new JudgedBodies(handler::judge, MAX_REQUEST_BYTES))
                                    .addLast("aggregator", new HttpObjectAggregator(MAX_REQUEST_BYTES, true))
                                    .addLast("dispatch", new DispatchHandler(handler, executor, lengthy));
                        }
                    });
            Channel channel;
            try {
                channel = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
            } catch (Exception e) {
                // sync() rethrows the bind failure undeclared.
                if (e instanceof IOException failure) throw asBindException(failure);
                throw e;
            }
            connections.startSweeping(boss.next());
            return new NettyHttpServer(boss, workers, executor, channel, connections);
        } catch (Exception e) {
            executor.shutdownNow();
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /**
     * The NIO transport reports a failed bind as {@link BindException}, the epoll transport as a
     * native IOException ("bind(..) failed with error(-98): Address already in use"); callers see
     * one type either way, with the system's reason as its message.
     */
    private static BindException asBindException(IOException e) {
        if (e instanceof BindException b) return b;
        String message = e.getMessage() == null ? "cannot bind" : e.getMessage();
        int reason = message.lastIndexOf("): ");
        BindException bind = new BindException(reason < 0 ? message : message.substring(reason + 3));
        bind.initCause(e);
        return bind;
    }

    /**
     * The stack of a request thread. The expression parser may nest as deep as a 4 KB expression
     * can (2048 levels), which takes up to about 2 MB on a path the JIT has not compiled yet;
     * the JVM's default (1 MB with bin/stator's -Xss1m) would overflow. The memory is reserved,
     * not committed, until a request actually goes that deep.
     */
    static final long REQUEST_STACK_BYTES = 8L << 20;

    /**
     * The event loops' threads, with a request thread's stack: brief requests run on them, and
     * their expressions nest as deep as any other request's.
     */
    private static ThreadFactory eventLoopThreads() {
        AtomicInteger counter = new AtomicInteger();
        return r -> {
            Thread t = new FastThreadLocalThread(null, r, "stator-io-" + counter.incrementAndGet(), REQUEST_STACK_BYTES);
            t.setDaemon(true);
            return t;
        };
    }

    private static ExecutorService newRequestExecutor(int threads) {
        AtomicInteger counter = new AtomicInteger();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(null, r, "stator-request-" + counter.incrementAndGet(), REQUEST_STACK_BYTES);
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /** A request's line and headers as the protocol layer sees them, with {@code body}. */
    static HttpRequestData requestData(io.netty.handler.codec.http.HttpRequest request, byte[] body) {
        String uri = request.uri();
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        String query = q < 0 ? "" : uri.substring(q + 1);
        Map<String, List<String>> headers = new HashMap<>();
        for (Map.Entry<String, String> h : request.headers()) {
            headers.computeIfAbsent(h.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>(1)).add(h.getValue());
        }
        return new HttpRequestData(request.method().name(), path, query, headers, body);
    }

    /**
     * The most direct memory the JVM gives (Netty's buffers live there: a reply is copied into
     * them as it is written out).
     */
    public static long maxDirectMemory() {
        return PlatformDependent.maxDirectMemory();
    }

    /** The port actually bound (useful when started on port 0). */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Stops accepting, lets requests in progress finish (briefly), and frees the threads. */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        connections.stopSweeping();
        requestExecutor.shutdown();
        try {
            requestExecutor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        bossGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * Turns Netty requests into {@link HttpRequestData} and replies into Netty responses. One
     * instance per connection; its requests run one after another, so replies leave in the order
     * requests came (HTTP/1.1 pipelining) and one connection cannot flood the workers.
     *
     * <p>Why two ways to serve: a request that only touches local storage for one item (the
     * {@code brief} ones; DynamoDbEndpoint.briefRequests says which, and why Query is not) is
     * served on the event-loop thread that read it, when no earlier request of the connection is
     * still being served. Handing it to a worker and the reply back costs two thread wake-ups (an eventfd write and an epoll wake-up each way),
     * which took more CPU than serving a GetItem itself. Its reply is written at once and flushed
     * when the read burst ends ({@link #channelReadComplete}), so pipelined requests leave in one
     * socket write. Every other request (a synced write that waits for the disk, a scan, a table
     * operation, any request on shared storage) goes to a worker, so it never stalls the other
     * connections of its event loop; a lengthy one through the {@code lengthy} lane.
     */
    private static final class DispatchHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final RequestHandler handler;
        private final ExecutorService executor;
        private final Executor lengthy;
        private CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);
        private boolean unflushed;

        DispatchHandler(RequestHandler handler, ExecutorService executor, Executor lengthy) {
            super(true);
            this.handler = handler;
            this.executor = executor;
            this.lengthy = lengthy;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (request.decoderResult().isFailure()) {
                refuseUndecodable(ctx, request.decoderResult().cause());
                return;
            }
            if (request.headers().getAll(HttpHeaderNames.HOST).size() > 1) {
                // RFC 9112 section 3.2: a request with more than one Host line MUST get a 400.
                refuse(ctx, HttpResponseStatus.BAD_REQUEST);
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpVersion version = request.protocolVersion();
            if (request instanceof JudgedBodies.JudgedRequest judged) {
                // Its reply is known: written in its turn, after those of the requests before it.
                previous = previous.thenAcceptAsync(done -> send(ctx, toResponse(judged.reply, version), keepAlive,
                        true), ctx.executor());
                return;
            }
            HttpRequestData data = toData(request);
            boolean lengthyWork = false;
            if (previous.isDone() && handler.isBrief(data)) {
                // Served here, on the event loop; the flush waits for the end of the read burst.
                FullHttpResponse reply = serve(data, version, true);
                if (reply != ON_A_WORKER) {
                    unflushed |= !send(ctx, reply, keepAlive, false);
                    return;
                }
                lengthyWork = true;
            }
            // Served on a worker, written on the event loop: the future completes once the reply is
            // in the channel, so a brief request that finds it done writes after it. (Written from
            // the worker, the reply would only be queued for the event loop, and a brief request
            // read meanwhile could overtake it.)
            Executor workers = lengthyWork || handler.isLengthy(data) ? lengthy : executor;
            previous = previous.thenApplyAsync(done -> serve(data, version, false), workers)
                    .thenAcceptAsync(response -> send(ctx, response, keepAlive, true), ctx.executor());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (unflushed) {
                unflushed = false;
                ctx.flush();
            }
            ctx.fireChannelReadComplete();
        }

        /**
         * The reply, or null when there must be none: out of memory (or stack), the server cannot
         * answer for the request, nor for its own state, and the connection is closed unanswered
         * (bin/stator's JVM exits on such an error; an embedded server carries on). A brief
         * request the handler finds too much for the event loop gives {@link #ON_A_WORKER}.
         */
        private FullHttpResponse serve(HttpRequestData data, HttpVersion version, boolean brief) {
            try {
                HttpReply reply = brief ? handler.handleBrief(data) : handler.handle(data);
                if (reply == null) return ON_A_WORKER;
                return toResponse(reply, version);
            } catch (VirtualMachineError e) {
                System.err.println("stator: " + e + " while serving a request; its connection is closed unanswered");
                return null;
            } catch (Throwable t) {
                t.printStackTrace(System.err);
                FullHttpResponse response = new DefaultFullHttpResponse(version, HttpResponseStatus.INTERNAL_SERVER_ERROR);
                response.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
                return response;
            }
        }

        /** What serving a brief request gives when it is to be served on a worker after all (never sent). */
        private static final FullHttpResponse ON_A_WORKER =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE);

        /** A response with what to run once it has been written out (most have nothing, and are plain). */
        private static final class HeldResponse extends DefaultFullHttpResponse {
            final Runnable sent;

            HeldResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content, Runnable sent) {
                super(version, status, content);
                this.sent = sent;
            }
        }

        /**
         * Writes one reply; a keep-alive reply is flushed only when {@code flush} asks, a closing
         * one always (the connection ends with it). Returns whether the reply went out flushed.
         * No reply closes the connection.
         */
        private static boolean send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive,
                                    boolean flush) {
            if (response == null) {
                ctx.close();
                return true;
            }
            // A plain write takes the void promise: no listener, no allocation; a reply whose
            // memory is held until it is sent takes a promise that gives it back.
            ChannelPromise promise = null;
            if (response instanceof HeldResponse held) {
                promise = ctx.newPromise();
                promise.addListener(written -> held.sent.run());
            }
            if (!keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response, promise == null ? ctx.newPromise() : promise)
                        .addListener(ChannelFutureListener.CLOSE);
                return true;
            }
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            if (promise == null) promise = ctx.voidPromise();
            if (flush) ctx.writeAndFlush(response, promise);
            else ctx.write(response, promise);
            return flush;
        }

        /**
         * A request Netty could not read: a request line over 8 KB (414 URI Too Long), headers
         * over 64 KB (431 Request Header Fields Too Large), or malformed HTTP (400), answered with
         * an empty body after the requests before it, and the connection closed, since where the
         * next request starts is unknown. What DynamoDB's front door answers here is not recorded
         * anywhere found (docs/dynamodb/dynamodb-errors.md): these are HTTP's own statuses, never
         * the request served as if it had been read whole.
         */
        private void refuseUndecodable(ChannelHandlerContext ctx, Throwable cause) {
            HttpResponseStatus status = cause instanceof TooLongHttpLineException ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : cause instanceof TooLongHttpHeaderException ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : HttpResponseStatus.BAD_REQUEST;
            refuse(ctx, status);
        }

        /** Answers {@code status} with an empty body after the requests before, and closes the connection. */
        private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status) {
            previous = previous.thenRun(() -> {
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status);
                response.headers().set(HttpHeaderNames.CONTENT_LENGTH, 0);
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            });
        }

        private static HttpRequestData toData(FullHttpRequest request) {
            ByteBuf content = request.content();
            byte[] body = new byte[content.readableBytes()];
            content.getBytes(content.readerIndex(), body);
            return requestData(request, body);
        }

        /** The reply's body is wrapped, never copied: one array, or its chunks as one composite buffer. */
        private static FullHttpResponse toResponse(HttpReply reply, HttpVersion version) {
            byte[] single = reply.singleChunk();
            ByteBuf content;
            if (single != null) {
                content = Unpooled.wrappedBuffer(single, 0, reply.bodyLength());
            } else {
                CompositeByteBuf chunks = Unpooled.compositeBuffer(Integer.MAX_VALUE);
                reply.forEachChunk((chunk, length) -> chunks.addComponent(true, Unpooled.wrappedBuffer(chunk, 0, length)));
                content = chunks;
            }
            HttpResponseStatus status = HttpResponseStatus.valueOf(reply.status());
            FullHttpResponse response = reply.sent() == null ? new DefaultFullHttpResponse(version, status, content)
                    : new HeldResponse(version, status, content, reply.sent());
            for (String[] h : reply.headers()) response.headers().add(h[0], h[1]);
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, reply.bodyLength());
            return response;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
