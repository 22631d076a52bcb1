package dev.cinchmcp.backend.choice;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import java.util.concurrent.CompletableFuture;

/** A backend that cannot run: every call fails at once with {@code failure}. */
public record UnavailableRunner(String name, RunFailure failure) implements CodeRunner {

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    return CompletableFuture.failedFuture(failure);
  }
}
