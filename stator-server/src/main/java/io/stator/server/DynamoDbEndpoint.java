package io.stator.server;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.write.CancellationReason;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.write.TransactionCanceledException;
import io.stator.server.access.AccessControl;
import io.stator.server.access.Authorizer;
import io.stator.server.api.Actions;
import io.stator.server.auth.Caller;
import io.stator.server.http.BodyChunks;
import io.stator.server.http.ContentCodings;
import io.stator.server.http.EarlyReplies;
import io.stator.server.http.HttpReply;
import io.stator.server.http.HttpRequestData;
import io.stator.server.http.NettyHttpServer;
import io.stator.server.advisor.AdvisorEndpoint;
import io.stator.server.console.ConsoleEndpoint;
import io.stator.server.metrics.MetricsEndpoint;
import io.stator.server.metrics.RequestMetrics;
import io.stator.server.replication.ReplicationEndpoint;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.Constraints;
import io.stator.server.protocol.JsonSyntax;
import io.stator.server.protocol.JsonText;
import io.stator.server.protocol.RequestReader;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.ServiceModel;
import io.stator.server.protocol.request.DeleteItemInput;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.PutItemInput;
import io.stator.server.protocol.request.UpdateItemInput;
import io.stator.storage.StorageFaultException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.zip.CRC32;

/**
 * DynamoDB's HTTP endpoint: one request in, one reply out, with DynamoDB's handling of every
 * step, in DynamoDB's order:
 * <ol>
 *   <li>CORS: with an Origin header every reply allows any origin, and a preflight (OPTIONS) is
 *       answered at once;</li>
 *   <li>GET / answers the health line DynamoDB answers; GET /metrics, when this port serves the
 *       metrics, answers them in Prometheus' text format ({@link MetricsEndpoint}); GET
 *       /stator/advisor/..., when this port serves it, the advisor's read API ({@link AdvisorEndpoint});
 *       GET /console/..., when this port serves it, the console ({@link ConsoleEndpoint}); POST
 *       /_stator/replication/..., when this region has peers, their messages ({@link ReplicationEndpoint});</li>
 *   <li>anything but POST, or a body of another content type (DynamoDB takes JSON 1.0 and plain
 *       JSON only), gets DynamoDB's 404 {@code <UnknownOperationException/>};</li>
 *   <li>malformed JSON, or a body that is not Unicode text (bytes that are not UTF-8, a string
 *       with a lone surrogate: {@code JsonText}): SerializationException, before the target or
 *       the signature is looked at (the body is read against the operation's shape in this same
 *       pass, but a type error found there waits for the two checks below);</li>
 *   <li>the X-Amz-Target must name an operation: UnknownOperationException (a target sent on
 *       two lines is read as their values joined with ',', as HTTP reads a repeated field and a
 *       signature covers it, which names none: never its first line's; Content-Type and
 *       Content-Encoding are read whole the same way);</li>
 *   <li>the SigV4 signature is checked;</li>
 *   <li>an empty body: SerializationException;</li>
 *   <li>a type error in the body: SerializationException; then the constraints
 *       (ValidationException), admission by memory (a request that may need much waits for it:
 *       {@link RequestMemory}, {@link RequestFootprints}), and the action, which checks the
 *       caller's permissions (with --policies) where DynamoDB does (see {@code api/Permissions}).</li>
 * </ol>
 * A request whose headers already decide its reply but for whether its body is JSON (one that
 * fails authentication from its headers alone, above all) is answered without its body being held:
 * {@link #judge}, with the same answers in the same order.
 *
 * <p>Every reply carries {@code x-amzn-RequestId} and {@code x-amz-crc32} (the CRC32 of the body,
 * which the AWS SDKs verify), and holds its size in the {@link RequestMemory} until it is sent
 * when large. Each POST is recorded in the {@link RequestMetrics}: its latency if it succeeded,
 * else the kind of its error.
 */
public final class DynamoDbEndpoint {

    /** Authenticates a request or throws DynamoDB's error for it; says who sent it. */
    @FunctionalInterface
    public interface Authenticator {
        Caller authenticate(HttpRequestData request);

        /**
         * Throws the error {@link #authenticate} would throw whatever the request's body, when its
         * headers alone decide one (no signature at all, a malformed one, an unknown key); else
         * nothing. By default nothing: every request's body is then read whole.
         */
        default void checkHeaders(HttpRequestData head) {}
    }

    private static final String TARGET_PREFIX = "DynamoDB_20120810.";
    /** DynamoDB Streams' operations, on the same endpoint (botocore's dynamodbstreams model: targetPrefix). */
    private static final String STREAMS_TARGET_PREFIX = "DynamoDBStreams_20120810.";
    private static final String X_AMZ_JSON_1_1 = "application/x-amz-json-1.1";
    private static final String X_AMZ_JSON_1_0 = "application/x-amz-json-1.0";
    private static final byte[] UNKNOWN_OPERATION_404 = "<UnknownOperationException/>\n".getBytes(StandardCharsets.US_ASCII);
    private static final JsonFactory JSON = ResponseBody.JSON;
    private static final char[] REQUEST_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    /**
     * Query is not among them: a page is up to 1 MB read through an iterator, and served on the
     * event loops it grew the server's resident memory by about 300 MB over a table's pages
     * (LargeScanTest), where on the workers it stayed within the block cache.
     */
    private static final Set<String> BRIEF_READS = Set.of(TARGET_PREFIX + "GetItem");
    private static final Set<String> BRIEF_WRITES =
            Set.of(TARGET_PREFIX + "PutItem", TARGET_PREFIX + "UpdateItem", TARGET_PREFIX + "DeleteItem");
    /**
     * Reads of many items, whose work (a page of 1 MB read and filtered, up to 16 MB of items)
     * may take long. Writes are not among them: a synced write waits for the disk, not a core,
     * and many of them waiting together share one flush.
     */
    private static final Set<String> LENGTHY = Set.of(TARGET_PREFIX + "Query", TARGET_PREFIX + "Scan",
            TARGET_PREFIX + "SearchVectors",
            TARGET_PREFIX + "BatchGetItem", TARGET_PREFIX + "TransactGetItems", TARGET_PREFIX + "ExecuteStatement",
            TARGET_PREFIX + "BatchExecuteStatement", STREAMS_TARGET_PREFIX + "GetRecords");

    private final ServiceModel model = ServiceModel.get();
    private final ServiceModel streamsModel = ServiceModel.streams();
    private final Actions actions;
    private final Authenticator authenticator;
    private final AccessControl accessControl;
    private final byte[] healthLine;
    private final RequestMetrics requestMetrics;
    private final MetricsEndpoint scrapedHere;
    private final AdvisorEndpoint advisorHere;
    private final ConsoleEndpoint consoleHere;
    private final ReplicationEndpoint replicationHere;
    private final AtomicBoolean metricsFaultReported = new AtomicBoolean();
    private final RequestMemory memory;

    /**
     * How long a request may wait for memory ({@link RequestMemory}) before it is answered
     * InternalServerError, which clients retry: far longer than the queue of a loaded server
     * takes to move, shorter than the SDKs' socket timeouts (30 s and more).
     */
    static final long MAX_ADMISSION_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    public DynamoDbEndpoint(Actions actions, Authenticator authenticator, String region) {
        this(actions, authenticator, null, region);
    }

    /** @param accessControl who may do what (--policies); null for every caller may do everything */
    public DynamoDbEndpoint(Actions actions, Authenticator authenticator, AccessControl accessControl, String region) {
        this(actions, authenticator, accessControl, region, null, null);
    }

    /**
     * @param requestMetrics where each request is recorded; null to record nothing
     * @param scrapedHere    the metrics GET /metrics answers on this port; null when it does not
     *                       (it then gets the 404 any GET but the health check gets)
     */
    public DynamoDbEndpoint(Actions actions, Authenticator authenticator, AccessControl accessControl, String region,
                            RequestMetrics requestMetrics, MetricsEndpoint scrapedHere) {
        this(actions, authenticator, accessControl, region, requestMetrics, scrapedHere, null);
    }

    /** @param memory what requests may hold at once, and their admission; null to admit everything at once */
    public DynamoDbEndpoint(Actions actions, Authenticator authenticator, AccessControl accessControl, String region,
                            RequestMetrics requestMetrics, MetricsEndpoint scrapedHere, RequestMemory memory) {
        this(actions, authenticator, accessControl, region, requestMetrics, scrapedHere, memory, null, null);
    }

    /**
     * @param advisorHere the advisor's read API when this port serves it (GET /stator/advisor/...), else null
     * @param consoleHere the console when this port serves it (GET /console/...), else null
     */
    public DynamoDbEndpoint(Actions actions, Authenticator authenticator, AccessControl accessControl, String region,
                            RequestMetrics requestMetrics, MetricsEndpoint scrapedHere, RequestMemory memory,
                            AdvisorEndpoint advisorHere, ConsoleEndpoint consoleHere) {
        this(actions, authenticator, accessControl, region, requestMetrics, scrapedHere, memory, advisorHere, consoleHere,
                null);
    }

    /** @param replicationHere where peer regions send their messages (POST /_stator/replication/...), else null */
    public DynamoDbEndpoint(Actions actions, Authenticator authenticator, AccessControl accessControl, String region,
                            RequestMetrics requestMetrics, MetricsEndpoint scrapedHere, RequestMemory memory,
                            AdvisorEndpoint advisorHere, ConsoleEndpoint consoleHere, ReplicationEndpoint replicationHere) {
        this.replicationHere = replicationHere;
        this.advisorHere = advisorHere;
        this.consoleHere = consoleHere;
        this.memory = memory;
        this.actions = actions;
        this.authenticator = authenticator;
        this.accessControl = accessControl;
        this.healthLine = ("healthy: dynamodb." + region + ".amazonaws.com ").getBytes(StandardCharsets.US_ASCII);
        this.requestMetrics = requestMetrics;
        this.scrapedHere = scrapedHere;
    }

    /**
     * The requests worth serving without a thread hand-off (NettyHttpServer's brief ones):
     * GetItem, and, when {@code writes}, PutItem,
     * UpdateItem and DeleteItem. The caller leaves writes out when they wait for a disk sync, and
     * everything when storage is a network round trip away.
     */
    public static Predicate<HttpRequestData> briefRequests(boolean writes) {
        return request -> {
            String target = request.field("x-amz-target");
            return target != null && (BRIEF_READS.contains(target) || writes && BRIEF_WRITES.contains(target));
        };
    }

    /**
     * Serves a request on a worker thread: one whose working set may be large waits for memory
     * first ({@link RequestMemory}, {@link RequestFootprints}).
     */
    public HttpReply handle(HttpRequestData request) {
        return handle(request, true);
    }

    /**
     * The requests whose work may be long (NettyHttpServer's lengthy ones): reads of many
     * items, which hold few workers at once so that they cannot keep the others waiting.
     */
    public static Predicate<HttpRequestData> lengthyRequests() {
        return request -> {
            String target = request.header("x-amz-target");
            return target != null && LENGTHY.contains(target);
        };
    }

    /**
     * Serves a brief request on an event loop, which must never wait: it is not admitted (the
     * server sends brief requests to the workers while others wait for memory, see
     * {@link #hasRoomForBrief}), and only a large reply is counted, until it is sent. Returns null,
     * having done nothing, for a write whose expressions are too long for an event loop
     * ({@link #light}): it is to be served as a lengthy request.
     */
    public HttpReply handleBrief(HttpRequestData request) {
        return handle(request, false);
    }

    /**
     * The longest ConditionExpression and UpdateExpression (together) and the most legacy
     * Expected conditions of a write served on an event loop. Each operator of a condition may
     * scan the item once: 300 of them on a 400 KB value are a tenth of a second, during which
     * the loop's other connections would wait; 256 characters hold a dozen.
     */
    static final int LIGHT_EXPRESSIONS = 256;
    static final int LIGHT_EXPECTED = 8;

    /** Whether a brief request's work is light enough for an event loop (see {@link #LIGHT_EXPRESSIONS}). */
    private static boolean light(ModelStructure input) {
        return switch (input) {
            case PutItemInput p -> light(p.conditionExpression(), null, p.expected());
            case UpdateItemInput u -> light(u.conditionExpression(), u.updateExpression(), u.expected());
            case DeleteItemInput d -> light(d.conditionExpression(), null, d.expected());
            default -> true;
        };
    }

    private static boolean light(String condition, String update, Map<String, ?> expected) {
        int length = (condition == null ? 0 : condition.length()) + (update == null ? 0 : update.length());
        return length <= LIGHT_EXPRESSIONS && (expected == null || expected.size() <= LIGHT_EXPECTED);
    }

    /** A brief request that is to be served on a worker after all; thrown before it has done anything. */
    private static final class ForAWorker extends RuntimeException {
        ForAWorker() {
            super(null, null, false, false);
        }
    }

    private static final ForAWorker FOR_A_WORKER = new ForAWorker();

    /** Whether brief requests may be served without admission now: nothing waits for memory. */
    public boolean hasRoomForBrief() {
        return memory == null || memory.hasRoom();
    }

    private HttpReply handle(HttpRequestData request, boolean mayWait) {
        // DynamoDB's requests are to "/": one look at the path keeps them off the routes beside it.
        if (request.path().length() > 1) {
            if (scrapedHere != null && MetricsEndpoint.isScrape(request)) return scrapedHere.scrape();
            if (advisorHere != null && AdvisorEndpoint.isAdvisor(request)) return advisorHere.handle(request);
            if (consoleHere != null && ConsoleEndpoint.isConsole(request)) return consoleHere.handle(request);
            if (replicationHere != null && ReplicationEndpoint.isReplication(request)) return replicationHere.handle(request);
        }
        Dispatch dispatch = new Dispatch();
        HttpReply reply;
        try {
            reply = decorated(respond(request, dispatch, mayWait), request);
        } catch (ForAWorker e) {
            return null;
        } catch (VirtualMachineError e) {
            release(dispatch);
            throw e;
        }
        holdUntilSent(reply, dispatch);
        return reply;
    }

    /** A reply as every reply leaves: compressed when allowed, with its request id, CRC and CORS headers. */
    private HttpReply decorated(HttpReply replied, HttpRequestData request) {
        HttpReply reply = compressed(replied, request);
        reply.header("x-amzn-RequestId", requestId());
        reply.header("x-amz-crc32", Long.toString(crc32(reply)));
        String origin = request.header("origin");
        if (origin != null) {
            reply.header("Access-Control-Allow-Origin", "*");
            reply.header("Access-Control-Expose-Headers", "x-amzn-RequestId,x-amz-crc32");
        }
        return reply;
    }

    /**
     * A request whose reply its headers decide, so that its body need not be held
     * ({@link EarlyReplies}): any request but a POST (its body never matters), a POST of another
     * content type (DynamoDB's 404 for a body it does not take), and a POST its headers already
     * fail to authenticate (no signature, a malformed one, an unknown key: the hostile probe of
     * issue 29 had twenty unsigned senders of 15 MB bodies slow a signed GetItem from 13 ms to
     * 4.3 s, each body held and parsed). For the last, DynamoDB's order still holds: a body that is
     * not JSON gets SerializationException before the target and the signature are looked at
     * (dynalite's suite, run against DynamoDB: "should return SerializationException if body is
     * application/json but not JSON", unsigned), so the body is checked as it streams past
     * ({@link JsonSyntax}), never held. A compressed body is not decoded for this: what DynamoDB
     * answers an unsigned compressed body that is not JSON is not on record, and it is answered as
     * any unsigned request is. Null, to read the request whole, for everything else: every request
     * that may be served. (Only a large body is judged at all: JudgedBodies.SMALL_BODY_BYTES.)
     */
    public EarlyReplies.BodyJudge judge(HttpRequestData head) {
        if (replicationHere != null && ReplicationEndpoint.isReplication(head)) return null; // its body is read whole
        if (!head.method().equals("POST")) return bodyUnread(head, null);
        String contentType = mediaType(head.field("content-type"));
        if (!isJsonContentType(contentType)) {
            return bodyUnread(head, new HttpReply(404, UNKNOWN_OPERATION_404).header("Content-Type", "text/plain"));
        }
        DynamoDbException refused;
        try {
            authenticator.checkHeaders(head);
            return null;
        } catch (DynamoDbException e) {
            refused = e;
        }
        ServiceModel.Operation operation = operation(head.field("x-amz-target"));
        String coding = head.field("content-encoding");
        boolean compressed = coding != null && !coding.isBlank() && !coding.trim().equalsIgnoreCase("identity");
        // One value for an operation's body (RequestReader), values in a row otherwise (checkWellFormed).
        JsonSyntax syntax = compressed ? null : operation != null ? new JsonSyntax(true, Integer.MAX_VALUE)
                : new JsonSyntax(false, JsonSyntax.DEFAULT_MAX_NAME_BYTES);
        String replyType = X_AMZ_JSON_1_0.equals(contentType) || X_AMZ_JSON_1_1.equals(contentType)
                ? contentType : "application/json";
        return new EarlyReplies.BodyJudge() {
            private boolean json = true;

            @Override
            public void accept(ByteBuffer bytes) {
                if (syntax != null && json) json = syntax.feed(bytes);
            }

            @Override
            public HttpReply reply(long bodyBytes) {
                if (bodyBytes == 0) return handle(head); // no body after all: read as any request
                DynamoDbException e = syntax != null && !syntax.isJson() ? DynamoDbException.serialization(null)
                        : operation == null ? DynamoDbException.unknownOperation(null) : refused;
                Dispatch dispatch = new Dispatch();
                dispatch.operation = operation == null ? null : operation.name();
                failed(dispatch, e);
                return decorated(error(e, replyType), head);
            }
        };
    }

    /**
     * A judge that lets the body go by unread: the reply is {@code withBody} when there was a body
     * (or the request's reply without one, when {@code withBody} is null), else the request's own.
     */
    private EarlyReplies.BodyJudge bodyUnread(HttpRequestData head, HttpReply withBody) {
        return new EarlyReplies.BodyJudge() {
            @Override
            public void accept(ByteBuffer bytes) {
                // not read: the reply does not depend on it
            }

            @Override
            public HttpReply reply(long bodyBytes) {
                return bodyBytes == 0 || withBody == null ? handle(head) : decorated(withBody, head);
            }
        };
    }

    /**
     * Trades what the request was admitted with for its reply's size, held until the reply has
     * been sent. A reply that was not admitted (a brief request's) is counted only when large:
     * counting every small one would cost the hot path a compare-and-set and a listener each.
     */
    private void holdUntilSent(HttpReply reply, Dispatch dispatch) {
        long admitted = dispatch.admitted;
        int replyBytes = reply.bodyLength();
        if (memory == null) return;
        if (replyBytes < RequestFootprints.ADMITTED_FROM) {
            release(dispatch);
            return;
        }
        if (admitted >= replyBytes) memory.release(admitted - replyBytes);
        else memory.charge(replyBytes - admitted);
        dispatch.admitted = 0;
        reply.whenSent(() -> memory.release(replyBytes));
    }

    private void release(Dispatch dispatch) {
        if (dispatch.admitted > 0) memory.release(dispatch.admitted);
        dispatch.admitted = 0;
    }

    /** The reply compressed as the client allows, when it is large enough (see {@link ContentCodings}). */
    private static HttpReply compressed(HttpReply reply, HttpRequestData request) {
        if (reply.status() != 200 || reply.bodyLength() <= ContentCodings.RESPONSE_THRESHOLD) return reply;
        String coding = ContentCodings.negotiate(request.lastHeader("accept-encoding"));
        if (coding == null) return reply;
        HttpReply compressed = new HttpReply(reply.status(), ContentCodings.encode(coding, reply));
        for (String[] h : reply.headers()) compressed.header(h[0], h[1]);
        return compressed.header("Content-Encoding", coding);
    }

    /**
     * "healthy: " and the host the request was addressed to, with DynamoDB's trailing space (its
     * endpoint names itself: "healthy: dynamodb.us-east-1.amazonaws.com "); the region's endpoint
     * name when the request named no host.
     */
    private byte[] healthLine(String host) {
        if (host == null || host.isBlank()) return healthLine;
        return ("healthy: " + host.strip() + " ").getBytes(StandardCharsets.ISO_8859_1);
    }

    private HttpReply respond(HttpRequestData request, Dispatch dispatch, boolean mayWait) {
        String method = request.method();
        if (request.header("origin") != null && method.equals("OPTIONS")) {
            HttpReply reply = new HttpReply(200, new byte[0]);
            String headers = request.header("access-control-request-headers");
            if (headers != null) reply.header("Access-Control-Allow-Headers", headers);
            String methods = request.header("access-control-request-method");
            if (methods != null) reply.header("Access-Control-Allow-Methods", methods);
            reply.header("Access-Control-Max-Age", "172800");
            return reply;
        }
        if (method.equals("GET") && request.path().equals("/")) {
            return new HttpReply(200, healthLine(request.header("host"))).header("Content-Type", "text/plain");
        }
        String contentType = mediaType(request.field("content-type"));
        if (!method.equals("POST") || (request.body().length > 0 && !isJsonContentType(contentType))) {
            return new HttpReply(404, UNKNOWN_OPERATION_404).header("Content-Type", "text/plain");
        }
        String replyType = X_AMZ_JSON_1_0.equals(contentType) || X_AMZ_JSON_1_1.equals(contentType)
                ? contentType : "application/json";
        byte[] requestBody;
        try {
            requestBody = ContentCodings.decode(request.field("content-encoding"), request.body(),
                    NettyHttpServer.MAX_REQUEST_BYTES);
        } catch (ContentCodings.TooLargeException e) {
            return new HttpReply(413, new byte[0]);
        } catch (ContentCodings.UndecodableException e) {
            return error(DynamoDbException.internal(INTERNAL_SERVER_ERROR), replyType);
        }
        long started = System.nanoTime();
        BodyChunks body;
        try {
            body = execute(request, requestBody, dispatch, mayWait);
        } catch (DynamoDbException e) {
            release(dispatch);
            failed(dispatch, e);
            return error(e, replyType);
        } catch (StorageFaultException e) {
            release(dispatch);
            failed(dispatch, e);
            // Logged once by the storage, with its cause; not once per request.
            return error(storageFault(e), replyType);
        } catch (VirtualMachineError | ForAWorker e) {
            // Out of memory (or stack): the server cannot answer for its state, and answers
            // nothing (NettyHttpServer closes the connection; bin/stator's JVM exits on it).
            throw e;
        } catch (RuntimeException | Error e) {
            release(dispatch);
            failed(dispatch, e);
            System.err.println("stator: internal error handling " + request.field("x-amz-target") + ": " + e);
            e.printStackTrace(System.err);
            return error(DynamoDbException.internal(INTERNAL_SERVER_ERROR), replyType);
        }
        if (requestMetrics != null) {
            // Outside the try above: the request has succeeded (a write is committed), and a fault
            // in recording it must not answer it with an error the client would retry.
            try {
                requestMetrics.succeeded(dispatch.operation, dispatch.input, dispatch.response,
                        System.nanoTime() - started);
            } catch (RuntimeException e) {
                if (!metricsFaultReported.getAndSet(true)) {
                    System.err.println("stator: could not record a request's metrics (reported once): " + e);
                }
            }
        }
        return new HttpReply(200, body).header("Content-Type", replyType);
    }

    /**
     * What is known of a request as it goes: its operation, then its input, then its response;
     * and the memory it was admitted with, until its reply holds it.
     */
    private static final class Dispatch {
        String operation;
        ModelStructure input;
        ResponseBody response;
        long admitted;
    }

    private void failed(Dispatch dispatch, Throwable e) {
        if (requestMetrics == null) return;
        try {
            requestMetrics.failed(dispatch.operation, dispatch.input, e);
        } catch (RuntimeException fault) {
            if (!metricsFaultReported.getAndSet(true)) {
                System.err.println("stator: could not record a request's metrics (reported once): " + fault);
            }
        }
    }

    /**
     * DynamoDB's text for its InternalServerError, as real responses carry it (aws/aws-sdk-java#1881,
     * aws/aws-sdk-js#3891, both with DynamoDB request ids).
     */
    static final String INTERNAL_SERVER_ERROR = "Internal server error";

    /**
     * The answer to a request the storage could not write (a full disk, a failed write):
     * DynamoDB's InternalServerError, HTTP 500, with a clause saying what is wrong. DynamoDB has
     * no error of its own for this; of its two server errors (Programming.Errors, HTTP 5xx:
     * InternalServerError 500, ServiceUnavailable 503), InternalServerError is the one DynamoDB
     * answers when a storage node fails ("Troubleshooting internal server errors": "storage node
     * related issues"), the one its service model declares, as a fault,
     * for the item and table operations (botocore's service-2.json; so the SDKs raise their typed
     * InternalServerErrorException, botocore its client.exceptions.InternalServerError), and one every AWS
     * SDK and the CLI retry by themselves: status 500 is retryable in the Java SDK v2
     * (SdkDefaultRetrySetting.RETRYABLE_STATUS_CODES), botocore (legacy "general_server_error",
     * standard TRANSIENT_STATUS_CODES) and the JavaScript SDK v3 (TRANSIENT_ERROR_STATUS_CODES).
     * A 503 would need a body DynamoDB is not known to send (its 503s come from the front door,
     * some as HTML pages, aws/aws-sdk-js-v3#4683), and some clients retry no 500 but do retry
     * 503 (cognitect-labs/aws-api): a trade-off, made for the error DynamoDB itself sends. The
     * message is DynamoDB's, with a clause in the manner of its own 500 text for a passing state,
     * "Table is under system maintenance, please try again later" (docs/dynamodb/indexes.md).
     */
    private static DynamoDbException storageFault(StorageFaultException e) {
        return DynamoDbException.internal(INTERNAL_SERVER_ERROR + switch (e.kind()) {
            case OUT_OF_SPACE -> ": the server's disk is full, please try again later";
            case WRITE_FAILED -> ": the server cannot write to its storage, please try again later";
        });
    }

    /**
     * @param body    the request's body, decoded (the signature covers it as sent)
     * @param mayWait whether the request may wait for memory (on a worker), or is never admitted (brief)
     */
    private BodyChunks execute(HttpRequestData request, byte[] body, Dispatch dispatch, boolean mayWait)
            throws DynamoDbException {
        boolean hasBody = body.length > 0;
        ServiceModel.Operation operation = operation(request.field("x-amz-target"));
        if (operation == null) {
            if (hasBody) checkWellFormed(body);
            throw DynamoDbException.unknownOperation(null);
        }
        dispatch.operation = operation.name();
        RequestReader.Parsed parsed = hasBody ? RequestReader.parse(body, operation.input()) : null;
        Caller caller = authenticator.authenticate(request);
        if (!hasBody) throw DynamoDbException.serialization(null);
        ModelStructure input = parsed.request();
        dispatch.input = input;
        if (!actions.serves(operation.name())) {
            throw DynamoDbException.unknownOperation(operation.name() + " is not supported by Stator yet");
        }
        Constraints.check(parsed, operation.input());
        if (!mayWait && !light(input)) throw FOR_A_WORKER;
        if (mayWait && memory != null) admit(operation.name(), input, body.length, dispatch);
        ResponseBody response = new ResponseBody();
        dispatch.response = response;
        try {
            actions.execute(operation.name(), input,
                    accessControl == null ? Authorizer.UNCHECKED : accessControl.authorizer(caller.accessKeyId()), response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return response.finish();
    }

    /** The operation an X-Amz-Target names, of DynamoDB or DynamoDB Streams; null for none. */
    private ServiceModel.Operation operation(String target) {
        if (target != null && target.startsWith(TARGET_PREFIX)) {
            return model.operation(target.substring(TARGET_PREFIX.length()));
        }
        if (target != null && target.startsWith(STREAMS_TARGET_PREFIX)) {
            return streamsModel.operation(target.substring(STREAMS_TARGET_PREFIX.length()));
        }
        return null;
    }

    /**
     * Waits until the memory the request may need is free ({@link RequestFootprints}); a request
     * that waited {@link #MAX_ADMISSION_WAIT_NANOS} in vain is answered InternalServerError,
     * having done nothing.
     */
    private void admit(String operation, ModelStructure input, int bodyBytes, Dispatch dispatch) {
        long footprint = RequestFootprints.estimate(operation, input, bodyBytes);
        if (footprint == 0) return;
        boolean admitted;
        try {
            admitted = memory.admit(footprint, MAX_ADMISSION_WAIT_NANOS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            admitted = false;
        }
        if (!admitted) throw DynamoDbException.internal(INTERNAL_SERVER_ERROR + ": the server is busy, please try again later");
        dispatch.admitted = footprint;
    }

    private static void checkWellFormed(byte[] body) {
        if (!JsonText.isUnicode(body, 0, body.length)) throw DynamoDbException.serialization(null);
        try (JsonParser p = JSON.createParser(body)) {
            // A body of white space only is not JSON either.
            if (p.nextToken() == null) throw DynamoDbException.serialization(null);
            while (p.nextToken() != null) {
                // reading is checking
            }
        } catch (IOException e) {
            throw DynamoDbException.serialization(null);
        }
    }

    private static HttpReply error(DynamoDbException e, String contentType) {
        BodyChunks buffer = new BodyChunks();
        try (JsonGenerator g = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            g.writeStartObject();
            ErrorType type = e.type();
            g.writeStringField("__type", type.wireName());
            if (e.getMessage() != null) g.writeStringField(type.messageKey(), e.getMessage());
            if (e instanceof ConditionalCheckFailedException failed && failed.item() != null) {
                g.writeFieldName("Item");
                AttributeValueJson.writeItem(g, failed.item());
            }
            if (e instanceof TransactionCanceledException cancelled) writeCancellationReasons(g, cancelled);
            if (e instanceof ThroughputExceededException throttled) writeThrottlingReasons(g, throttled);
            g.writeEndObject();
        } catch (IOException io) {
            throw new UncheckedIOException(io);
        }
        return new HttpReply(e.type().httpStatus(), buffer).header("Content-Type", contentType);
    }

    /**
     * One reason per action: {"Code":"None"} for an action that was fine, else Code and
     * Message, and the item for a failed condition that asked for it (as DynamoDB sends them).
     */
    private static void writeCancellationReasons(JsonGenerator g, TransactionCanceledException e) throws IOException {
        g.writeArrayFieldStart("CancellationReasons");
        for (CancellationReason reason : e.reasons()) {
            g.writeStartObject();
            g.writeStringField("Code", reason.code());
            if (reason.item() != null) {
                g.writeFieldName("Item");
                AttributeValueJson.writeItem(g, reason.item());
            }
            if (reason.message() != null) g.writeStringField("Message", reason.message());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** Which limits of which table or index refused the request: [{"reason": ..., "resource": ARN}]. */
    private static void writeThrottlingReasons(JsonGenerator g, ThroughputExceededException e) throws IOException {
        g.writeArrayFieldStart(e.reasonsMember());
        for (ThroughputExceededException.Reason reason : e.reasons()) {
            g.writeStartObject();
            g.writeStringField("reason", reason.reason());
            g.writeStringField("resource", reason.resource());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The media type of a Content-Type header, without parameters. */
    private static String mediaType(String contentType) {
        if (contentType == null) return null;
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
    }

    /**
     * DynamoDB's protocol is JSON 1.0. A body of type application/x-amz-json-1.1 (the version other
     * AWS JSON services speak) is served too, as the project asks, although dynalite's suite
     * recorded DynamoDB answering it with the 404: no client is harmed by being understood.
     */
    private static boolean isJsonContentType(String mediaType) {
        return X_AMZ_JSON_1_0.equals(mediaType) || X_AMZ_JSON_1_1.equals(mediaType)
                || "application/json".equals(mediaType);
    }

    /** 52 characters of [A-Z0-9], the shape of DynamoDB's request ids. */
    private static String requestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] id = new char[52];
        for (int i = 0; i < id.length; i++) id[i] = REQUEST_ID_CHARS[random.nextInt(REQUEST_ID_CHARS.length)];
        return new String(id);
    }

    private static long crc32(HttpReply reply) {
        CRC32 crc = new CRC32();
        reply.forEachChunk((chunk, length) -> crc.update(chunk, 0, length));
        return crc.getValue();
    }
}
