package dev.cinchmcp.backend.choice;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runner whose backend is still being built on another thread: an HTTP client costs tens of ms
 * (TLS, a selector thread) that {@code initialize} should not wait for; a first call waits instead.
 */
record DeferredRunner(String name, CompletableFuture<CodeRunner> backend, LongSupplier nanoTime)
    implements CodeRunner, AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(DeferredRunner.class);

  DeferredRunner(String name, CompletableFuture<CodeRunner> backend) {
    this(name, backend, System::nanoTime);
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    CompletableFuture<RunResult> result = new CompletableFuture<>();
    long askedAt = nanoTime.getAsLong();
    backend.whenComplete(
        (runner, error) -> {
          if (error != null) {
            result.completeExceptionally(unwrapped(error));
          } else if (!result.isDone()) { // else cancelled while the backend was being built
            // The wait for the backend counts against the call's deadline.
            CompletableFuture<RunResult> run =
                runner.run(program, listener, Duration.ofNanos(nanoTime.getAsLong() - askedAt));
            result.handle((r, e) -> result.isCancelled() && run.cancel(true));
            run.handle(
                (r, e) ->
                    e != null ? result.completeExceptionally(unwrapped(e)) : result.complete(r));
          }
        });
    return result;
  }

  private static Throwable unwrapped(Throwable error) {
    return error instanceof CompletionException && error.getCause() != null
        ? error.getCause()
        : error;
  }

  @Override
  public boolean stopNow() {
    CodeRunner runner = backend.getNow(null);
    // One still being built may have started threads (an HTTP client's selector): not clean.
    return runner != null ? runner.stopNow() : backend.isDone();
  }

  @Override
  public void close() {
    if (backend.getNow(null) instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.debug("Closing the backend failed: {}", e.toString());
      }
    }
  }
}
