package dev.cinchmcp.backend.choice;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.util.concurrent.CompletableFuture;

/**
 * Stands in for a backend that cannot run anything, e.g. when the configuration is incomplete:
 * every call fails at once with the same {@code failure}, and nothing is sent anywhere.
 */
public record UnavailableRunner(String name, RunFailure failure) implements CodeRunner {

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    return CompletableFuture.failedFuture(failure);
  }
}
