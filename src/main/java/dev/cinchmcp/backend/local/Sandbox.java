package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxEnding;
import dev.cinchmcp.backend.SandboxOutput;
import dev.cinchmcp.backend.StartedSandbox;
import dev.cinchmcp.backend.StreamCapture;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One gVisor sandbox running exactly one program: its run id (runsc's container id, its cgroup's
 * name), {@link Bundle}, runsc process and {@link RunCgroup}. Started by {@link #run} (cold) or
 * {@link #startAhead} (its interpreter waits: {@link WarmLauncher}). The wall clock is enforced
 * here and by a backstop a second later ({@code timeout}, or the supervisor) that outlives the JVM.
 */
final class Sandbox implements StartedSandbox {

  private static final Logger log = LoggerFactory.getLogger(Sandbox.class);

  private final String id = StateDirectory.nextRunId();
  private final Language language;
  private final SandboxHost host; // with the settings of this run
  private final LocalSandboxSettings settings;
  private final Bundle bundle;

  private final List<String> preload; // imported before the wait (a data sandbox); else empty
  private final String fingerprint; // the interpreter's, when started ahead; null when cold

  private volatile Process process;
  private volatile RunCgroup cgroup;
  private volatile boolean cancelled;
  private volatile boolean gone;
  private volatile long peakBytes = -1;
  private boolean lowPriority;
  private Consumer<RunResult> onResult = result -> {};

  private Sandbox(Language language, SandboxHost host, List<String> preload, String fingerprint) {
    this.language = language;
    this.host = host;
    this.settings = host.settings();
    this.bundle = new Bundle(host.state().bundles().resolve(id));
    this.preload = List.copyOf(preload);
    this.fingerprint = fingerprint;
  }

  static Sandbox cold(Language language, SandboxHost host) {
    return new Sandbox(language, host, List.of(), null);
  }

  /**
   * A data sandbox imports {@code preload} uncapped (~4 s of CPU for numpy, pandas, matplotlib).
   */
  static Sandbox startAhead(Language language, List<String> preload, SandboxHost host)
      throws IOException {
    String fingerprint =
        host.runtimes()
            .fingerprint(language)
            .orElseThrow(() -> new IOException("no " + language.wireName() + " interpreter"));
    Sandbox sandbox = new Sandbox(language, host, preload, fingerprint);
    try {
      sandbox.bundle.write(language, host, true, preload);
      List<String> command =
          new ArrayList<>(List.of("/bin/sh", "-c", WarmLauncher.SUPERVISOR, "cinchmcp-warm"));
      command.add(host.settings().backstopSeconds().replace("s", ""));
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

  /** A waiting sandbox died before it took its program: nothing ran; run it cold. */
  static final class HandOverFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HandOverFailed(String message) {
      super(message, null, false, false);
    }
  }

  String id() {
    return id;
  }

  Sandbox onResult(Consumer<RunResult> listener) {
    onResult = listener;
    return this;
  }

  /** {@code nice -n 19}: the self-test runs while the server answers its first requests. */
  Sandbox lowPriority() {
    lowPriority = true;
    return this;
  }

  String startNote() {
    String imported = preload.isEmpty() ? "" : ", " + String.join(", ", preload) + " imported";
    return fingerprint == null ? " started" : " (started ahead of time" + imported + ")";
  }

  /** Of the whole sandbox once it has exited; -1 when not known. */
  long peakMemory() {
    return peakBytes;
  }

  @Override
  public void awaitReady() throws IOException, InterruptedException {
    long started = System.nanoTime();
    WarmLauncher.awaitReady(process, host.streamThreads(), "the sandbox ended before it was ready");
    if (!preload.isEmpty()) { // LocalDataSandboxIT reads this line
      long millis = (System.nanoTime() - started) / 1_000_000;
      log.debug("Data sandbox {} ready in {} ms, {} imported", id, millis, preload);
    }
    if (language == Language.JAVASCRIPT) { // loaded: out of sight (a cold /code has no more)
      Files.deleteIfExists(bundle.dir().resolve("rootfs/code").resolve(WarmLauncher.NODE_FILE));
    }
  }

  @Override
  public boolean usable() {
    return !gone
        && process.isAlive()
        && host.runtimes().fingerprint(language).map(fingerprint::equals).orElse(false);
  }

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
      // A stop on a signal leaves the remains to the next start; a close's interrupt is kept.
      if (!host.runsc().refusesStarts()) {
        boolean interrupted = Thread.interrupted();
        removeAll(true);
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private List<String> prepareCold(Program program) throws IOException {
    bundle.write(language, host, false, List.of());
    bundle.writeProgram(program);
    List<String> command = new ArrayList<>();
    if (lowPriority) {
      command.addAll(List.of(host.timeout().resolveSibling("nice").toString(), "-n", "19"));
    }
    command.addAll(List.of(host.timeout().toString(), "--signal=KILL", settings.backstopSeconds()));
    command.addAll(bundle.runscRun(host.runsc(), id));
    return makeCgroup() ? cgroup.wrap(command) : command;
  }

  private Process startCold(List<String> command) {
    try {
      process = host.runsc().start(host.runsc().processBuilder(command));
    } catch (IOException e) {
      throw SandboxExit.runscNotStarted(host.runsc(), e);
    }
    try { // a pipe, as a warm run's: the program reads end-of-file, never the server's stdin
      process.getOutputStream().close();
    } catch (IOException e) {
      // nothing was written; end-of-file either way
    }
    return process;
  }

  /** Writes the program where a cold run has it, arms the backstop, and lets the launcher go. */
  private Process handOver(Program program) {
    Process sandbox = process;
    try {
      if (!preload.isEmpty() && cgroup != null) {
        cgroup.capCpu(settings.cpuShare()); // the program's cap, before its first instruction
      }
      if (language == Language.PYTHON) { // a font list made since: the root is read at hand-over
        host.fontCache().addTo(bundle.dir().resolve("rootfs"));
      }
      bundle.writeProgram(program);
      if (!sandbox.isAlive()) {
        throw new IOException("the waiting sandbox ended");
      }
      sandbox.toHandle().destroy(); // SIGTERM arms the backstop (Process.destroy() closes streams)
      WarmLauncher.go(sandbox);
      WarmLauncher.awaitReady(
          sandbox, host.streamThreads(), "the waiting sandbox ended before it took its program");
    } catch (IOException e) {
      throw new HandOverFailed(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HandOverFailed("interrupted at hand-over");
    }
    return sandbox;
  }

  private RunResult awaitResult(Process sandbox, Program program, long started) {
    StreamCapture stdout = new StreamCapture(program.out());
    StreamCapture stderr = new StreamCapture();
    Future<?> out = host.streamThreads().submit(() -> drain(sandbox.getInputStream(), stdout));
    Future<?> err = host.streamThreads().submit(() -> drain(sandbox.getErrorStream(), stderr));
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

  /** To its end: a program blocked on a full pipe would never exit. */
  static void drain(InputStream stream, StreamCapture into) {
    byte[] buffer = new byte[8192];
    try (stream) {
      for (int n; (n = stream.read(buffer)) >= 0; ) {
        into.feed(buffer, 0, n);
      }
    } catch (IOException e) {
      // The pipe closes when the sandbox is killed; what was read so far is the output.
    }
  }

  private SandboxEnding awaitEnd(Process sandbox) {
    long started = System.nanoTime();
    try {
      if (sandbox.waitFor(settings.wallClock().toMillis(), TimeUnit.MILLISECONDS)) {
        if (cancelled) {
          return SandboxEnding.CANCELLED;
        }
        // On a starved machine this thread may wake late, after the backstop's SIGKILL.
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
      stop(); // the runner is closing; run() cleans up
      Thread.currentThread().interrupt();
      throw SandboxEnding.shutDownWhileRunning("local sandbox runner");
    }
  }

  private boolean makeCgroup() throws IOException {
    if (host.cgroups().isPresent()) {
      long memory = settings.memoryBytes() + host.overhead(language);
      cgroup =
          host.cgroups().get().create(id, memory, settings.hostTaskLimit(), settings.cpuShare());
    }
    return cgroup != null;
  }

  /** {@link #run} then returns and cleans up. */
  void cancel() {
    cancelled = true;
    stop();
  }

  /** The tree is walked with a cgroup too: else a fork bomb's stubs stalled the runs beside it. */
  private void stop() {
    Process p = process;
    boolean alive = p != null && p.isAlive();
    killProcesses(true);
    if (alive && cgroup == null) {
      host.runsc().deleteForce(id);
    }
  }

  /** A waiting sandbox's cgroup holds every process: no walk (5-10 ms a sandbox here). */
  @Override
  public void kill() {
    gone = true;
    killProcesses(false);
  }

  private void killProcesses(boolean walk) {
    RunCgroup limits = cgroup;
    Process p = process;
    if (limits != null) {
      limits.killAll();
    }
    if (p == null) {
      return;
    }
    // Loops, not lambdas: a stop runs this cold.
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

  private void removeAll(boolean ran) {
    killProcesses(true);
    host.runsc().removeState(id, !ran);
    if (cgroup != null) {
      cgroup.remove();
    }
    bundle.delete();
  }
}
