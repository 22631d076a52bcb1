package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.json.ParamsCheck;
import dev.cinchmcp.mcp2026.ProtocolError;
import dev.cinchmcp.mcp2026.StatelessServer;
import dev.cinchmcp.transport.Requests.Request;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Newline-delimited JSON-RPC on stdio for both eras, in place of the SDK's transport (which ends on
 * one malformed line, loses replies in flight when stdin closes and ignores cancellation). 2026
 * requests go to the {@link StatelessServer}, others to the SDK's session ({@link
 * SdkSessionBridge}); at the end of stdin all read is answered, within the drain limit.
 */
public final class StdioTransport implements McpServerTransportProvider {

  public static final int MAX_LINE_BYTES = 8 * 1024 * 1024;
  // Running at once; more wait. A call holds up to ~0.3 MB writing its result: 64 fit 48 MB.
  public static final int MAX_RUNNING = 64;
  static final int MAX_WAITING = 1024;
  static final long MAX_WAITING_BYTES = 16L * 1024 * 1024;

  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  private final CompletableFuture<ObjectMapper> mapperReady;
  private final OutputStream out;
  private final InputStream in;
  // made by ready() once the mapper exists, before the first line is read
  private volatile LineParser parser;
  private volatile JsonRpcWriter writer;
  private final Duration drainLimit;
  private final Requests requests;
  private final SdkSessionBridge sdk;
  private final CompletableFuture<Void> firstWritten = new CompletableFuture<>();
  private volatile StatelessServer stateless;
  private volatile boolean drained;
  private volatile boolean stopped;

  /** {@code mapper} may still be being made (~50 ms on Java 17): {@link #run} waits for it. */
  public StdioTransport(
      CompletableFuture<ObjectMapper> mapper,
      McpJsonMapper mcpMapper,
      InputStream in,
      OutputStream out,
      Duration drainLimit) {
    this.mapperReady = mapper;
    this.in = in;
    this.out = out;
    this.drainLimit = drainLimit;
    this.requests = new Requests(MAX_RUNNING, MAX_WAITING, MAX_WAITING_BYTES, this::start);
    this.sdk = new SdkSessionBridge(mcpMapper, requests, () -> writer);
    if (mapper.isDone()) {
      ready();
    }
  }

  private synchronized void ready() {
    if (writer == null) {
      ObjectMapper m = mapperReady.join();
      parser = new LineParser(m, in);
      writer = new JsonRpcWriter(m, out, firstWritten);
    }
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    sdk.setSessionFactory(sessionFactory);
  }

  /** The SDK's server could not be built: 2025 messages get an error, not held. */
  public void noSession() {
    sdk.noSession();
  }

  public CompletableFuture<Void> sessionWanted() {
    return CompletableFuture.anyOf(sdk.wanted, firstWritten).thenApply(x -> null);
  }

  public CompletableFuture<Void> firstWritten() {
    return firstWritten;
  }

  /** Without it 2026-era requests get -32601, as from a 2025-only server. */
  public void setStatelessServer(StatelessServer stateless) {
    this.stateless = stateless;
  }

  public void run() {
    ready();
    try {
      byte[] line;
      while ((line = parser.next()) != null) {
        accept(line);
      }
    } catch (IOException e) {
      log.debug("stdin failed: {}", e.toString());
    }
    drain();
  }

  /** Waits for the answers owed, up to the drain limit, then stops writing; only the first time. */
  public synchronized void drain() {
    if (drained) {
      return;
    }
    drained = true;
    ready(); // a signal may come before the first line was read
    long deadline = System.nanoTime() + drainLimit.toNanos();
    sdk.answerHeldNeverRun(deadline);
    log.debug("Draining: {} request(s) still owed an answer", requests.size());
    if (!requests.awaitEmpty(deadline)) {
      log.warn(
          "{} request(s) still unanswered after {} ms; giving up on them",
          requests.size(),
          drainLimit.toMillis());
    }
    int dropped = writer.close(deadline);
    if (dropped > 0) {
      log.warn("{} answer(s) dropped: stdout was closed or not being read", dropped);
    }
  }

  /**
   * A signal, first step: nothing more read, started or written. Requests go on until {@link
   * #cancelAll}, so the backend stops all runs at once first (one by one, each clean-up held up the
   * next). Stdin is left open: closing it waits for the thread reading it.
   */
  public void stopTaking() {
    stopped = true;
    drained = true;
    requests.stopStarting();
    JsonRpcWriter w = writer;
    if (w != null) {
      w.close(System.nanoTime());
    }
  }

  /** A signal, second step: every request is cancelled; returns at once. */
  public void cancelAll() {
    requests.stopStarting();
    log.debug("Stopped at once: {} request(s) cancelled", requests.cancelAll(null).size());
  }

  public static void closeInput(InputStream in) {
    try {
      in.close();
    } catch (IOException e) {
      log.debug("Closing stdin failed: {}", e.toString());
    }
  }

  private void writeError(RequestId id, int code, String message) {
    writer.write(JsonRpcWriter.reply(id == null ? null : id.echo(), code, message));
  }

  void accept(byte[] line) {
    if (stopped) {
      return;
    }
    try {
      acceptLine(line);
    } catch (StackOverflowError | RuntimeException e) {
      // last resort: whatever one message does, the next one is still read
      log.warn("A message could not be handled: {}", e.toString());
      writeError(null, JsonRpcWriter.INVALID_REQUEST, "Invalid request: it could not be handled.");
    }
  }

  private void acceptLine(byte[] line) {
    if (line == LineParser.TOO_LONG) {
      writeError(
          null,
          JsonRpcWriter.INVALID_REQUEST,
          "Message too long: a line may hold at most "
              + MAX_LINE_BYTES
              + " bytes; it was discarded.");
      return;
    }
    if (isBlank(line)) {
      return; // no message; skipping it is what clients expect
    }
    LineParser.Message message = parser.parse(line);
    JsonNode node = message.node();
    switch (message.kind()) {
      case INVALID ->
          message.ids().forEach(id -> writeError(id, message.code(), message.problem()));
      case CANCELLED -> cancel(node.path("params").path("requestId"));
      case REQUEST -> acceptRequest(message.id(), node, line.length);
      case NOTIFICATION -> {
        if (StatelessServer.isModern(node.get("method").asText(), node.get("params"))) {
          log.debug("A 2026-era notification was ignored: {}", node.get("method").asText());
        } else {
          sdk.forward(node);
        }
      }
      case RESPONSE -> sdk.forward(node);
    }
  }

  private void acceptRequest(RequestId id, JsonNode node, int bytes) {
    String method = node.get("method").asText();
    JsonNode params = node.get("params");
    StatelessServer server = stateless;
    boolean modern = StatelessServer.isModern(method, params);
    String problem = modern ? null : ParamsCheck.problem(method, params);
    if (modern && server == null) {
      writeError(
          id,
          JsonRpcWriter.METHOD_NOT_FOUND,
          "Method not found: " + method + " (2026-07-28 is not served).");
    } else if (modern) {
      try {
        admit(id, requests.open(id, null, bytes, server.accept(method, params)));
      } catch (ProtocolError e) {
        writer.write(JsonRpcWriter.reply(id.echo(), e.error()));
      }
    } else if (problem != null) {
      writeError(id, JsonRpcWriter.INVALID_PARAMS, "Invalid params: " + problem);
    } else if ("ping".equals(method)) {
      // the session holds requests until notifications/initialized; a ping must not wait
      writer.write(JsonRpcWriter.result(id.echo(), Map.of()));
    } else {
      admit(id, requests.open(id, node, bytes, null));
    }
  }

  /** Starts or queues an opened request (null: its id was taken). */
  private void admit(RequestId id, Request request) {
    if (request == null) {
      writeError(
          id,
          JsonRpcWriter.INVALID_REQUEST,
          "Request id " + id + " is already in use by a request still running.");
      return;
    }
    if (!requests.admit(request)) {
      writeError(
          id,
          JsonRpcWriter.SERVER_BUSY,
          "Server busy: "
              + MAX_RUNNING
              + " requests are running and too many are waiting. Wait for some answers,"
              + " then send it again.");
    }
  }

  /**
   * Runs it as work its cancellation disposes, the request in the work's context (where the SDK
   * session's answer finds it); a 2026 one's notifications are written only while it runs.
   */
  private void start(Request request) {
    StatelessServer.Call modern = request.modern();
    Mono<?> handling =
        modern == null
            ? sdk.handle(request).contextWrite(Context.of(Request.class, request))
            : modern.run(
                notification -> {
                  if (request.state() == Request.State.RUNNING) {
                    writer.write(notification);
                  }
                });
    Disposable work =
        handling
            .doFinally(signal -> requests.finished(request))
            .subscribe(
                result ->
                    requests.answer(
                        request, writer, JsonRpcWriter.result(request.echoId(), result)),
                error -> {
                  log.warn("Internal error answering {}: {}", request, error.toString());
                  requests.answer(
                      request,
                      writer,
                      JsonRpcWriter.reply(
                          request.echoId(),
                          JsonRpcWriter.INTERNAL_ERROR,
                          SdkSessionBridge.INTERNAL_ERROR_MESSAGE));
                });
    request.attach(work);
  }

  private void cancel(JsonNode requestId) {
    Request request =
        requestId.isTextual()
            ? requests.find(RequestId.ofString(requestId.asText()))
            : requestId.isNumber() ? requests.find(RequestId.ofNumber(requestId.asText())) : null;
    if (request != null && request.cancel()) {
      log.debug("Cancelled {}", request);
      requests.forget(request); // its id is free at once
    } // one for an unknown or finished request is ignored, as the spec asks
  }

  private static boolean isBlank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return sdk.notifyClients(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::drain);
  }
}
