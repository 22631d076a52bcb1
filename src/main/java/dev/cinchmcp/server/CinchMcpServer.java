package dev.cinchmcp.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import dev.cinchmcp.tool.BuiltInSchemaCheck;
import dev.cinchmcp.tool.ExecuteCodeTool;
import dev.cinchmcp.transport.JsonWarmUp;
import dev.cinchmcp.transport.SdkJsonMapper;
import dev.cinchmcp.transport.StdioTransport;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the server together (settings, backend, tool, MCP session, stdio) and runs it until stdin
 * ends.
 */
public final class CinchMcpServer {

  private static final Logger log = LoggerFactory.getLogger(CinchMcpServer.class);

  private final Settings settings;

  public CinchMcpServer(Settings settings) {
    this.settings = settings;
  }

  /**
   * Serves MCP on the given streams until {@code in} ends and every call read has been answered.
   */
  public void serve(InputStream in, OutputStream out) {
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("cinch-io"));
    // Start-up is split over two cores. One thread builds the JSON mapper, then readies what
    // initialize needs (Jackson's writers); another, side by side, readies the JSON parser (its
    // class set-up is slow) and the session id's SecureRandom; after both, what tool calls need
    // and the backend are readied. This thread builds the MCP session meanwhile; initialize waits
    // only for the mapper.
    CompletableFuture<ObjectMapper> mapperReady = new CompletableFuture<>();
    CompletableFuture<Void> writersReady =
        CompletableFuture.runAsync(
            () -> {
              try {
                mapperReady.complete(
                    new ObjectMapper()
                        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false));
              } catch (RuntimeException | LinkageError e) {
                mapperReady.completeExceptionally(e);
                return;
              }
              JsonWarmUp.initialize(mapperReady.join());
            },
            workers);
    CompletableFuture<Void> parserReady =
        CompletableFuture.runAsync(
            () -> {
              JsonWarmUp.parser();
              UUID.randomUUID();
            },
            workers);
    CompletableFuture<Void> initializeReady = CompletableFuture.allOf(writersReady, parserReady);
    initializeReady.thenRunAsync(() -> JsonWarmUp.calls(mapperReady.join()), workers);
    ScheduledThreadPoolExecutor timers =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("cinch-timer"));
    // Every call schedules a deadline that is almost always cancelled: drop those at once, rather
    // than keep them (and the calls they refer to) queued until the deadline would have passed.
    timers.setRemoveOnCancelPolicy(true);
    // Progress notifications get their own timer thread: each is a write to stdout, which blocks
    // while the client is not reading, and must never hold up a call's deadline.
    ScheduledThreadPoolExecutor progressTimers =
        new ScheduledThreadPoolExecutor(1, DaemonThreads.named("cinch-progress"));
    progressTimers.setRemoveOnCancelPolicy(true);
    BackendChoice backend =
        BackendChoice.choose(settings, initializeReady, workers, timers, BackendChoice::startLocal);

    // Both take the mapper still being made: the server is put together meanwhile.
    SdkJsonMapper mcpMapper = new SdkJsonMapper(mapperReady);
    // Answers still owed at the end of stdin are waited for up to the API timeout, and a bit more.
    StdioTransport transport =
        new StdioTransport(mapperReady, mcpMapper, in, out, settings.timeout().plusSeconds(5));

    McpAsyncServer server =
        McpServer.async(transport)
            .serverInfo("cinch-mcp", Version.get())
            .jsonMapper(mcpMapper)
            .jsonSchemaValidator(new BuiltInSchemaCheck())
            // ExecuteCodeTool checks its two arguments itself, with clearer messages.
            .validateToolInputs(false)
            .capabilities(ServerCapabilities.builder().tools(false).logging().build())
            .tools(
                new ExecuteCodeTool(
                        backend.runner(),
                        progressTimers,
                        new SandboxFacts(backend.runtimes(), backend.limits(), backend.isolation()))
                    .specification())
            .build();

    if (backend.usable()) {
      log.info("cinch-mcp {} ready on stdio: {}", Version.get(), backend.summary());
    } else {
      log.error(
          "cinch-mcp {} started, but cannot run code until its configuration is fixed:",
          Version.get());
      backend.problems().forEach(p -> log.error("  {}", p));
    }
    // SIGTERM (or Ctrl-C) while calls run: answer them first, as at the end of stdin; then exit 0.
    // The drain is bounded as a whole (a client that stopped reading stdout cannot hold it up),
    // so the process ends within the drain limit whatever the client does.
    Thread drainOnSignal =
        new Thread(
            () -> {
              transport.drain();
              // Calls still running after the drain: their sandboxes must not outlive the server.
              if (backend.runner() instanceof AutoCloseable closeable) {
                closeQuietly(closeable);
              }
              Runtime.getRuntime().halt(0);
            },
            "cinch-drain-on-exit");
    Runtime.getRuntime().addShutdownHook(drainOnSignal);
    transport.run();
    Runtime.getRuntime().removeShutdownHook(drainOnSignal);
    server.close();
    if (backend.runner() instanceof AutoCloseable closeable) {
      closeQuietly(closeable);
    }
    workers.shutdownNow();
    timers.shutdownNow();
    progressTimers.shutdownNow();
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      log.debug("Closing the backend failed: {}", e.toString());
    }
  }
}
