package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.StartedSandbox;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gVisor sandbox started ahead of time, its interpreter up and waiting for one program ({@link
 * WarmLauncher}). Everything a cold run fixes before its program starts is fixed here at the same
 * point: the bundle and spec (but for the launcher's first lines), the run's cgroup with its
 * memory, task and CPU limits, the namespaces. {@link SandboxRun} then runs the program in it and
 * removes it, as it does a cold sandbox.
 *
 * <p>Only {@code runsc run} as a long-lived child works rootless here ({@code create}/{@code start}
 * refuse {@code --rootless}), so the sandbox is a child of a small shell, {@link #SUPERVISOR},
 * which holds the time limit: {@code timeout} around a waiting sandbox would count the wait. The
 * server arms it at hand-over with SIGTERM (the one signal {@link Process} can send besides
 * SIGKILL); from then it kills runsc after the wall clock and its grace, even if the server is gone
 * by then (SIGKILL included). Before hand-over, a server that dies closes the launcher's stdin,
 * which ends the sandbox at once. What a killed server leaves (state, bundle, cgroup) is named like
 * any run, so the next start's housekeeping removes it.
 */
final class WaitingSandbox implements StartedSandbox {

  private static final Logger log = LoggerFactory.getLogger(WaitingSandbox.class);

  /**
   * {@code sh -c SUPERVISOR cinchmcp-warm LIMIT runsc ...}: runs runsc with the shell's stdin (fd
   * 3: an asynchronous command would get /dev/null), keeps none of it itself, and exits with
   * runsc's status. The first SIGTERM starts the backstop: a background sleep of LIMIT, then
   * SIGKILL to runsc; it is stopped when runsc ends first.
   */
  static final String SUPERVISOR =
      String.join(
          "\n",
          "limit=$1; shift",
          "exec 3<&0",
          "\"$@\" <&3 3<&- &",
          "p=$!",
          "exec 3<&- 0</dev/null",
          "armed=",
          "backstop() { trap 'kill $s 2>/dev/null; exit 0' TERM; sleep \"$limit\" & s=$!; wait $s;"
              + " kill -9 $p 2>/dev/null; }",
          "arm() { [ -n \"$armed\" ] || { backstop & armed=$!; }; }",
          "trap arm TERM",
          "while :; do wait $p; status=$?; kill -0 $p 2>/dev/null || break; done",
          "[ -z \"$armed\" ] || kill $armed 2>/dev/null",
          "exit $status");

  /** How long a start may take before it is given up (a cold start takes ~0.2-0.5 s). */
  private static final long READY_TIMEOUT_SECONDS = 20;

  private final SandboxParts parts;
  private final Language language;
  private final String fingerprint;
  private final SandboxHost host;
  private final ExecutorService streamThreads;
  private final List<String> preload;
  private final double cpuShare;
  private volatile boolean gone;

  private WaitingSandbox(
      SandboxParts parts,
      Language language,
      String fingerprint,
      SandboxHost host,
      ExecutorService streamThreads,
      List<String> preload,
      double cpuShare) {
    this.parts = parts;
    this.language = language;
    this.fingerprint = fingerprint;
    this.host = host;
    this.streamThreads = streamThreads;
    this.preload = preload;
    this.cpuShare = cpuShare;
  }

  /**
   * Starts a sandbox for {@code language} and returns at once ({@link #awaitReady()} waits for its
   * interpreter); throws, leaving nothing behind, when it cannot.
   */
  static WaitingSandbox start(
      Language language,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads)
      throws IOException {
    return start(language, settings, host, streamThreads, List.of());
  }

  /**
   * Starts a data sandbox: a Python that imports {@code preload} before it waits (none: a plain
   * one). Its own CPU cap is lifted until the hand-over, so that the imports (~4 s of CPU for
   * numpy, pandas and matplotlib here) are done within the gap between two calls; the run's cap
   * then holds from the hand-over, as its time limit does. Its memory limit is a plain sandbox's:
   * what the imports take counts against the program, as if it had imported them itself.
   */
  static WaitingSandbox start(
      Language language,
      LocalSandboxSettings settings,
      SandboxHost host,
      ExecutorService streamThreads,
      List<String> preload)
      throws IOException {
    String id = Housekeeping.nextRunId();
    Path bundle = host.state().bundles().resolve(id);
    Optional<String> fingerprint = host.runtimes().fingerprint(language);
    if (fingerprint.isEmpty()) {
      throw new IOException("no " + language.wireName() + " interpreter");
    }
    RunCgroup cgroup = null;
    Process process = null;
    try {
      SandboxRun.writeBundle(bundle, language, settings, host, true, preload);
      List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", SUPERVISOR, "cinchmcp-warm"));
      command.add(SandboxRun.backstopSeconds(settings).replace("s", ""));
      command.addAll(SandboxRun.runscRun(host, bundle, id));
      cgroup = SandboxRun.limitedCgroup(host, id, language, settings);
      if (cgroup != null) {
        if (!preload.isEmpty()) {
          cgroup.capCpu(RunCgroup.ANY_CPU);
        }
        command = cgroup.wrap(command);
      }
      process = host.runsc().start(host.runsc().processBuilder(command));
      return new WaitingSandbox(
          new SandboxParts(id, bundle, process, cgroup),
          language,
          fingerprint.get(),
          host,
          streamThreads,
          List.copyOf(preload),
          settings.cpuShare());
    } catch (IOException | RuntimeException e) {
      SandboxRun.removeKilled(host, new SandboxParts(id, bundle, process, cgroup));
      throw e;
    }
  }

  @Override
  public void awaitReady() throws IOException, InterruptedException {
    long started = System.nanoTime();
    awaitByte("the sandbox ended before it was ready");
    if (!preload.isEmpty()) {
      log.debug(
          "Data sandbox {} ready in {} ms, {} imported",
          parts.id(),
          (System.nanoTime() - started) / 1_000_000,
          String.join(", ", preload));
    }
    if (language == Language.JAVASCRIPT) {
      // Loaded: out of the program's sight (a cold run's /code holds only its own files).
      Files.deleteIfExists(parts.bundle().resolve("rootfs/code").resolve(WarmLauncher.NODE_FILE));
    }
  }

  /**
   * Waits for the launcher's answer to {@link #handOver}: it has its program. Throws when it does
   * not come (the sandbox died just before: nothing ran, so the caller runs the program cold).
   */
  void awaitTaken() throws IOException {
    try {
      awaitByte("the waiting sandbox ended before it took its program");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted at hand-over");
    }
  }

  private void awaitByte(String otherwise) throws IOException, InterruptedException {
    InputStream stdout = parts.process().getInputStream();
    Callable<Integer> readFirst = stdout::read;
    Future<Integer> first = streamThreads.submit(readFirst);
    int read;
    try {
      read = first.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the sandbox was not ready within " + READY_TIMEOUT_SECONDS + " s");
    } catch (ExecutionException e) {
      throw new IOException("the sandbox's output could not be read", e.getCause());
    } finally {
      first.cancel(true);
    }
    if (read != WarmLauncher.READY) {
      throw new IOException(otherwise);
    }
  }

  /** The run of {@code program} in this sandbox, which then owns it and removes it. */
  SandboxRun runOf(Program program, LocalSandboxSettings settings) {
    return new SandboxRun(parts, this, program, settings, host, streamThreads);
  }

  /** The modules it imported before it waited; empty for a plain sandbox. */
  List<String> preload() {
    return preload;
  }

  @Override
  public boolean usable() {
    return !gone
        && parts.process().isAlive()
        && host.runtimes().fingerprint(language).map(fingerprint::equals).orElse(false);
  }

  /**
   * Gives the sandbox its program: writes it where a cold run has it, arms the supervisor's
   * backstop (the time limit counts from now), then lets the launcher go. Throws when the sandbox
   * died meanwhile; the program has then not started, and the caller runs it cold.
   */
  void handOver(Program program) throws IOException {
    Path bundle = parts.bundle();
    Process process = parts.process();
    if (!preload.isEmpty() && parts.cgroup() != null) {
      parts.cgroup().capCpu(cpuShare); // the program's cap, before its first instruction
    }
    if (language == Language.PYTHON) {
      // Made since this sandbox started? Its root, like /code, is read at hand-over.
      host.fontCache().addTo(bundle.resolve("rootfs"));
    }
    Files.writeString(
        SandboxRun.codeFile(bundle, language), program.code(), StandardCharsets.UTF_8);
    if (!process.isAlive()) {
      throw new IOException("the waiting sandbox ended");
    }
    // SIGTERM: the supervisor's signal to start the backstop (Process.destroy() would also close
    // the streams).
    process.toHandle().destroy();
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(WarmLauncher.GO.getBytes(StandardCharsets.US_ASCII));
    }
  }

  /**
   * Kills every process of the sandbox. With cgroups, the cgroup holds them all (each joined it as
   * it started, and runsc starts nothing more while it waits), so that is all it takes: no walk of
   * every process on the machine for this one's descendants, which a stop with two sandboxes
   * waiting paid 5-10 ms for here. Without, the walk finds them, before their parent dies.
   */
  @Override
  public void kill() {
    gone = true;
    if (parts.cgroup() != null) {
      parts.cgroup().killAll();
      parts.process().destroyForcibly();
      return;
    }
    List<ProcessHandle> tree = parts.process().descendants().toList();
    parts.process().destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public void discard() {
    gone = true;
    SandboxRun.removeKilled(host, parts);
  }
}
