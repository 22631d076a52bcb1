package dev.cinchmcp.transport;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * The stdio transport: newline-delimited JSON-RPC on stdin and stdout, for one MCP session.
 *
 * <p>It replaces the SDK's own, which ends the session on one malformed line, loses replies still
 * in flight when stdin closes, and ignores cancellation. Here:
 *
 * <ul>
 *   <li>input that is not a JSON-RPC message gets a JSON-RPC error and reading goes on;
 *   <li>each request runs as its own subscription, so calls run side by side and a {@code
 *       notifications/cancelled} disposes exactly that call (its HTTP request is dropped, no
 *       reply);
 *   <li>at the end of stdin, every request already read is answered before {@link #run()} returns.
 * </ul>
 */
public final class StdioTransport implements McpServerTransportProvider {

  /** Longest accepted line: far above any real MCP message, low enough to bound memory. */
  public static final int MAX_LINE_BYTES = 8 * 1024 * 1024;

  /**
   * Requests running at once; more wait (see {@link Admission}). Each call holds little until its
   * answer comes, then up to ~0.3 MB while its result is written: 64 fit a 48 MB heap with room.
   */
  public static final int MAX_RUNNING = 64;

  static final int MAX_WAITING = 1024;
  static final long MAX_WAITING_BYTES = 16L * 1024 * 1024;

  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  private final ObjectMapper mapper;
  private final McpJsonMapper mcpMapper;
  private final InputStream in;
  private final JsonRpcWriter writer;
  private final Duration drainLimit;
  private final InFlight inFlight = new InFlight();
  private final Admission admission = new Admission(MAX_RUNNING, MAX_WAITING, MAX_WAITING_BYTES);
  private volatile McpServerSession session;

  /**
   * @param drainLimit the longest the server waits, once stdin has closed, for answers still owed;
   *     a call in flight can take up to the API timeout, so this should be a little longer
   */
  public StdioTransport(
      ObjectMapper mapper,
      McpJsonMapper mcpMapper,
      InputStream in,
      OutputStream out,
      Duration drainLimit) {
    this.mapper = mapper;
    this.mcpMapper = mcpMapper;
    this.in = in;
    this.writer = new JsonRpcWriter(mapper, out);
    this.drainLimit = drainLimit;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    this.session = sessionFactory.create(new SessionTransport());
  }

  /**
   * Reads stdin until it ends, handing each message on, then waits until every request read has
   * been answered (or {@code drainLimit} has passed). Returns normally at the end of input.
   */
  public void run() {
    LineReader lines = new LineReader(in, MAX_LINE_BYTES);
    try {
      byte[] line;
      while ((line = lines.next()) != null) {
        accept(line);
      }
    } catch (IOException e) {
      log.debug("stdin failed: {}", e.toString());
    }
    drain();
  }

  /** Waits for the answers still owed, then flushes stdout. Safe to call more than once. */
  public void drain() {
    log.debug("Draining: {} request(s) still owed an answer", inFlight.size());
    if (!inFlight.awaitEmpty(drainLimit)) {
      log.warn(
          "{} request(s) still unanswered after {} ms; giving up on them",
          inFlight.size(),
          drainLimit.toMillis());
    }
    writer.flush();
  }

  void accept(byte[] line) {
    try {
      acceptMessage(line);
    } catch (StackOverflowError | RuntimeException e) {
      // Last resort: whatever one message does, the next one is still read (Envelope's depth limit
      // keeps stack overflows out; this keeps a surprise from ending the session).
      log.warn("A message could not be handled: {}", e.toString());
      writer.write(
          JsonRpcErrors.reply(
              null, JsonRpcErrors.INVALID_REQUEST, "Invalid request: it could not be handled."));
    }
  }

  private void acceptMessage(byte[] line) {
    if (isBlank(line)) {
      return; // an empty line is no message; skipping it is what clients expect
    }
    if (line == LineReader.TOO_LONG) {
      writer.write(
          JsonRpcErrors.reply(
              null,
              JsonRpcErrors.INVALID_REQUEST,
              "Message too long: a line may hold at most "
                  + MAX_LINE_BYTES
                  + " bytes; it was discarded."));
      return;
    }
    JsonNode node;
    try {
      node = mapper.readTree(line);
    } catch (JacksonException | RuntimeException e) {
      writer.write(
          JsonRpcErrors.reply(
              null, JsonRpcErrors.PARSE_ERROR, "Parse error: the line is not valid JSON."));
      return;
    } catch (IOException e) {
      writer.write(
          JsonRpcErrors.reply(
              null, JsonRpcErrors.PARSE_ERROR, "Parse error: " + e.getClass().getSimpleName()));
      return;
    }
    Envelope envelope = Envelope.classify(node);
    if (envelope.problem() != null) {
      writer.write(
          JsonRpcErrors.reply(envelope.id(), JsonRpcErrors.INVALID_REQUEST, envelope.problem()));
      return;
    }
    switch (envelope.kind()) {
      case CANCELLED -> cancel(node.path("params").path("requestId"));
      case REQUEST -> dispatchRequest(envelope, node, line.length);
      case NOTIFICATION, RESPONSE -> dispatch(node, null);
    }
  }

  private void dispatchRequest(Envelope envelope, JsonNode node, int bytes) {
    Object key = InFlight.key(envelope.id());
    InFlight.Call call = inFlight.open(key);
    if (call == null) {
      writer.write(
          JsonRpcErrors.reply(
              envelope.id(),
              JsonRpcErrors.INVALID_REQUEST,
              "Request id " + envelope.id() + " is already in use by a request still running."));
      return;
    }
    if (!admission.offer(call, bytes, () -> dispatch(node, call))) {
      inFlight.close(call);
      writer.write(
          JsonRpcErrors.reply(
              envelope.id(),
              JsonRpcErrors.SERVER_BUSY,
              "Server busy: "
                  + admission.maxRunning()
                  + " requests are running and too many are waiting. Wait for some answers,"
                  + " then send it again."));
    }
  }

  /** Hands a message to the session; for a request, as a subscription the call can cancel. */
  private void dispatch(JsonNode node, InFlight.Call call) {
    if (call != null && call.ended()) {
      admission.finished(); // cancelled just as its turn came: nothing to run
      return;
    }
    JSONRPCMessage message;
    try {
      message = Envelope.toMessage(mapper, node);
    } catch (IllegalArgumentException e) {
      if (call != null) {
        inFlight.close(call);
        admission.finished();
      }
      Object id = call == null ? null : Envelope.idValue(node.get("id"));
      writer.write(
          JsonRpcErrors.reply(
              id,
              JsonRpcErrors.INVALID_REQUEST,
              "Invalid request: its fields have the wrong types."));
      return;
    }
    McpServerSession s = session;
    Mono<Void> handling = s.handle(message);
    if (call == null) {
      handling.subscribe(null, e -> log.warn("Handling a message failed: {}", e.toString()));
      return;
    }
    Disposable subscription =
        handling
            .doFinally(
                signal -> {
                  inFlight.close(call);
                  admission.finished();
                })
            .subscribe(null, e -> log.warn("Handling a request failed: {}", e.toString()));
    call.attach(subscription);
  }

  private void cancel(JsonNode requestId) {
    if (requestId.isMissingNode() || requestId.isNull()) {
      return;
    }
    InFlight.Call call = inFlight.get(InFlight.key(Envelope.idValue(requestId)));
    if (call != null && call.cancel()) {
      log.debug("Cancelled request {}", requestId);
      if (!call.started()) {
        inFlight.close(call); // it was waiting its turn: Admission will skip it
      }
    }
    // A cancellation for an unknown or finished request is ignored, as the spec asks.
  }

  private static boolean isBlank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return line != LineReader.TOO_LONG;
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::drain);
  }

  /** The session's view of the transport: sending is a synchronous, ordered write to stdout. */
  private final class SessionTransport implements McpServerTransport {

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.fromRunnable(
          () -> {
            if (message instanceof McpSchema.JSONRPCResponse response && response.id() != null) {
              InFlight.Call call = inFlight.get(InFlight.key(response.id()));
              if (call != null && !call.finish()) {
                return; // the request was cancelled: the spec says not to answer it
              }
            }
            writer.write(message);
          });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mcpMapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public void close() {
      // stdout stays open until the process ends; the read loop decides when that is.
    }
  }
}
