package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CappedText;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One program in one fresh sandbox: writes the bundle, starts runsc inside the run's cgroups,
 * drains both streams, enforces the wall clock, and removes every trace afterwards, whatever
 * happens.
 *
 * <p>The program travels as a file inside the bundle's own read-only root ({@code /code/main.py} or
 * {@code /code/main.js}), not as an argument: no size limit of argv applies, nothing of the host
 * beyond the bundle has to be visible, and the program cannot change its own source.
 */
final class SandboxRun {

  private static final Logger log = LoggerFactory.getLogger(SandboxRun.class);

  /** runsc's own exit status for "could not run the container" (util.Fatalf). */
  private static final int RUNSC_FATAL = 128;

  /** How long the streams may take to end after the sandbox is gone. */
  private static final long DRAIN_GRACE_MILLIS = 2_000;

  private final String id;
  private final Program program;
  private final LocalSandboxSettings settings;
  private final Runsc runsc;
  private final CgroupLimits cgroups;
  private final SandboxRuntimes runtimes;
  private final ExecutorService streamThreads;
  private final Path bundle;
  private volatile Process process;
  private volatile RunCgroup cgroup;
  private volatile boolean cancelled;

  SandboxRun(
      String id,
      Program program,
      LocalSandboxSettings settings,
      Runsc runsc,
      CgroupLimits cgroups,
      SandboxRuntimes runtimes,
      ExecutorService streamThreads) {
    this.id = id;
    this.program = program;
    this.settings = settings;
    this.runsc = runsc;
    this.cgroups = cgroups;
    this.runtimes = runtimes;
    this.streamThreads = streamThreads;
    this.bundle = settings.bundles().resolve(id);
  }

  String id() {
    return id;
  }

  /** Runs the program to its end, its time-out or {@link #cancel()}, then cleans up. */
  RunResult execute() {
    RunCgroup cgroup = null;
    try {
      List<String> command = writeBundle();
      if (cgroups.available()) {
        cgroup =
            cgroups.create(
                id,
                settings.memoryBytes() + LocalSandboxSettings.GVISOR_OVERHEAD_BYTES,
                hostTaskLimit(),
                settings.cpuShare());
        this.cgroup = cgroup;
        command = cgroup.wrap(command);
      }
      return runAndWait(command, cgroup);
    } catch (IOException e) {
      throw new RunFailure(
          RunFailure.Kind.SANDBOX_UNAVAILABLE,
          "The local gVisor sandbox could not be prepared ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + "). Check that "
              + settings.stateDir()
              + " is writable, or use the cinch backend.");
    } finally {
      // Clean-up waits for processes to leave; an interrupt (the runner closing) must not cut it
      // short.
      boolean interrupted = Thread.interrupted();
      cleanUp(cgroup);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Host threads the whole sandbox may have: the Sentry and gofer use ~50; under ptrace each
   * sandbox process adds a few stub threads. This is the backstop; RLIMIT_NPROC inside stops forks
   * first, with a clean EAGAIN.
   */
  private int hostTaskLimit() {
    return 128 + 8 * settings.maxProcesses();
  }

  /** Kills the sandbox now; {@link #execute()} then returns and cleans up. Safe from any thread. */
  void cancel() {
    cancelled = true;
    kill();
  }

  private List<String> writeBundle() throws IOException {
    Language language = program.language();
    String file = language == Language.PYTHON ? "main.py" : "main.js";
    Path code = Files.createDirectories(bundle.resolve("rootfs").resolve("code")).resolve(file);
    Files.writeString(code, program.code(), StandardCharsets.UTF_8);
    List<String> args = runtimes.command(language, "/code/" + file, settings.memoryMebibytes());
    // RLIMIT_AS only when there is no cgroup: it limits address space, not memory, and glibc
    // reserves 64 MB of it per thread arena, so under 256 MB Python could start only ~5 threads
    // (measured). With the cgroup, a memory bomb is killed and the result says so.
    long addressSpace =
        language == Language.PYTHON && !cgroups.available() ? settings.memoryBytes() : 0;
    Files.writeString(
        bundle.resolve("config.json"), OciSpec.json(args, addressSpace, settings.maxProcesses()));
    return runsc.command("--log", logFile().toString(), "run", "--bundle", bundle.toString(), id);
  }

  private Path logFile() {
    return bundle.resolve("runsc.log");
  }

  private RunResult runAndWait(List<String> command, RunCgroup cgroup) throws IOException {
    long started = System.nanoTime();
    Process started0;
    try {
      started0 = runsc.processBuilder(command).start();
    } catch (IOException e) {
      throw new RunFailure(
          RunFailure.Kind.SANDBOX_UNAVAILABLE,
          "runsc ("
              + runsc.binary()
              + ") could not be started: "
              + e.getMessage()
              + ". Reinstall gVisor (apt-get install runsc), or use the cinch backend.");
    }
    process = started0;
    if (cancelled) {
      kill();
    }
    // Stdin is closed at once: the program reads end-of-file, never the server's own stdin.
    started0.getOutputStream().close();
    CappedStreamReader stdout = new CappedStreamReader(started0.getInputStream());
    CappedStreamReader stderr = new CappedStreamReader(started0.getErrorStream());
    Future<?> out = streamThreads.submit(stdout);
    Future<?> err = streamThreads.submit(stderr);

    boolean timedOut = false;
    try {
      if (!started0.waitFor(settings.wallClock().toMillis(), TimeUnit.MILLISECONDS)) {
        timedOut = true;
        kill();
        started0.waitFor(DRAIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
      }
      awaitQuietly(out);
      awaitQuietly(err);
    } catch (InterruptedException e) {
      // The runner is closing: kill the sandbox; the finally block of execute() cleans up.
      kill();
      Thread.currentThread().interrupt();
      throw new RunFailure(
          RunFailure.Kind.SANDBOX_UNAVAILABLE,
          "The local sandbox runner was shut down before the program finished.");
    }
    long durationMs = (System.nanoTime() - started) / 1_000_000;

    if (cancelled) {
      return new RunResult(
          stdout.result(), stderr.result(), null, false, durationMs, LocalSandboxRunner.NAME);
    }
    Integer exitCode = started0.isAlive() ? null : started0.exitValue();
    if (!timedOut && exitCode != null) {
      failIfSandboxDidNotStart(exitCode, stderr.result());
    }
    String note = null;
    if (cgroup != null && cgroup.memoryExceeded()) {
      note =
          "[sandbox] killed: the program used more than its "
              + settings.memoryMebibytes()
              + " MB of memory";
      exitCode =
          137; // what a Linux OOM kill (SIGKILL) reports; gVisor's own status here is arbitrary
    } else if (cgroup != null && cgroup.processLimitHit()) {
      note =
          "[sandbox] killed: the program started more than "
              + settings.maxProcesses()
              + " processes or threads";
      exitCode = 137;
    } else if (timedOut) {
      exitCode = null;
    }
    if (cgroup != null) {
      log.debug("Run {} peak memory {} bytes", id, cgroup.peakMemory());
    }
    return new RunResult(
        stdout.result(),
        stderr.resultWithNote(note),
        exitCode,
        timedOut,
        durationMs,
        LocalSandboxRunner.NAME);
  }

  /**
   * runsc exits 128 with an error in its log when it could not run the container at all; the shell
   * exits 125 without a log when it could not join the cgroups. Anything else is the program's own
   * exit status (a program that itself exits 128 leaves no error in runsc's log).
   */
  private void failIfSandboxDidNotStart(int exitCode, CappedText stderr) {
    Path logFile = logFile();
    if (exitCode == 125 && !Files.exists(logFile)) {
      throw new RunFailure(
          RunFailure.Kind.SANDBOX_UNAVAILABLE,
          "The local sandbox could not be placed in its cgroups (memory/pids/cpu limits): "
              + firstLine(stderr.text())
              + ". Run the server as root on a cgroup v1 host, or use the cinch backend.");
    }
    if (exitCode != RUNSC_FATAL) {
      return;
    }
    String error = readRunscError(logFile);
    if (error != null) {
      throw new RunFailure(
          RunFailure.Kind.SANDBOX_UNAVAILABLE,
          "gVisor (runsc) could not start the sandbox: "
              + error
              + ". Check the runsc installation (runsc --version), or use the cinch backend.");
    }
  }

  private static String readRunscError(Path logFile) {
    try {
      for (String line : Files.readAllLines(logFile, StandardCharsets.UTF_8)) {
        if (line.contains("\"level\":\"error\"") || line.startsWith("E")) {
          int msg = line.indexOf("\"msg\":\"");
          String text =
              msg >= 0
                  ? line.substring(msg + 7, Math.max(msg + 7, line.indexOf("\",\"", msg + 7)))
                  : line;
          return text.length() > 400 ? text.substring(0, 400) + "..." : text;
        }
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  private static String firstLine(String text) {
    String line = text.strip().lines().findFirst().orElse("no detail");
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }

  private static void awaitQuietly(Future<?> future) throws InterruptedException {
    try {
      future.get(DRAIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
    } catch (java.util.concurrent.ExecutionException e) {
      log.debug("Stream reader failed: {}", e.getCause().toString());
    }
  }

  /**
   * Stops the sandbox at once. With cgroups: SIGKILL to every process in the run's cgroup (runsc,
   * gofer, Sentry, stubs) — immediate, and nothing escapes. Without: killing runsc takes the
   * sandbox with it (runsc starts it with a parent-death signal), and runsc's delete makes sure.
   * The container's state files are removed afterwards by {@link #cleanUp}.
   */
  private void kill() {
    RunCgroup c = cgroup;
    if (c != null) {
      c.killAll();
    }
    Process p = process;
    if (p != null && p.isAlive()) {
      p.destroyForcibly();
      if (c == null) {
        runsc.deleteForce(id);
      }
    }
  }

  /** Removes the container's state, its cgroups and its bundle; each step on its own. */
  private void cleanUp(RunCgroup cgroup) {
    Process p = process;
    if (p != null && p.isAlive()) {
      p.destroyForcibly();
    }
    if (hasState()) {
      runsc.deleteForce(id);
    }
    if (cgroup != null) {
      cgroup.remove();
    }
    Housekeeping.deleteTree(bundle);
  }

  private boolean hasState() {
    try (var entries = Files.list(runsc.root())) {
      return entries.anyMatch(path -> path.getFileName().toString().startsWith(id + "_"));
    } catch (IOException e) {
      return true;
    }
  }
}
