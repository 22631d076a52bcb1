package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The life of a request through the transport, with a fake session whose every step the test
 * decides: each interleaving of a cancellation (before, during and after dispatch) and of an id's
 * reuse is made to happen on purpose, not hoped for.
 */
class RequestLifeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private StdioTransport transport;
  private FakeSession session;

  /** A session that records what it is handed and does, per request, what the test says. */
  static final class FakeSession extends McpServerSession {
    final McpServerTransport link;
    final List<JSONRPCRequest> handled = new CopyOnWriteArrayList<>();
    final Map<String, JSONRPCRequest> byMarker = new ConcurrentHashMap<>();
    final List<String> disposed = new CopyOnWriteArrayList<>();
    // The context each request's work runs in: the real session answers from inside that work, and
    // an answer sent here, late or not, is sent with its own request's context as the session
    // would.
    final Map<String, ContextView> contexts = new ConcurrentHashMap<>();
    volatile Function<JSONRPCRequest, Mono<Void>> behaviour = r -> Mono.never();

    FakeSession(McpServerTransport link) {
      super("fake", Duration.ofSeconds(1), link, null, Map.of(), Map.of());
      this.link = link;
    }

    @Override
    public Mono<Void> handle(JSONRPCMessage message) {
      if (!(message instanceof JSONRPCRequest request)) {
        return Mono.empty();
      }
      handled.add(request);
      byMarker.put(marker(request), request);
      Mono<Void> work = behaviour.apply(request); // a behaviour that throws, throws here
      return Mono.deferContextual(
              context -> {
                contexts.put(marker(request), context);
                return work;
              })
          .doOnCancel(() -> disposed.add(marker(request)));
    }

    /** The answer the session would send, from inside the request's own work. */
    Mono<Void> answer(JSONRPCRequest request) {
      Mono<Void> send =
          link.sendMessage(JSONRPCResponse.result(request.id(), Map.of("for", marker(request))));
      ContextView context = contexts.get(marker(request));
      return context == null ? send : send.contextWrite(context);
    }

    static String marker(JSONRPCRequest request) {
      return String.valueOf(((Map<?, ?>) request.params()).get("marker"));
    }
  }

  @BeforeEach
  void start() {
    transport =
        new StdioTransport(
            java.util.concurrent.CompletableFuture.completedFuture(JSON),
            new JacksonMcpJsonMapper(JSON),
            new ByteArrayInputStream(new byte[0]),
            out,
            Duration.ofSeconds(2));
    transport.setSessionFactory(link -> session = new FakeSession(link));
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  private void send(String line) {
    transport.accept(line.getBytes(StandardCharsets.UTF_8));
  }

  private void call(Object id, String marker) {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + JSON.valueToTree(id)
            + ",\"method\":\"work\",\"params\":{\"marker\":\""
            + marker
            + "\"}}");
  }

  private void cancel(Object id) {
    send(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + JSON.valueToTree(id)
            + "}}");
  }

  private void answer(String marker) {
    session.answer(session.byMarker.get(marker)).block();
  }

  private List<JsonNode> written() throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        lines.add(JSON.readTree(line));
      }
    }
    return lines;
  }

  @Test
  void anAnswerIsWrittenWithTheIdAsTheClientWroteIt() throws IOException {
    call(5, "a");
    answer("a");
    List<JsonNode> written = written();
    assertEquals(1, written.size());
    assertEquals(5, written.get(0).get("id").asInt());
    assertEquals("a", written.get(0).path("result").path("for").asText());
    assertTrue(
        !(session.handled.get(0).id() instanceof Integer) || !session.handled.get(0).id().equals(5),
        "the session never sees the client's id");
  }

  @Test
  void cancelledWhileQueuedItNeverReachesTheSession() throws IOException {
    for (int i = 0; i < StdioTransport.MAX_RUNNING; i++) {
      call("hold" + i, "hold" + i);
    }
    call("queued", "queued");
    assertEquals(StdioTransport.MAX_RUNNING, session.handled.size(), "the last one waits its turn");

    cancel("queued");
    session.behaviour = r -> session.answer(r);
    answer("hold0"); // a place frees up: the cancelled request must not take it

    assertTrue(session.byMarker.get("queued") == null, "a cancelled request never started");
    assertTrue(written().stream().noneMatch(m -> m.path("id").asText().equals("queued")));
  }

  @Test
  void cancelledInTheInstantItIsDispatchedItIsNeverAnswered() throws IOException {
    // The cancellation arrives after the request has left the queue but before its work is
    // attached, and the session then answers at once: the old transport wrote that answer.
    session.behaviour =
        r -> {
          cancel("now");
          return Mono.defer(() -> session.answer(r));
        };
    call("now", "now");

    assertEquals(1, session.handled.size());
    assertTrue(written().isEmpty(), "a cancelled request gets no answer: " + written());
  }

  @Test
  void cancelledWhileRunningItsWorkIsDisposedAndALateAnswerIsDropped() throws IOException {
    call(7, "running");
    cancel(7);

    assertEquals(List.of("running"), session.disposed);
    answer("running"); // the work did not notice in time and answers anyway
    assertTrue(written().isEmpty(), written().toString());
  }

  @Test
  void aCancellationAfterTheAnswerChangesNothing() throws IOException {
    call(8, "done");
    answer("done");
    cancel(8);
    assertEquals(1, written().size());
    assertTrue(session.disposed.isEmpty());
  }

  @Test
  void anIdReusedRightAfterItsAnswerIsANewRequest() throws IOException {
    call(9, "first");
    answer("first");
    call(9, "second"); // the client had the answer, so the id is its to reuse
    answer("second");

    List<JsonNode> written = written();
    assertEquals(2, written.size(), written.toString());
    assertEquals("first", written.get(0).path("result").path("for").asText());
    assertEquals("second", written.get(1).path("result").path("for").asText());
    assertTrue(written.stream().allMatch(m -> m.get("id").asInt() == 9));
  }

  @Test
  void aStaleAnswerNeverAnswersTheRequestThatReusedItsId() throws IOException {
    call("r", "old");
    cancel("r");
    call("r", "new"); // reused at once after the cancellation
    answer("old"); // the cancelled work's answer arrives late
    assertTrue(written().isEmpty(), "the stale answer went out as the new one's: " + written());

    answer("new");
    List<JsonNode> written = written();
    assertEquals(1, written.size());
    assertEquals("new", written.get(0).path("result").path("for").asText());
  }

  @Test
  void anIdInUseByARunningRequestIsRefusedAndTheRunningOneIsUntouched() throws IOException {
    call(10, "running");
    call(10, "again");
    answer("running");
    List<JsonNode> written = written();
    assertEquals(-32600, written.get(0).path("error").path("code").asInt());
    assertEquals("running", written.get(1).path("result").path("for").asText());
    assertEquals(1, session.handled.size());
  }

  @Test
  void anInternalErrorReachesTheClientWithoutJavaText() throws IOException {
    session.behaviour =
        r ->
            session.link.sendMessage(
                new JSONRPCResponse(
                    "2.0",
                    r.id(),
                    null,
                    new JSONRPCResponse.JSONRPCError(
                        -32603,
                        "Cannot invoke \"io.modelcontextprotocol.spec.McpSchema$CallToolRequest.name()\"",
                        List.of("java.lang.NullPointerException"))));
    call(11, "broken");
    JsonNode reply = written().get(0);
    assertEquals(-32603, reply.path("error").path("code").asInt());
    assertTrue(!reply.toString().contains("java") && !reply.toString().contains("Cannot invoke"));
  }

  @Test
  void aSessionThatThrowsStillAnswersAndFreesThePlaceAndTheId() throws IOException {
    session.behaviour =
        r -> {
          throw new IllegalStateException("boom");
        };
    call(12, "throws");
    session.behaviour = r -> session.answer(r);
    call(12, "again"); // the id is free again, and so is the place

    List<JsonNode> written = written();
    assertEquals(-32600, written.get(0).path("error").path("code").asInt(), written.toString());
    assertEquals("again", written.get(1).path("result").path("for").asText());
  }
}
