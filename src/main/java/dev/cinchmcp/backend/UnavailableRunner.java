package dev.cinchmcp.backend;

import java.util.concurrent.CompletableFuture;

/**
 * Stands in for a backend that cannot run anything, e.g. when the configuration is incomplete:
 * every call fails at once with the same message, and nothing is sent anywhere.
 */
public final class UnavailableRunner implements CodeRunner {

  private final String name;
  private final RunFailure failure;

  public UnavailableRunner(String name, RunFailure failure) {
    this.name = name;
    this.failure = failure;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CompletableFuture<RunResult> run(Program program, RunListener listener) {
    return CompletableFuture.failedFuture(failure);
  }
}
