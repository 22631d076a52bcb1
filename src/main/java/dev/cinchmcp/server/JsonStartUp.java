package dev.cinchmcp.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.transport.JsonWarmUp;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The mapper and Jackson's warm-ups over two cores: one thread the mapper and writers, the other
 * the parser and SecureRandom. What only calls need waits for the client's connect.
 */
final class JsonStartUp {

  static final long CONNECT_FIRST_MS = 500;

  private final CompletableFuture<ObjectMapper> mapper = new CompletableFuture<>();
  private CompletableFuture<Void> initializeReady;

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

  CompletableFuture<Void> initializeReady() {
    return initializeReady;
  }

  /** What only calls need, after the first answer: before, it would take CPU from the connect. */
  void warmCallsWhenConnected(CompletableFuture<Void> firstWritten, ExecutorService workers) {
    CompletableFuture<Void> connected =
        CompletableFuture.allOf(
            initializeReady,
            firstWritten.copy().completeOnTimeout(null, CONNECT_FIRST_MS, TimeUnit.MILLISECONDS));
    connected.thenRunAsync(() -> JsonWarmUp.calls(mapper.join()), workers);
  }
}
