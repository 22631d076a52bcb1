package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One program in one fresh sandbox: writes the bundle, starts runsc inside the run's cgroup (when
 * there is one) under {@code timeout}, drains both streams, enforces the wall clock, and removes
 * every trace afterwards, whatever happens.
 *
 * <p>The program travels as a file inside the bundle's own read-only root ({@code /code/main.py} or
 * {@code /code/main.js}), not as an argument: no size limit of argv applies, nothing of the host
 * beyond the bundle has to be visible, and the program cannot change its own source.
 *
 * <p>The wall clock is enforced twice. This class kills the sandbox at the limit and reports {@code
 * timedOut}. {@code timeout -s KILL} between the server and runsc kills it one second later
 * whatever becomes of the server (a SIGKILL of the JVM included): runsc then takes the sandbox with
 * it (it starts the Sentry and gofer with a parent-death signal).
 */
final class SandboxRun {

  private static final Logger log = LoggerFactory.getLogger(SandboxRun.class);

  /** runsc's own exit status for "could not run the container" (util.Fatalf). */
  private static final int RUNSC_FATAL = 128;

  /** {@link SandboxEnding#KILLED}, the status of a run a limit killed. */
  static final int KILLED = SandboxEnding.KILLED;

  /** How long after the server's own wall clock {@code timeout} kills the sandbox regardless. */
  static final long BACKSTOP_GRACE_MILLIS = 1_000;

  private static final Set<PosixFilePermission> PRIVATE_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> PRIVATE_FILE =
      PosixFilePermissions.fromString("rw-------");

  private final String id;
  private final Program program;
  private final LocalSandboxSettings settings;
  private final SandboxHost host;
  private final ExecutorService streamThreads;
  private final Path bundle;
  private final WaitingSandbox warm;
  private volatile Process process;
  private volatile RunCgroup cgroup;
  private volatile boolean cancelled;
  private volatile long peakBytes = -1;
  private boolean lowPriority;
  private Consumer<RunResult> onResult = result -> {};

  /** The program in a fresh sandbox of its own, which {@link #execute} starts. */
  SandboxRun(
      String id,
      Program program,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads) {
    this(
        new SandboxParts(id, host.state().bundles().resolve(id), null, null),
        null,
        program,
        settings,
        host,
        streamThreads);
  }

  /**
   * @param parts the sandbox's, which this run owns and removes; a cold run's process and cgroup
   *     are made by {@link #execute}
   * @param warm the sandbox started ahead of time that the program runs in, or null: a cold run
   */
  SandboxRun(
      SandboxParts parts,
      WaitingSandbox warm,
      Program program,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads) {
    this.id = parts.id();
    this.bundle = parts.bundle();
    this.process = parts.process();
    this.cgroup = parts.cgroup();
    this.warm = warm;
    this.program = program;
    this.settings = settings;
    this.host = host;
    this.streamThreads = streamThreads;
  }

  /** Thrown when a waiting sandbox died before it took its program: nothing ran; run it cold. */
  static final class HandOverFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HandOverFailed(String message) {
      super(message, null, false, false);
    }
  }

  /** Called with the result as soon as it is known, before the clean-up. */
  SandboxRun onResult(Consumer<RunResult> listener) {
    onResult = listener;
    return this;
  }

  /** Whether the program runs in a sandbox started ahead of time. */
  boolean warm() {
    return warm != null;
  }

  String id() {
    return id;
  }

  /** " started", " (started ahead of time)", " (started ahead of time, numpy, pandas imported)". */
  String startNote() {
    if (warm == null) {
      return " started";
    }
    return warm.preload().isEmpty()
        ? " (started ahead of time)"
        : " (started ahead of time, " + String.join(", ", warm.preload()) + " imported)";
  }

  /**
   * Runs this sandbox at the lowest CPU priority ({@code nice -n 19}): for the self-test, which
   * runs while the server answers its first requests and must not take the CPU from them.
   */
  SandboxRun lowPriority() {
    lowPriority = true;
    return this;
  }

  /** Runs the program to its end, its time-out or {@link #cancel()}, then cleans up. */
  RunResult execute() {
    try {
      if (warm != null) {
        RunResult result = runAndWait(null);
        onResult.accept(result);
        return result;
      }
      List<String> command = writeBundle();
      cgroup = limitedCgroup(host, id, program.language(), settings);
      if (cgroup != null) {
        command = cgroup.wrap(command);
      }
      return runAndWait(command);
    } catch (IOException e) {
      throw failure(
          RunFailure.Reason.SANDBOX_FAILED,
          "The local gVisor sandbox could not be prepared ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + ")",
          "Try again");
    } finally {
      // A stop on a signal leaves the remains to the next start's Housekeeping: cleaning up now
      // would only take the CPU the stop needs. Clean-up waits for processes to leave; an interrupt
      // (the runner closing) must not cut it short.
      if (!host.runsc().refusesStarts()) {
        boolean interrupted = Thread.interrupted();
        cleanUp();
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * Host threads the whole sandbox may have: the Sentry and gofer use ~50; under ptrace each
   * sandbox process adds stub threads (measured: 64 processes that exec'd /bin/sleep needed more
   * than 8 each, and 16 each was still hit once on a loaded machine, so the sandbox died before the
   * program's own fork was refused). This is the backstop against a runaway Sentry; RLIMIT_NPROC
   * inside stops the program's forks first, with a clean EAGAIN.
   */
  static int hostTaskLimit(LocalSandboxSettings settings) {
    return 128 + 32 * settings.maxProcesses();
  }

  /**
   * Makes the cgroup of run {@code id} with its limits: the program's memory, and on top what
   * gVisor and the interpreter use before its first line. Null without host cgroups.
   */
  static RunCgroup limitedCgroup(
      SandboxHost host, String id, Language language, LocalSandboxSettings settings)
      throws IOException {
    if (host.cgroups().isEmpty()) {
      return null;
    }
    return host.cgroups()
        .get()
        .create(
            id,
            settings.memoryBytes() + host.overhead(language),
            hostTaskLimit(settings),
            settings.cpuShare());
  }

  /** Kills the sandbox now; {@link #execute()} then returns and cleans up. Safe from any thread. */
  void cancel() {
    cancelled = true;
    kill();
  }

  /**
   * The bundle: a private directory (mode 700, inside the private state directory) holding the spec
   * (600) and a root whose only content is the program. The root must stay readable inside the
   * sandbox, where the program runs as another uid; no other host user can reach it.
   */
  private List<String> writeBundle() throws IOException {
    Language language = program.language();
    writeBundle(bundle, language, settings, host, false, List.of());
    Files.writeString(codeFile(bundle, language), program.code(), StandardCharsets.UTF_8);
    List<String> command = new ArrayList<>();
    if (lowPriority) {
      command.addAll(List.of(host.timeout().resolveSibling("nice").toString(), "-n", "19"));
    }
    command.add(host.timeout().toString());
    command.add("--signal=KILL");
    command.add(backstopSeconds(settings));
    command.addAll(runscRun(host, bundle, id));
    return command;
  }

  /**
   * Writes a bundle without its program: the directories, the spec, and what the spec's argv needs
   * besides the program (Node's memory watchdog; a waiting sandbox's Node launcher). Cold and warm
   * sandboxes differ only in the argv's first part ({@link WarmLauncher}), which in a data sandbox
   * also imports {@code preload}.
   */
  static void writeBundle(
      Path bundle,
      Language language,
      LocalSandboxSettings settings,
      SandboxHost host,
      boolean warm,
      List<String> preload)
      throws IOException {
    Files.createDirectory(bundle, PosixFilePermissions.asFileAttribute(PRIVATE_DIR));
    Path code = Files.createDirectories(bundle.resolve("rootfs").resolve("code"));
    if (language == Language.PYTHON) {
      host.fontCache().addTo(bundle.resolve("rootfs"));
    }
    boolean hostLimits = host.cgroups().isPresent();
    List<String> preloads = new ArrayList<>();
    if (language == Language.JAVASCRIPT && warm) {
      Files.writeString(code.resolve(WarmLauncher.NODE_FILE), WarmLauncher.node());
      preloads.add("/code/" + WarmLauncher.NODE_FILE);
    }
    if (language == Language.JAVASCRIPT && !hostLimits) {
      // After the warm launcher: its watching thread starts with the program, not during the wait
      // (polling every 10 ms, it would burn CPU while the sandbox waits, and count it as the
      // program's).
      Files.writeString(
          code.resolve(NodeMemoryWatchdog.FILE),
          NodeMemoryWatchdog.source(settings.memoryBytes(), memoryNote(settings)));
      preloads.add("/code/" + NodeMemoryWatchdog.FILE);
    }
    // RLIMIT_AS only without a cgroup: it limits address space, not memory (see PythonBootstrap).
    long addressSpace = language == Language.PYTHON && !hostLimits ? settings.memoryBytes() : 0;
    List<String> args =
        host.runtimes()
            .command(
                language,
                codePath(language),
                settings.memoryMebibytes(),
                preloads,
                addressSpace > 0,
                warm,
                preload);
    Path spec = bundle.resolve("config.json");
    Files.createFile(spec, PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
    Files.writeString(
        spec,
        OciSpec.json(
            args,
            language,
            addressSpace,
            settings.maxProcesses(),
            HostEtc.binds(settings.hostEtc())));
  }

  /** The program's path inside the sandbox. */
  static String codePath(Language language) {
    return language == Language.PYTHON ? "/code/main.py" : "/code/main.js";
  }

  /** Where the program is written on the host, in the bundle's read-only root. */
  static Path codeFile(Path bundle, Language language) {
    return bundle.resolve("rootfs").resolve(codePath(language).substring(1));
  }

  /** The wall clock plus its grace, as {@code timeout} and the warm supervisor take it: "11.0s". */
  static String backstopSeconds(LocalSandboxSettings settings) {
    return (settings.wallClock().toMillis() + BACKSTOP_GRACE_MILLIS) / 1000.0 + "s";
  }

  /**
   * {@code runsc ... run --bundle DIR ID}, with its log in the bundle. The host's read-only folders
   * (/usr, /lib, /bin) with exclusive file access: the sandbox keeps what it looked up instead of
   * asking the host again at every lookup, measured 8 % faster for a cold {@code import numpy,
   * pandas} here (bench/file-access.mjs). A sandbox then does not see what changes on the host
   * after its start, which a run never needs; a waiting one is not handed out once a package folder
   * has changed ({@link SandboxRuntimes#fingerprint}).
   */
  static List<String> runscRun(SandboxHost host, Path bundle, String id) {
    return host.runsc()
        .command(
            "--file-access-mounts=exclusive",
            "--log",
            logFile(bundle).toString(),
            "run",
            "--bundle",
            bundle.toString(),
            id);
  }

  private Path logFile() {
    return logFile(bundle);
  }

  private static Path logFile(Path bundle) {
    return bundle.resolve("runsc.log");
  }

  private String memoryNote() {
    return memoryNote(settings);
  }

  private static String memoryNote(LocalSandboxSettings settings) {
    return "[sandbox] killed: the program used more than its "
        + settings.memoryMebibytes()
        + " MB of memory";
  }

  /** Starts {@code command} (or hands the program to the waiting sandbox) and waits for its end. */
  private RunResult runAndWait(List<String> command) {
    long started = System.nanoTime();
    Process sandbox;
    if (warm != null) {
      // The time limit counts from the hand-over, here as in the supervisor's backstop.
      try {
        warm.handOver(program);
        warm.awaitTaken();
      } catch (IOException e) {
        throw new HandOverFailed(e.getMessage());
      }
      sandbox = process;
      if (cancelled) {
        kill();
      }
    } else {
      sandbox = start(command);
      // Stdin is closed at once: the program reads end-of-file, never the server's own stdin.
      try {
        sandbox.getOutputStream().close();
      } catch (IOException e) {
        // nothing was written; the program reads end-of-file either way
      }
    }
    CappedStreamReader stdout = new CappedStreamReader(sandbox.getInputStream(), program.out());
    CappedStreamReader stderr = new CappedStreamReader(sandbox.getErrorStream());
    Future<?> out = streamThreads.submit(stdout);
    Future<?> err = streamThreads.submit(stderr);
    SandboxEnding ending = awaitEnd(sandbox);
    awaitOutput(out);
    awaitOutput(err);
    long durationMs = (System.nanoTime() - started) / 1_000_000;

    SandboxOutput output = new Streams(stdout, stderr);
    if (ending != SandboxEnding.EXITED) {
      return ending.unfinished(output, settings.wallClock(), durationMs, LocalSandboxRunner.NAME);
    }
    int exitCode = sandbox.exitValue();
    failIfSandboxDidNotStart(exitCode, stderr.result().text());
    String note = null;
    RunCgroup limits = cgroup;
    if (limits != null && limits.memoryExceeded()) {
      note = memoryNote();
      exitCode = KILLED; // gVisor's own status after an OOM kill is arbitrary
    } else if (limits != null && limits.processLimitHit()) {
      note =
          "[sandbox] killed: the program started more than "
              + settings.maxProcesses()
              + " processes or threads";
      exitCode = KILLED;
    }
    if (limits != null) {
      peakBytes = limits.peakMemory();
      log.debug("Run {} peak memory {} bytes", id, peakBytes);
    }
    return SandboxEnding.exited(output, exitCode, note, durationMs, LocalSandboxRunner.NAME);
  }

  /** The run's two streams as a sandbox's output. */
  private record Streams(CappedStreamReader out, CappedStreamReader err) implements SandboxOutput {}

  /** The peak memory of the whole sandbox once it has exited; -1 when not known. */
  long peakMemory() {
    return peakBytes;
  }

  private Process start(List<String> command) {
    try {
      process = host.runsc().start(host.runsc().processBuilder(command));
    } catch (IOException e) {
      throw failure(
          RunFailure.Reason.SANDBOX_UNAVAILABLE,
          "runsc (" + host.runsc().binary() + ") could not be started: " + e.getMessage(),
          "Reinstall gVisor (apt-get install runsc)");
    }
    if (cancelled) {
      kill();
    }
    return process;
  }

  private SandboxEnding awaitEnd(Process sandbox) {
    long started = System.nanoTime();
    try {
      if (sandbox.waitFor(settings.wallClock().toMillis(), TimeUnit.MILLISECONDS)) {
        if (cancelled) {
          return SandboxEnding.CANCELLED;
        }
        // On a machine so starved that this thread woke late, timeout's backstop may have ended
        // the sandbox (SIGKILL, once the grace after the wall clock was over).
        long limit = settings.wallClock().toMillis() + BACKSTOP_GRACE_MILLIS;
        boolean backstop =
            sandbox.exitValue() == KILLED
                && System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(limit);
        return backstop ? SandboxEnding.TIMED_OUT : SandboxEnding.EXITED;
      }
      kill();
      sandbox.waitFor(SandboxOutput.DRAIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
      return cancelled ? SandboxEnding.CANCELLED : SandboxEnding.TIMED_OUT;
    } catch (InterruptedException e) {
      // The runner is closing: kill the sandbox; the finally block of execute() cleans up.
      kill();
      Thread.currentThread().interrupt();
      throw SandboxEnding.shutDownWhileRunning("local sandbox runner");
    }
  }

  /**
   * runsc exits 128 with an error in its log when it could not run the container at all; the shell
   * exits {@link RunCgroup#JOIN_FAILED} without a log when it could not join the cgroups. Anything
   * else is the program's own exit status (a program that itself exits 128 leaves no error in
   * runsc's log).
   */
  private void failIfSandboxDidNotStart(int exitCode, String stderr) {
    Path logFile = logFile();
    if (exitCode == RunCgroup.JOIN_FAILED && cgroup != null && !Files.exists(logFile)) {
      throw failure(
          RunFailure.Reason.SANDBOX_NOT_STARTED,
          "The local sandbox could not be placed in its cgroup (memory/pids/cpu limits): "
              + firstLine(stderr)
              + ". Nothing was run",
          "Try again");
    }
    if (exitCode != RUNSC_FATAL) {
      return;
    }
    String error = readRunscError(logFile);
    if (error != null) {
      throw failure(
          RunFailure.Reason.SANDBOX_UNAVAILABLE,
          "gVisor (runsc) could not start the sandbox: " + error,
          "Check the runsc installation (runsc --version)");
    }
  }

  /**
   * A failure of this backend: what happened, then what to do, whose last resort is always the
   * same.
   */
  private static RunFailure failure(RunFailure.Reason reason, String happened, String firstStep) {
    return new RunFailure(reason, happened + ". " + firstStep + ", or use the cinch backend.");
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

  /**
   * Stops the sandbox at once. With a cgroup: SIGKILL to every process in it (timeout, runsc,
   * gofer, Sentry, stubs) — immediate, and nothing escapes. Without: SIGKILL to timeout and every
   * process below it; runsc's delete makes sure. The container's state files are removed afterwards
   * by {@link #cleanUp}.
   */
  private void kill() {
    RunCgroup limits = cgroup;
    if (limits != null) {
      limits.killAll();
    }
    Process p = process;
    if (p != null && p.isAlive()) {
      // The walk stays with a cgroup too: a program that forks fast keeps gVisor making stub
      // processes, and without it a fork bomb's run left enough behind to stall the runs beside
      // it (LocalSandboxContainmentTest). A loop, not a lambda: a stop runs this cold.
      for (ProcessHandle descendant : p.descendants().toList()) {
        descendant.destroyForcibly();
      }
      p.destroyForcibly();
      if (limits == null) {
        host.runsc().deleteForce(id);
      }
    }
  }

  /** Removes the container's state, its cgroup and its bundle; each step on its own. */
  private void cleanUp() {
    removeRemains(host, id, process, cgroup, bundle);
  }

  /**
   * Kills what is left of a sandbox's processes and removes its container state, its cgroup and its
   * bundle; each step on its own. For a run that ended, and for a waiting sandbox discarded.
   */
  static void removeRemains(SandboxHost host, String id, Process p, RunCgroup cgroup, Path bundle) {
    if (cgroup != null) {
      cgroup.killAll();
    }
    if (p != null && p.isAlive()) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    if (hasState(host, id)) {
      host.runsc().deleteForce(id);
    }
    if (cgroup != null) {
      cgroup.remove();
    }
    Housekeeping.deleteTree(bundle);
  }

  /**
   * Like {@link #removeRemains}, for a sandbox that never ran a program: every process is killed
   * first, and runsc's state files are then deleted directly ({@code runsc delete -force} of a
   * killed sandbox takes ~0.9 s here; nothing of it runs any more to be told).
   */
  static void removeKilled(SandboxHost host, SandboxParts parts) {
    String id = parts.id();
    Process p = parts.process();
    RunCgroup cgroup = parts.cgroup();
    if (cgroup != null) {
      cgroup.killAll();
    }
    if (p != null) {
      List<ProcessHandle> tree = p.descendants().toList(); // before their parent dies
      p.destroyForcibly();
      tree.forEach(ProcessHandle::destroyForcibly);
    }
    try (var entries = Files.list(host.runsc().root())) {
      entries
          .filter(path -> path.getFileName().toString().startsWith(id + "_"))
          .forEach(Housekeeping::deleteTree);
    } catch (IOException e) {
      log.debug("Could not list runsc's state: {}", e.toString());
    }
    if (cgroup != null) {
      cgroup.remove();
    }
    Housekeeping.deleteTree(parts.bundle());
  }

  private static boolean hasState(SandboxHost host, String id) {
    try (var entries = Files.list(host.runsc().root())) {
      return entries.anyMatch(path -> path.getFileName().toString().startsWith(id + "_"));
    } catch (IOException e) {
      return true;
    }
  }

  private static void awaitOutput(Future<?> reader) {
    SandboxOutput.awaitReader(reader, log, "Stream reader");
  }
}
