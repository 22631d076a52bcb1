package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.json.SdkJsonMapper;
import dev.cinchmcp.json.SdkResults;
import dev.cinchmcp.transport.Requests.Request;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's 2025 session behind {@link StdioTransport}: waits for it to be set up (on another
 * thread), hands it messages and writes its answers as the client must get them.
 */
final class SdkSessionBridge {

  static final String INITIALIZED = "notifications/initialized";
  static final long SESSION_WAIT_SECONDS = 30; // the longest a message waits (set-up: ~50 ms)

  static final String INTERNAL_ERROR_MESSAGE =
      "Internal error: the server could not handle this request. Its log (stderr) has the detail.";

  private static final Logger log = LoggerFactory.getLogger(SdkSessionBridge.class);

  private final McpJsonMapper mcpMapper;
  private final Requests requests;
  private final Supplier<JsonRpcWriter> writer;
  private volatile McpServerSession session;
  private volatile boolean initialized;
  final CompletableFuture<Void> wanted = new CompletableFuture<>(); // a 2025 message came
  private final CountDownLatch sessionSet = new CountDownLatch(1);

  SdkSessionBridge(McpJsonMapper mcpMapper, Requests requests, Supplier<JsonRpcWriter> writer) {
    this.mcpMapper = mcpMapper;
    this.requests = requests;
    this.writer = writer;
  }

  void setSessionFactory(McpServerSession.Factory sessionFactory) {
    this.session = sessionFactory.create(new SessionTransport());
    sessionSet.countDown();
  }

  void noSession() {
    sessionSet.countDown();
  }

  /**
   * At the end of stdin the session holds requests sent before it was initialized forever: each is
   * told it never ran, on a thread waited for until the deadline (a client not reading must not
   * hold the drain).
   */
  void answerHeldNeverRun(long deadlineNanos) {
    if (initialized) {
      return;
    }
    List<Request> held = requests.cancelAll(r -> r.modern() == null);
    if (held.isEmpty()) {
      return;
    }
    JsonRpcWriter out = writer.get();
    Thread notices =
        DaemonThreads.start(
            "cinch-never-run",
            () ->
                held.forEach(
                    r ->
                        out.write(
                            JsonRpcWriter.reply(
                                r.echoId(),
                                JsonRpcWriter.INVALID_REQUEST,
                                "The server stopped before the session was initialized (initialize,"
                                    + " then notifications/initialized), so this request was never"
                                    + " run."))));
    try {
      notices.join(Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private McpServerSession session() {
    wanted.complete(null);
    try {
      if (!sessionSet.await(SESSION_WAIT_SECONDS, TimeUnit.SECONDS)) {
        log.error("The MCP session was not set up within {} s", SESSION_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return session;
  }

  /** The session's handling of the request; its answer goes by the work's context. */
  Mono<Void> handle(Request request) {
    JsonNode node = request.takeMessage(); // before the wait: a cancel in it must not lose it
    try {
      McpServerSession s = session();
      if (s == null) {
        throw new IllegalStateException("no MCP session");
      }
      // its id is only for the session's log: the answer goes by the context
      return s.handle(
          new McpSchema.JSONRPCRequest(
              McpSchema.JSONRPC_VERSION,
              node.get("method").asText(),
              request.id().toString(),
              params(node)));
    } catch (RuntimeException e) {
      log.warn("The session could not take {}: {}", request, e.toString());
      return Mono.fromRunnable(
          () ->
              requests.answer(
                  request,
                  writer.get(),
                  JsonRpcWriter.reply(
                      request.echoId(),
                      JsonRpcWriter.INVALID_REQUEST,
                      "Invalid request: it could not be handled.")));
    }
  }

  /** Built directly: Jackson's first conversion costs a fresh JVM tens of milliseconds. */
  static McpSchema.JSONRPCNotification notification(JsonNode node) {
    return new McpSchema.JSONRPCNotification(
        McpSchema.JSONRPC_VERSION, node.get("method").asText(), params(node));
  }

  private static Object params(JsonNode node) {
    JsonNode params = node.get("params");
    return params == null || params.isNull() ? null : SdkJsonMapper.plain(params);
  }

  /** A 2025-era notification or response. */
  void forward(JsonNode node) {
    JSONRPCMessage message;
    try {
      message =
          node.has("method")
              ? notification(node)
              : mcpMapper.convertValue(SdkJsonMapper.plain(node), JSONRPCResponse.class);
    } catch (IllegalArgumentException e) {
      log.debug("A notification or response with fields of the wrong types was ignored");
      return;
    }
    if (message instanceof McpSchema.JSONRPCNotification n && INITIALIZED.equals(n.method())) {
      initialized = true;
    }
    McpServerSession s = session();
    if (s == null) {
      return; // the failure was logged, and requests are answered with it
    }
    s.handle(message).subscribe(null, e -> log.warn("Handling a message failed: {}", e.toString()));
  }

  Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  /** Sending is a synchronous, ordered write to stdout. */
  private final class SessionTransport implements McpServerTransport {

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.deferContextual(
          context -> {
            if (!(message instanceof JSONRPCResponse response)) {
              writer.get().write(SdkResults.plainMessage(message));
            } else if (context.getOrDefault(Request.class, null) instanceof Request request) {
              requests.answer(request, writer.get(), forClient(response, request));
            } else {
              log.warn("An answer outside any request's work was dropped: {}", response.id());
            }
            return Mono.empty();
          });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mcpMapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty(); // stdout stays open until the process ends
    }
  }

  /** The answer, the id as written, an internal error's text replaced (its detail to stderr). */
  private static Map<String, Object> forClient(JSONRPCResponse response, Request request) {
    JSONRPCResponse.JSONRPCError error = response.error();
    if (error == null) {
      return JsonRpcWriter.result(request.echoId(), SdkResults.plain(response.result()));
    }
    if (error.code() == McpSchema.ErrorCodes.INTERNAL_ERROR) {
      log.warn("Internal error answering {}: {}", request, error.message());
      return JsonRpcWriter.reply(
          request.echoId(), JsonRpcWriter.INTERNAL_ERROR, INTERNAL_ERROR_MESSAGE);
    }
    return JsonRpcWriter.reply(request.echoId(), error);
  }
}
