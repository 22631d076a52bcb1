package dev.cinchmcp.tool;

import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.WrittenFiles;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The one tool, {@code execute_code}: checks the arguments, runs the program on a {@link
 * CodeRunner}, and makes a tool result of what comes back; every failure is an {@code isError}
 * result a model can act on, nothing throws into the protocol layer.
 */
public final class ExecuteCodeTool {

  public static final String NAME = "execute_code";

  private static final Logger log = LoggerFactory.getLogger(ExecuteCodeTool.class);

  private final CodeRunner runner;
  private final ScheduledExecutorService timers;
  private final SandboxFacts facts;
  private final ResultView view;

  public ExecuteCodeTool(CodeRunner runner, ScheduledExecutorService timers, SandboxFacts facts) {
    this.runner = runner;
    this.timers = timers;
    this.facts = facts;
    this.view = new ResultView(facts);
  }

  public AsyncToolSpecification specification() {
    return AsyncToolSpecification.builder()
        .tool(definition())
        .callHandler((exchange, request) -> call(new SessionChannel(exchange), request))
        .build();
  }

  public Tool definition() {
    return Tool.builder(NAME, ToolSchemas.input(facts))
        .title("Run code in a sandbox")
        .description(description())
        .outputSchema(ToolSchemas.output())
        // readOnly: a fresh sandbox, thrown away after; not idempotent: output varies and every run
        // is billed, so a client should not repeat calls on its own; no network: not openWorld.
        .annotations(
            ToolAnnotations.builder()
                .title("Run code in a sandbox")
                .readOnlyHint(true)
                .destructiveHint(false)
                .idempotentHint(false)
                .openWorldHint(false)
                .build())
        .build();
  }

  String description() {
    return """
        Runs a complete Python or JavaScript program in a brand-new, isolated sandbox (%s) and \
        returns what it printed (stdout and stderr), its exit code and how long it took. The \
        sandbox is not the user's machine: use it freely whenever running code answers better than \
        reasoning, e.g. exact arithmetic, parsing or transforming data, testing a regex, checking \
        that a snippet works.

        Write code that fits these limits:
        - %s, %s.
        - No network: HTTP, DNS and package installs all fail.
        - %s.
        - %s.
        - Nothing persists between calls: each program must be complete, with its own imports and \
        data.
        - What it prints comes back (a bare expression on the last line shows nothing). %s Print \
        results, not bulk data.
        - Pictures come back as images: matplotlib figures (plt.show(), or left open at the end; \
        where matplotlib is installed) and PNG, JPEG, GIF or WebP files the program writes under \
        /tmp, at most %d per call, large ones scaled down. Other files it writes there are listed \
        by name and size, small text files shown whole.
        A non-zero exit or a timeout is reported as an error, with the output so far (a failed \
        program that drew pictures is reported with an error field first instead, so that its \
        pictures reach you).

        Give the program its data as input instead of pasting it into the code: "stdin" (text on \
        standard input), "files" (path -> text, written under %s, the working directory; e.g. \
        {"data/input.csv": "..."}, then open('data/input.csv')) and "args" (command-line \
        arguments). All three together hold at most %d MB of text; at most %d files, with relative \
        paths only (no '..')."""
        .formatted(
            facts.isolation(),
            facts.runtimes(),
            facts.packages(),
            Character.toUpperCase(SandboxFacts.fileSystem().charAt(0))
                + SandboxFacts.fileSystem().substring(1),
            facts.limits(),
            SandboxFacts.outputCut(),
            WrittenFiles.MAX_PICTURES,
            ProgramInput.WORK_DIR,
            ProgramInput.MAX_TOTAL_BYTES / 1_000_000,
            ProgramInput.MAX_FILES);
  }

  /** Always a tool result; the Mono fails only if cancelled, which stops the run. */
  public Mono<CallToolResult> call(CallChannel channel, CallToolRequest request) {
    ArgumentCheck.Outcome checked = ArgumentCheck.check(request.arguments());
    if (checked.problem() != null) {
      return Mono.just(ResultView.error(checked.problem()));
    }
    return Mono.defer(
        () -> {
          ProgressReporter progress =
              ProgressReporter.start(channel, request.progressToken(), timers);
          return Mono.fromFuture(() -> runner.runCall(checked.program(), progress))
              .flatMap(run -> shown(run, checked.input()))
              .onErrorResume(error -> Mono.just(ResultView.error(failureMessage(error))))
              // Stop progress before the result is handed on, so no progress follows the reply.
              .doOnNext(result -> progress.stop())
              .doFinally(signal -> progress.stop());
        });
  }

  /**
   * With pictures, made on their own thread: scaling takes up to a second, which must not hold the
   * thread that completed the run (cinch: the HTTP client's), and one at a time bounds the memory.
   */
  private Mono<CallToolResult> shown(RunResult run, ProgramInput input) {
    Mono<CallToolResult> shown = Mono.fromCallable(() -> view.of(run, input));
    return run.files().anything() ? shown.subscribeOn(PicturesThread.SCHEDULER) : shown;
  }

  /** Made at the first picture: a call without any (the usual one) starts no thread for it. */
  private static final class PicturesThread {
    static final Scheduler SCHEDULER =
        Schedulers.fromExecutorService(
            Executors.newSingleThreadExecutor(DaemonThreads.named("cinchmcp-pictures")),
            "cinchmcp-pictures");
  }

  private static String failureMessage(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof RunFailure failure) {
      return failure.getMessage();
    }
    if (cause instanceof CancellationException) {
      return "The run was cancelled.";
    }
    // A bug of ours: log it for the user, give the model a plain sentence, never a stack trace.
    log.error("execute_code failed unexpectedly", cause);
    return "The server hit an internal error while running the code ("
        + cause.getClass().getSimpleName()
        + "). "
        + RunFailure.Ran.MAYBE.sentence()
        + " Try again once; if it happens again, tell the user to check the server's log.";
  }

  /** A 2025-era call's channel: the SDK's session, which applies {@code logging/setLevel}. */
  private record SessionChannel(McpAsyncServerExchange exchange) implements CallChannel {

    @Override
    public void progress(ProgressNotification notification) {
      exchange
          .progressNotification(notification)
          .subscribe(
              null, e -> log.debug("Could not send a progress notification: {}", e.toString()));
    }

    @Override
    public void log(LoggingMessageNotification notification) {
      exchange
          .loggingNotification(notification)
          .subscribe(null, e -> log.debug("Could not send a log notification: {}", e.toString()));
    }
  }
}
