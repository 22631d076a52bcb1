package dev.cinchmcp.server;

import dev.cinchmcp.backend.docker.DockerRunner;
import dev.cinchmcp.backend.docker.DockerSettings;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.Settings;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The docker backend's part of {@link BackendChoice}, in a class of its own so that nothing of the
 * engine client is loaded unless that backend is asked for (or {@code auto} has nothing else).
 */
final class DockerChoice {

  private DockerChoice() {}

  static DockerSettings settingsOf(Settings settings) {
    DockerOptions options = settings.docker();
    return DockerSettings.of(
        options.pythonImage(),
        options.nodeImage(),
        options.runtime().orElse(null),
        options.discovery(),
        settings.limits());
  }

  /**
   * {@code CINCH_BACKEND=docker}: the engine's runner, or one that says what to fix; a docker
   * setting given wrong ({@code CINCH_DOCKER_*}) is said rather than run with its default.
   */
  static BackendChoice docker(Settings settings, CompletableFuture<?> after) {
    List<String> wrong =
        settings.problems().stream().filter(p -> p.startsWith("CINCH_DOCKER_")).toList();
    if (!wrong.isEmpty()) {
      return BackendChoice.unavailable(wrong);
    }
    DockerRunner runner = DockerRunner.start(settingsOf(settings), settings.docker().pool(), after);
    if (runner.usable()) {
      return usable(runner);
    }
    // The runner itself answers every call with what to fix.
    return new BackendChoice(
        runner,
        runner.runtimes(),
        runner.limits(),
        runner.isolation(),
        runner.packages(),
        runner.summary(),
        List.of("The docker backend is not available: " + runner.unavailableReason()),
        runner.timeLimitSeconds());
  }

  /**
   * For {@code auto} with no key and no local gVisor: the engine's runner when an engine answers
   * and can be used, else why not.
   */
  static Result standIn(Settings settings, CompletableFuture<?> after) {
    DockerSettings docker = settingsOf(settings);
    Optional<String> answering = DockerRunner.engineAnswers(docker);
    if (answering.isEmpty()) {
      return new Result(null, "no container engine answered either");
    }
    DockerRunner runner = DockerRunner.start(docker, settings.docker().pool(), after);
    if (runner.usable()) {
      return new Result(usable(runner), null);
    }
    runner.close();
    return new Result(null, "nor the container engine: " + runner.unavailableReason());
  }

  record Result(BackendChoice choice, String whyNot) {}

  private static BackendChoice usable(DockerRunner runner) {
    return new BackendChoice(
        runner,
        runner.runtimes(),
        runner.limits(),
        runner.isolation(),
        runner.packages(),
        runner.summary(),
        List.of(),
        runner.timeLimitSeconds());
  }
}
