package dev.cinchmcp.server;

import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.choice.BackendChoice;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import dev.cinchmcp.json.SdkJsonMapper;
import dev.cinchmcp.launch.QuickExit;
import dev.cinchmcp.mcp2026.ServerInfo;
import dev.cinchmcp.mcp2026.StatelessServer;
import dev.cinchmcp.tool.BuiltInSchemaCheck;
import dev.cinchmcp.tool.ExecuteCodeTool;
import dev.cinchmcp.transport.EarlyInput;
import dev.cinchmcp.transport.StdioTransport;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Puts the server together (settings, backend, tool, MCP session, stdio) and runs it. */
public final class CinchMcpServer {

  private static final Logger log = LoggerFactory.getLogger(CinchMcpServer.class);

  private final Settings settings;

  public CinchMcpServer(Settings settings) {
    this.settings = settings;
  }

  /** Until {@code in} ends and every call read has been answered. */
  public void serve(InputStream in, OutputStream out) {
    // A signal stops at once from the start: a client that only connects stops the server while
    // the rest is still being built.
    StopOnSignal stopOnSignal = new StopOnSignal(in);
    Runtime.getRuntime().addShutdownHook(stopOnSignal);
    try {
      serve(in, out, stopOnSignal);
    } catch (RuntimeException | Error e) {
      // Not stopping on a signal: a server that failed must not kill its JVM when that ends.
      removeQuietly(stopOnSignal);
      throw e;
    }
  }

  private void serve(InputStream in, OutputStream out, StopOnSignal stopOnSignal) {
    JsonStartUp json = new JsonStartUp();
    // Both take the mapper still being made: the server is put together meanwhile.
    SdkJsonMapper mcpMapper = new SdkJsonMapper(json.mapper());
    // Answers still owed at the end of stdin are waited for up to the API timeout, and a bit more.
    StdioTransport transport =
        new StdioTransport(json.mapper(), mcpMapper, in, out, settings.timeout().plusSeconds(5));
    stopOnSignal.transport = transport;
    if (in instanceof EarlyInput early && early.answeredFirst()) {
      transport.firstWritten().complete(null); // the client is connected (EarlyInput.answerEarly)
    }
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("cinch-io"));
    json.start(workers);
    // The backend is not held back until the client is connected: built then, it would be under
    // way just as a client that only connects (`claude mcp list`) stops the server.
    json.warmCallsWhenConnected(transport.firstWritten(), workers);
    // And the stop's own exit, once the first answer is out, so that a stop loads nothing first.
    transport.firstWritten().thenRunAsync(QuickExit::prepare, workers);
    ScheduledThreadPoolExecutor timers = timer("cinch-timer");
    // Progress notifications get their own timer thread: each is a write to stdout, which blocks
    // while the client is not reading, and must never hold up a call's deadline.
    ScheduledThreadPoolExecutor progressTimers = timer("cinch-progress");
    if (!stopOnSignal.mayStartBackend()) {
      return; // a signal came first: its hook ends the process
    }
    BackendChoice backend =
        BackendChoice.choose(
            settings, json.initializeReady(), workers, timers, BackendChoice::startLocal);
    stopOnSignal.runner = backend.runner();

    ExecuteCodeTool tool = new ExecuteCodeTool(backend.runner(), progressTimers, backend.facts());
    // 2026-07-28 needs nothing of the SDK's server (~50 ms to build on Java 17): it is built on a
    // worker when a 2025 message first needs it, so Claude Code's discover does not share the CPU.
    transport.setStatelessServer(
        new StatelessServer(
            tool, ServerInfo.NAME, Version.get(), ServerInfo.INSTRUCTIONS, mcpMapper));
    // A first line already read and left for the server is a 2025 client's first message: its
    // session is built now, beside the mapper, not after the line is parsed (40-50 ms sooner).
    CompletableFuture<Void> wanted =
        in instanceof EarlyInput early && early.firstLineLeft()
            ? CompletableFuture.completedFuture(null)
            : transport.sessionWanted();
    CompletableFuture<McpAsyncServer> server =
        wanted.thenApplyAsync(ready -> sdkSession(transport, tool, mcpMapper), workers);

    logReady(backend);
    transport.run();
    if (stopOnSignal.stopping()) {
      return; // the read ended because a signal stops the server: its hook ends the process
    }
    // The hook stays until all is closed: a client often closes stdin and signals at once, and a
    // signal during the close below (local waits up to a second) must still stop at once.
    McpAsyncServer built = server.isDone() ? server.join() : null;
    if (built != null) {
      built.close();
    }
    if (backend.runner() instanceof AutoCloseable closeable) {
      closeQuietly(closeable);
    }
    workers.shutdownNow();
    timers.shutdownNow();
    progressTimers.shutdownNow();
    removeQuietly(stopOnSignal);
  }

  /** Cancelled deadlines (almost all) are dropped at once, not kept with their calls. */
  private static ScheduledThreadPoolExecutor timer(String name) {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named(name));
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }

  private static void logReady(BackendChoice backend) {
    if (backend.usable()) {
      log.info("cinch-mcp {} ready on stdio: {}", Version.get(), backend.summary());
    } else {
      log.error(
          "cinch-mcp {} started, but cannot run code until its configuration is fixed:",
          Version.get());
      backend.problems().forEach(p -> log.error("  {}", p));
    }
  }

  /** The SDK's session for the 2025 revisions, or null (then only 2026-07-28 is served). */
  private static McpAsyncServer sdkSession(
      StdioTransport transport, ExecuteCodeTool tool, SdkJsonMapper mcpMapper) {
    try {
      return McpServer.async(transport)
          .serverInfo(ServerInfo.NAME, Version.get())
          .jsonMapper(mcpMapper)
          .jsonSchemaValidator(new BuiltInSchemaCheck())
          // ExecuteCodeTool checks its two arguments itself, with clearer messages.
          .validateToolInputs(false)
          .capabilities(ServerCapabilities.builder().tools(false).logging().build())
          .tools(tool.specification())
          .build();
    } catch (RuntimeException | LinkageError e) {
      log.error("The MCP session could not be set up; only 2026-07-28 is served", e);
      transport.noSession();
      return null;
    }
  }

  private static void removeQuietly(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException stopping) {
      // the JVM is ending already
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      log.debug("Closing the backend failed: {}", e.toString());
    }
  }
}
