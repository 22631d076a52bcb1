package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxOutput;
import dev.cinchmcp.backend.StartedSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One gVisor sandbox, its whole life: start, wait, hand-over, run, kill, clean up. It runs exactly
 * one program and is then removed, whatever happens: its run id (also runsc's container id and its
 * cgroup's name), its {@link Bundle}, the process that runs runsc and its {@link RunCgroup}.
 *
 * <p>Two ways in, one way out. A <b>cold</b> sandbox ({@link #cold}) is made by {@link #run}: the
 * bundle with the program, the cgroup, then runsc under {@code timeout -s KILL}, stdin closed. One
 * <b>started ahead</b> ({@link #startAhead}, for the pool) fixes everything a cold run fixes before
 * its program at the same point (the bundle and spec but for the launcher's first lines, the cgroup
 * with its memory, task and CPU limits, the namespaces), its interpreter waits ({@link
 * WarmLauncher}), and {@link #run} hands it the program. From there both are the same: drain both
 * streams, hold the wall clock, read the kernel's verdicts, clean up.
 *
 * <p>The wall clock is enforced twice. This class kills the sandbox at the limit and reports {@code
 * timedOut}; a backstop kills it one second later whatever becomes of the server (a SIGKILL of the
 * JVM included): {@code timeout} around a cold one, the supervisor shell ({@link
 * WarmLauncher#SUPERVISOR}), armed at hand-over, around one started ahead. runsc then takes the
 * sandbox with it (it starts the Sentry and gofer with a parent-death signal). Before hand-over, a
 * server that dies closes the launcher's stdin, which ends the sandbox at once; what a killed
 * server leaves (state, bundle, cgroup) is named like any run, so the next start's housekeeping
 * removes it.
 */
final class Sandbox implements StartedSandbox {

  private static final Logger log = LoggerFactory.getLogger(Sandbox.class);

  private final String id = Housekeeping.nextRunId();
  private final Language language;
  private final LocalSandboxSettings settings;
  private final SandboxHost host;
  private final ExecutorService streamThreads;
  private final Bundle bundle;

  /** The modules a data sandbox imported before it waited; empty for a plain one. */
  private final List<String> preload;

  /** The interpreter's fingerprint when one started ahead; null for a cold one. */
  private final String fingerprint;

  private volatile Process process;
  private volatile RunCgroup cgroup;
  private volatile boolean cancelled;
  private volatile boolean gone;
  private volatile long peakBytes = -1;
  private boolean lowPriority;
  private Consumer<RunResult> onResult = result -> {};

  private Sandbox(
      Language language,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads,
      List<String> preload,
      String fingerprint) {
    this.language = language;
    this.settings = settings;
    this.host = host;
    this.streamThreads = streamThreads;
    this.bundle = new Bundle(host.state().bundles().resolve(id));
    this.preload = List.copyOf(preload);
    this.fingerprint = fingerprint;
  }

  /** A sandbox that {@link #run} makes and starts with its program. */
  static Sandbox cold(
      Language language,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads) {
    return new Sandbox(language, settings, host, streamThreads, List.of(), null);
  }

  /**
   * Starts a sandbox whose interpreter waits for its program, and returns at once ({@link
   * #awaitReady()} waits for the interpreter); throws, leaving nothing behind, when it cannot.
   *
   * <p>A data sandbox imports {@code preload} before it waits (none: a plain one). Its own CPU cap
   * is lifted until the hand-over, so that the imports (~4 s of CPU for numpy, pandas and
   * matplotlib here) are done within the gap between two calls; the run's cap then holds from the
   * hand-over, as its time limit does. Its memory limit is a plain sandbox's: what the imports take
   * counts against the program, as if it had imported them itself.
   */
  static Sandbox startAhead(
      Language language,
      List<String> preload,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads)
      throws IOException {
    String fingerprint =
        host.runtimes()
            .fingerprint(language)
            .orElseThrow(() -> new IOException("no " + language.wireName() + " interpreter"));
    Sandbox sandbox = new Sandbox(language, settings, host, streamThreads, preload, fingerprint);
    try {
      sandbox.bundle.write(language, settings, host, true, preload);
      List<String> command =
          new ArrayList<>(List.of("/bin/sh", "-c", WarmLauncher.SUPERVISOR, "cinchmcp-warm"));
      command.add(settings.backstopSeconds().replace("s", ""));
      command.addAll(sandbox.bundle.runscRun(host.runsc(), sandbox.id));
      if (sandbox.makeCgroup()) {
        if (!preload.isEmpty()) {
          sandbox.cgroup.capCpu(RunCgroup.ANY_CPU);
        }
        command = sandbox.cgroup.wrap(command);
      }
      sandbox.process = host.runsc().start(host.runsc().processBuilder(command));
      return sandbox;
    } catch (IOException | RuntimeException e) {
      sandbox.removeAll(false);
      throw e;
    }
  }

  /** Thrown when a waiting sandbox died before it took its program: nothing ran; run it cold. */
  static final class HandOverFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HandOverFailed(String message) {
      super(message, null, false, false);
    }
  }

  String id() {
    return id;
  }

  /** Called with the result as soon as it is known, before the clean-up. */
  Sandbox onResult(Consumer<RunResult> listener) {
    onResult = listener;
    return this;
  }

  /**
   * Runs this sandbox at the lowest CPU priority ({@code nice -n 19}): for the self-test, which
   * runs while the server answers its first requests and must not take the CPU from them.
   */
  Sandbox lowPriority() {
    lowPriority = true;
    return this;
  }

  /** " started", " (started ahead of time)", " (started ahead of time, numpy, pandas imported)". */
  String startNote() {
    if (fingerprint == null) {
      return " started";
    }
    return preload.isEmpty()
        ? " (started ahead of time)"
        : " (started ahead of time, " + String.join(", ", preload) + " imported)";
  }

  /** The peak memory of the whole sandbox once it has exited; -1 when not known. */
  long peakMemory() {
    return peakBytes;
  }

  @Override
  public void awaitReady() throws IOException, InterruptedException {
    long started = System.nanoTime();
    WarmLauncher.awaitReady(process, streamThreads, "the sandbox ended before it was ready");
    if (!preload.isEmpty()) {
      log.debug(
          "Data sandbox {} ready in {} ms, {} imported",
          id,
          (System.nanoTime() - started) / 1_000_000,
          String.join(", ", preload));
    }
    if (language == Language.JAVASCRIPT) {
      // Loaded: out of the program's sight (a cold run's /code holds only its own files).
      Files.deleteIfExists(bundle.dir().resolve("rootfs/code").resolve(WarmLauncher.NODE_FILE));
    }
  }

  @Override
  public boolean usable() {
    return !gone
        && process.isAlive()
        && host.runtimes().fingerprint(language).map(fingerprint::equals).orElse(false);
  }

  /**
   * Runs {@code program} to its end, its time-out or {@link #cancel()}, then cleans up. Throws
   * {@link HandOverFailed} when a sandbox started ahead died before it took the program.
   */
  RunResult run(Program program) {
    try {
      List<String> command = fingerprint == null ? prepareCold(program) : null;
      // The time limit counts from here: a waiting sandbox's from the hand-over, as its backstop's.
      long started = System.nanoTime();
      Process sandbox = command == null ? handOver(program) : startCold(command);
      if (cancelled) {
        stop();
      }
      RunResult result = awaitResult(sandbox, program, started);
      onResult.accept(result);
      return result;
    } catch (IOException e) {
      throw SandboxExit.notPrepared(e);
    } finally {
      // A stop on a signal leaves the remains to the next start's Housekeeping: cleaning up now
      // would only take the CPU the stop needs. Clean-up waits for processes to leave; an interrupt
      // (the runner closing) must not cut it short.
      if (!host.runsc().refusesStarts()) {
        boolean interrupted = Thread.interrupted();
        removeAll(true);
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** The bundle with the program, the cgroup: the argv that starts a cold sandbox in them. */
  private List<String> prepareCold(Program program) throws IOException {
    bundle.write(language, settings, host, false, List.of());
    bundle.writeProgram(program);
    List<String> command = new ArrayList<>();
    if (lowPriority) {
      command.addAll(List.of(host.timeout().resolveSibling("nice").toString(), "-n", "19"));
    }
    command.add(host.timeout().toString());
    command.add("--signal=KILL");
    command.add(settings.backstopSeconds());
    command.addAll(bundle.runscRun(host.runsc(), id));
    return makeCgroup() ? cgroup.wrap(command) : command;
  }

  private Process startCold(List<String> command) {
    try {
      process = host.runsc().start(host.runsc().processBuilder(command));
    } catch (IOException e) {
      throw SandboxExit.runscNotStarted(host.runsc(), e);
    }
    // Stdin is closed at once: the program reads end-of-file, never the server's own stdin.
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // nothing was written; the program reads end-of-file either way
    }
    return process;
  }

  /**
   * Gives a waiting sandbox its program: writes it where a cold run has it, arms the supervisor's
   * backstop (the time limit counts from now), lets the launcher go, and waits for its answer that
   * it has the program. Throws {@link HandOverFailed} when the sandbox died meanwhile.
   */
  private Process handOver(Program program) {
    Process sandbox = process;
    try {
      if (!preload.isEmpty() && cgroup != null) {
        cgroup.capCpu(settings.cpuShare()); // the program's cap, before its first instruction
      }
      if (language == Language.PYTHON) {
        // Made since this sandbox started? Its root, like /code, is read at hand-over.
        host.fontCache().addTo(bundle.dir().resolve("rootfs"));
      }
      bundle.writeProgram(program);
      if (!sandbox.isAlive()) {
        throw new IOException("the waiting sandbox ended");
      }
      // SIGTERM: the supervisor's signal to start the backstop (Process.destroy() would also close
      // the streams).
      sandbox.toHandle().destroy();
      WarmLauncher.go(sandbox);
      WarmLauncher.awaitReady(
          sandbox, streamThreads, "the waiting sandbox ended before it took its program");
    } catch (IOException e) {
      throw new HandOverFailed(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HandOverFailed("interrupted at hand-over");
    }
    return sandbox;
  }

  /** Drains both streams until the sandbox ends, then says how it ended. */
  private RunResult awaitResult(Process sandbox, Program program, long started) {
    CappedStreamReader stdout = new CappedStreamReader(sandbox.getInputStream(), program.out());
    CappedStreamReader stderr = new CappedStreamReader(sandbox.getErrorStream());
    Future<?> out = streamThreads.submit(stdout);
    Future<?> err = streamThreads.submit(stderr);
    SandboxEnding ending = awaitEnd(sandbox);
    SandboxOutput.awaitReader(out, log, "Stream reader");
    SandboxOutput.awaitReader(err, log, "Stream reader");
    long durationMs = (System.nanoTime() - started) / 1_000_000;

    SandboxOutput output = new SandboxExit.Streams(stdout, stderr);
    if (ending != SandboxEnding.EXITED) {
      return ending.unfinished(output, settings.wallClock(), durationMs, LocalSandboxRunner.NAME);
    }
    RunResult result =
        SandboxExit.result(sandbox.exitValue(), output, cgroup, bundle, settings, durationMs);
    if (cgroup != null) {
      peakBytes = cgroup.peakMemory();
      log.debug("Run {} peak memory {} bytes", id, peakBytes);
    }
    return result;
  }

  private SandboxEnding awaitEnd(Process sandbox) {
    long started = System.nanoTime();
    try {
      if (sandbox.waitFor(settings.wallClock().toMillis(), TimeUnit.MILLISECONDS)) {
        if (cancelled) {
          return SandboxEnding.CANCELLED;
        }
        // On a machine so starved that this thread woke late, the backstop may have ended the
        // sandbox (SIGKILL, once the grace after the wall clock was over).
        long limit = settings.wallClock().toMillis() + LocalSandboxSettings.BACKSTOP_GRACE_MILLIS;
        boolean backstop =
            sandbox.exitValue() == SandboxEnding.KILLED
                && System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(limit);
        return backstop ? SandboxEnding.TIMED_OUT : SandboxEnding.EXITED;
      }
      stop();
      sandbox.waitFor(SandboxOutput.DRAIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
      return cancelled ? SandboxEnding.CANCELLED : SandboxEnding.TIMED_OUT;
    } catch (InterruptedException e) {
      // The runner is closing: kill the sandbox; the finally block of run() cleans up.
      stop();
      Thread.currentThread().interrupt();
      throw SandboxEnding.shutDownWhileRunning("local sandbox runner");
    }
  }

  /** Makes the run's cgroup with its limits ({@link SandboxHost#runCgroup}); false without. */
  private boolean makeCgroup() throws IOException {
    cgroup = host.runCgroup(id, language, settings).orElse(null);
    return cgroup != null;
  }

  /** Kills the running sandbox now; {@link #run} then returns and cleans up. Any thread. */
  void cancel() {
    cancelled = true;
    stop();
  }

  /**
   * Stops a running sandbox at once. With a cgroup: SIGKILL to every process in it (timeout, runsc,
   * gofer, Sentry, stubs) — immediate, and nothing escapes. Without: SIGKILL to timeout and every
   * process below it; runsc's delete makes sure. The container's state files are removed afterwards
   * by the clean-up.
   */
  private void stop() {
    Process p = process;
    if (p != null && p.isAlive()) {
      // The walk stays with a cgroup too: a program that forks fast keeps gVisor making stub
      // processes, and without it a fork bomb's run left enough behind to stall the runs beside
      // it (LocalSandboxContainmentTest).
      killProcesses(true);
      if (cgroup == null) {
        host.runsc().deleteForce(id);
      }
    } else if (cgroup != null) {
      cgroup.killAll();
    }
  }

  /**
   * Kills every process of a waiting sandbox. With cgroups, the cgroup holds them all (each joined
   * it as it started, and runsc starts nothing more while it waits), so that is all it takes: no
   * walk of every process on the machine for this one's descendants, which a stop with two
   * sandboxes waiting paid 5-10 ms for here. Without, the walk finds them, before their parent
   * dies.
   */
  @Override
  public void kill() {
    gone = true;
    killProcesses(false);
  }

  /**
   * SIGKILL to every process in the cgroup, to the process that runs runsc, and (with {@code walk},
   * or without a cgroup) to every one below it, found before their parent dies. Loops, not lambdas:
   * a stop runs this cold.
   */
  private void killProcesses(boolean walk) {
    RunCgroup limits = cgroup;
    Process p = process;
    if (limits != null) {
      limits.killAll();
    }
    if (p == null) {
      return;
    }
    // The walk reads every process of the machine (5-10 ms here): not for a process already gone,
    // whose children are no longer its descendants anyway.
    List<ProcessHandle> tree =
        (walk || limits == null) && p.isAlive() ? p.descendants().toList() : List.of();
    p.destroyForcibly();
    for (ProcessHandle descendant : tree) {
      descendant.destroyForcibly();
    }
  }

  @Override
  public void discard() {
    gone = true;
    removeAll(false);
  }

  /**
   * Kills what is left of the sandbox's processes and removes its container state ({@link
   * Runsc#removeState}: of a sandbox that never {@code ran} a program, directly), its cgroup and
   * its bundle; each step on its own.
   */
  private void removeAll(boolean ran) {
    killProcesses(true);
    host.runsc().removeState(id, !ran);
    if (cgroup != null) {
      cgroup.remove();
    }
    bundle.delete();
  }
}
