package io.stator.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
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
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.CRC32;

/**
 * The JVM's ceiling: an HTTP server that answers every request with the same small JSON body, on
 * the same stack as Stator (Netty, epoll, HttpServerCodec and HttpObjectAggregator), replying on
 * the event loop. The gap between it and Stator is the cost of being a database; between it and
 * nginx ({@link NginxServer}, the same reply), the cost of the JVM's HTTP stack.
 */
final class TrivialServer implements AutoCloseable {

    /** What ListTables answers on an empty server: a valid DynamoDB response to the generator's probes. */
    static final byte[] BODY = "{\"TableNames\":[]}".getBytes(StandardCharsets.US_ASCII);

    /** The body's CRC32, in the x-amz-crc32 header as DynamoDB sends it (the SDKs check it). */
    static final String BODY_CRC32 = crc32(BODY);

    private static String crc32(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return Long.toString(crc.getValue());
    }

    /** A new request id, 32 hex digits like nginx's $request_id: DynamoDB names every answer. */
    private static String requestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextLong());
    }

    private final EventLoopGroup group;
    private final Channel channel;
    private final LongAdder answered;

    private TrivialServer(EventLoopGroup group, Channel channel, LongAdder answered) {
        this.group = group;
        this.channel = channel;
        this.answered = answered;
    }

    static TrivialServer start(String host, int port) throws InterruptedException {
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelClass = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, io);
        ByteBuf body = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(BODY).asReadOnly());
        LongAdder answered = new LongAdder();
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(channelClass)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(new HttpServerCodec())
                                .addLast(new HttpObjectAggregator(16 * 1024 * 1024))
                                .addLast(new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                                        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.OK, body.duplicate());
                                        response.headers()
                                                .set(HttpHeaderNames.CONTENT_TYPE, SigV4Signer.CONTENT_TYPE)
                                                .setInt(HttpHeaderNames.CONTENT_LENGTH, BODY.length)
                                                .set("x-amzn-RequestId", requestId())
                                                .set("x-amz-crc32", BODY_CRC32);
                                        ctx.writeAndFlush(response);
                                        answered.increment();
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                        // A generator resetting its connections at the end of a run: nothing to log.
                                        ctx.close();
                                    }
                                });
                    }
                })
                .bind(new InetSocketAddress(host, port)).sync().channel();
        return new TrivialServer(group, channel, answered);
    }

    int port() { return ((InetSocketAddress) channel.localAddress()).getPort(); }

    /** Requests answered so far. */
    long answered() { return answered.sum(); }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    /** {@code stator-bench trivial-server --port P}: runs until killed. */
    static void serve(String host, int port) throws InterruptedException {
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        TrivialServer server = start(host, port);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        System.out.println("Trivial server listening on http://" + host + ":" + server.port());
        System.out.flush();
        stopped.await();
    }
}
