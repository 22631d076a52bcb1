package dev.cinchmcp.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.transport.JsonWarmUp;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The JSON mapper and Jackson's warm-ups, split over two cores at start-up. One thread builds the
 * mapper, then readies what {@code initialize} needs (Jackson's writers); another, side by side,
 * readies the JSON parser (its class set-up is slow) and the session id's SecureRandom. What only
 * tool calls need is readied after both, once the client is connected. The server is put together
 * meanwhile on the caller's thread; {@code initialize} waits only for the mapper.
 */
final class JsonStartUp {

  /** The longest the work only calls need waits for the client's first answer. */
  static final long CONNECT_FIRST_MS = 500;

  private final CompletableFuture<ObjectMapper> mapper = new CompletableFuture<>();
  private CompletableFuture<Void> initializeReady;

  /** The mapper, still being made once {@link #start} has run. */
  CompletableFuture<ObjectMapper> mapper() {
    return mapper;
  }

  /** Starts making the mapper and readying the parser, on {@code workers}. */
  void start(ExecutorService workers) {
    CompletableFuture<Void> writersReady =
        CompletableFuture.runAsync(
            () -> {
              try {
                mapper.complete(
                    new ObjectMapper()
                        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false));
              } catch (RuntimeException | LinkageError e) {
                mapper.completeExceptionally(e);
                return;
              }
              JsonWarmUp.initialize(mapper.join());
            },
            workers);
    CompletableFuture<Void> parserReady =
        CompletableFuture.runAsync(
            () -> {
              JsonWarmUp.parser();
              UUID.randomUUID();
            },
            workers);
    initializeReady = CompletableFuture.allOf(writersReady, parserReady);
  }

  /** Done when what {@code initialize} needs is ready. */
  CompletableFuture<Void> initializeReady() {
    return initializeReady;
  }

  /**
   * Readies what only calls need once the client is connected ({@code firstWritten}), or half a
   * second at most: on two cores it would take CPU from the connect itself.
   */
  void warmCallsWhenConnected(CompletableFuture<Void> firstWritten, ExecutorService workers) {
    CompletableFuture<Void> connected =
        CompletableFuture.allOf(
            initializeReady,
            firstWritten.copy().completeOnTimeout(null, CONNECT_FIRST_MS, TimeUnit.MILLISECONDS));
    connected.thenRunAsync(() -> JsonWarmUp.calls(mapper.join()), workers);
  }
}
