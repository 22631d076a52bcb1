package dev.cinchmcp.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.CodeRunner;
import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import dev.cinchmcp.json.SdkJsonMapper;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the server together (settings, backend, tool, MCP session, stdio) and runs it until stdin
 * ends.
 */
public final class CinchMcpServer {

  private static final Logger log = LoggerFactory.getLogger(CinchMcpServer.class);

  /** The longest the work only calls need waits for the client's first answer. */
  static final long CONNECT_FIRST_MS = 500;

  private final Settings settings;

  public CinchMcpServer(Settings settings) {
    this.settings = settings;
  }

  /**
   * Serves MCP on the given streams until {@code in} ends and every call read has been answered.
   */
  public void serve(InputStream in, OutputStream out) {
    // A signal (SIGINT, SIGTERM, SIGHUP: the client is leaving) stops at once, from the start: a
    // client that only connects stops the server while the rest is still being built.
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
    CompletableFuture<ObjectMapper> mapperReady = new CompletableFuture<>();
    // Both take the mapper still being made: the server is put together meanwhile.
    SdkJsonMapper mcpMapper = new SdkJsonMapper(mapperReady);
    // Answers still owed at the end of stdin are waited for up to the API timeout, and a bit more.
    StdioTransport transport =
        new StdioTransport(mapperReady, mcpMapper, in, out, settings.timeout().plusSeconds(5));
    stopOnSignal.transport = transport;
    if (in instanceof EarlyInput early && early.answeredFirst()) {
      transport.firstWritten().complete(null); // the client is connected (ServerInfo.answerEarly)
    }
    ExecutorService workers = Executors.newCachedThreadPool(DaemonThreads.named("cinch-io"));
    // Start-up is split over two cores. One thread builds the JSON mapper, then readies what
    // initialize needs (Jackson's writers); another, side by side, readies the JSON parser (its
    // class set-up is slow) and the session id's SecureRandom; after both, what tool calls need
    // and the backend are readied. This thread builds the MCP session meanwhile; initialize waits
    // only for the mapper.
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
    // The warm-up of what only calls need waits until the client is connected, or half a second at
    // most: on two cores it would take CPU from the connect itself. The backend is not held back:
    // built then, it would be under way just as a client that only connects (`claude mcp list`)
    // stops the server.
    CompletableFuture<Void> connected =
        CompletableFuture.allOf(
            initializeReady,
            transport
                .firstWritten()
                .copy()
                .completeOnTimeout(null, CONNECT_FIRST_MS, TimeUnit.MILLISECONDS));
    connected.thenRunAsync(() -> JsonWarmUp.calls(mapperReady.join()), workers);
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
    if (!stopOnSignal.mayStartBackend()) {
      return; // a signal came first: its hook ends the process
    }
    BackendChoice backend =
        BackendChoice.choose(settings, initializeReady, workers, timers, BackendChoice::startLocal);
    stopOnSignal.runner = backend.runner();

    ExecuteCodeTool tool =
        new ExecuteCodeTool(
            backend.runner(),
            progressTimers,
            new SandboxFacts(
                backend.runtimes(), backend.limits(), backend.isolation(), backend.packages()));
    // 2026-07-28 requests are answered beside the SDK's 2025 session, by the same tool. They need
    // nothing of the SDK's server (some 50 ms to build on Java 17), so it is built on a worker when
    // a 2025 message first needs it, or once the first answer is out: Claude Code's discover does
    // not share the CPU with it, and a 2025 client's first message waits for it, as it always did.
    transport.setStatelessServer(
        new StatelessServer(
            tool, ServerInfo.NAME, Version.get(), ServerInfo.INSTRUCTIONS, mcpMapper));
    CompletableFuture<McpAsyncServer> server =
        transport
            .sessionWanted()
            .thenApplyAsync(
                wanted -> {
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
                },
                workers);

    if (backend.usable()) {
      log.info("cinch-mcp {} ready on stdio: {}", Version.get(), backend.summary());
    } else {
      log.error(
          "cinch-mcp {} started, but cannot run code until its configuration is fixed:",
          Version.get());
      backend.problems().forEach(p -> log.error("  {}", p));
    }
    transport.run();
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnSignal);
    } catch (IllegalStateException stopping) {
      return; // the read ended because a signal stops the server: its hook ends the process
    }
    // Never wanted (no message came, or only 2026 ones before the end): nothing to close.
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
  }

  /**
   * Stops at once on a signal: calls cancelled, their sandboxes killed, nothing more written, then
   * the process ends (QuickExit). The end of stdin still answers what is owed. A class, not a
   * lambda: it is made before the server's first answer, and a JVM's first lambda costs time.
   */
  private static final class StopOnSignal extends Thread {
    private final InputStream in;
    volatile StdioTransport transport;
    volatile CodeRunner runner;
    // Which came first, the backend's start or the stop (each sets its flag, then reads the other):
    // once the backend is being built, its threads may wait in native calls, so an exit before
    // its runner can say otherwise cannot count as clean.
    private volatile boolean stopping;
    private volatile boolean backendStarting;

    StopOnSignal(InputStream in) {
      super("cinch-stop-on-signal");
      this.in = in;
    }

    /** Called before the backend is built: false when a stop has begun (build nothing then). */
    boolean mayStartBackend() {
      backendStarting = true;
      return !stopping;
    }

    @Override
    public void run() {
      long start = System.nanoTime();
      stopping = true;
      StdioTransport t = transport;
      if (t != null) {
        t.stopNow();
      } else {
        closeQuietly(in); // a read of the first line under way ends
      }
      CodeRunner built = runner;
      boolean clean = built != null ? built.stopNow() : !backendStarting;
      log.debug("Stopped on a signal in {} ms", (System.nanoTime() - start) / 1_000_000);
      QuickExit.now(clean);
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
