package io.stator.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine's ceiling: nginx (Debian's nginx-light) answering every request with the trivial
 * server's reply ({@link TrivialServer#BODY} and its headers), from a configuration written into
 * the server's work directory and run in the foreground, so that the benchmark starts and stops
 * it like any other server. A C server built for this: what a DynamoDB server reaches against
 * the generator is bounded by what nginx reaches, and the JVM's trivial server sits between.
 */
final class NginxServer {

    /**
     * Connections per worker: more than the 1,000-connection measurement needs (nginx counts
     * its listening sockets too), with files to match.
     */
    static final int WORKER_CONNECTIONS = 4096;

    private NginxServer() {}

    /** nginx, or null when it is not installed (Debian puts it in /usr/sbin, outside a user's PATH). */
    static Path binary() {
        Path sbin = Path.of("/usr/sbin/nginx");
        return Files.isExecutable(sbin) ? sbin : ServerKind.which("nginx");
    }

    /** Writes the configuration into {@code dir} and returns the command that runs nginx on it. */
    static List<String> command(Path dir, int port) throws IOException {
        Path nginx = binary();
        if (nginx == null) throw new IOException("nginx is not installed (apt-get install nginx-light)");
        Files.createDirectories(dir);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, config(dir, port));
        // -e: the error log before the configuration is read (the package's default is not ours to write).
        return List.of(nginx.toString(), "-p", dir + "/", "-c", conf.toString(), "-e", dir.resolve("error.log").toString(),
                "-g", "daemon off;");
    }

    /**
     * Every path nginx writes under {@code dir} (pid, error log, the temporary directories it
     * creates at startup even when unused), no access log, and keep-alive connections that last
     * the whole run: a closed connection would cost a reconnect the other servers do not pay.
     * {@code return} reads and discards a request's body before answering, so keep-alive POSTs
     * with bodies stay in step.
     */
    static String config(Path dir, int port) {
        String body = new String(TrivialServer.BODY, StandardCharsets.US_ASCII);
        if (body.contains("'") || body.contains("$") || body.contains("\\")) {
            throw new IllegalStateException("the reply does not fit in nginx's quotes: " + body);
        }
        return """
                worker_processes auto;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                worker_rlimit_nofile %2$d;
                events {
                    worker_connections %3$d;
                }
                http {
                    access_log off;
                    server_tokens off;
                    client_body_temp_path %1$s/client_body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    keepalive_requests 1000000000;
                    keepalive_timeout 3600s;
                    server {
                        listen 127.0.0.1:%4$d backlog=4096;
                        location / {
                            default_type %5$s;
                            add_header x-amzn-RequestId $request_id always;
                            add_header x-amz-crc32 %6$s always;
                            return 200 '%7$s';
                        }
                    }
                }
                """.formatted(dir, 2 * WORKER_CONNECTIONS, WORKER_CONNECTIONS, port, SigV4Signer.CONTENT_TYPE,
                TrivialServer.BODY_CRC32, body);
    }
}
