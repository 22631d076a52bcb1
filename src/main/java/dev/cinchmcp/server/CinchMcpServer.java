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
import dev.cinchmcp.transport.JsonWarmUp;
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
    // A signal stops at once from the start: a client that only connects stops it mid-build.
    StopOnSignal stopOnSignal = new StopOnSignal(in);
    Runtime.getRuntime().addShutdownHook(stopOnSignal);
    try {
      serve(in, out, stopOnSignal);
    } catch (RuntimeException | Error e) {
      // a server that failed must not kill its JVM when a signal comes later
      removeQuietly(stopOnSignal);
      throw e;
    }
  }

  private void serve(InputStream in, OutputStream out, StopOnSignal stopOnSignal) {
    JsonWarmUp json = new JsonWarmUp();
    SdkJsonMapper mcpMapper = new SdkJsonMapper(json.mapper());
    StdioTransport transport =
        new StdioTransport(json.mapper(), mcpMapper, in, out, settings.timeout().plusSeconds(5));
    stopOnSignal.transport = transport;
    if (in instanceof EarlyInput early && early.answeredFirst()) {
      transport.firstWritten().complete(null); // the client is connected
    }
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("cinch-io"));
    json.start(workers, transport.firstWritten());
    // The stop's own exit is readied once the first answer is out: a stop then loads nothing.
    transport.firstWritten().thenRunAsync(QuickExit::prepare, workers);
    ScheduledThreadPoolExecutor timers = timer("cinch-timer");
    // its own: a write to a client not reading blocks, and must never hold up a call's deadline
    ScheduledThreadPoolExecutor progressTimers = timer("cinch-progress");
    if (!stopOnSignal.mayStartBackend()) {
      return; // a signal came first: its hook ends the process
    }
    BackendChoice backend =
        BackendChoice.choose(
            settings, json.initializeReady(), workers, timers, BackendChoice::startLocal);
    stopOnSignal.runner = backend.runner();

    ExecuteCodeTool tool = new ExecuteCodeTool(backend.runner(), progressTimers, backend.facts());
    transport.setStatelessServer(new StatelessServer(tool, mcpMapper));
    // The SDK's server (~50 ms to build on Java 17) is built when a 2025 message needs it; a first
    // line left for the server is one (initialize): built now, 40-50 ms sooner than after parsing.
    CompletableFuture<Void> wanted =
        in instanceof EarlyInput early && early.firstLineLeft()
            ? CompletableFuture.completedFuture(null)
            : transport.sessionWanted();
    CompletableFuture<McpAsyncServer> server =
        wanted.thenApplyAsync(ready -> sdkSession(transport, tool, mcpMapper), workers);

    logReady(backend);
    transport.run();
    if (stopOnSignal.stopping) {
      return; // the read ended because a signal stops the server: its hook ends the process
    }
    // The hook stays until all is closed: a signal during the close (up to 1 s) still stops.
    McpAsyncServer built = server.getNow(null);
    if (built != null) {
      built.close();
    }
    if (backend.runner() instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.debug("Closing the backend failed: {}", e.toString());
      }
    }
    workers.shutdownNow();
    timers.shutdownNow();
    progressTimers.shutdownNow();
    removeQuietly(stopOnSignal);
  }

  /** Cancelled deadlines (almost all) are dropped at once. */
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
}
