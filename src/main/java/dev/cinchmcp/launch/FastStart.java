package dev.cinchmcp.launch;

import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Gives a plain {@code java -jar cinch-mcp.jar} the fast launch from its second start on: a JVM
 * started with no options runs the server again as a child with {@link LaunchOptions} and its
 * {@link SelfMadeArchive} (a plain launch loads some two thousand classes the slow way; one small
 * JVM start saves several times it). {@code CINCH_FAST_START=0} turns it off, as does Windows.
 */
public final class FastStart {

  /** Set in the child, so that it never starts another. */
  static final String CHILD_MARKER = "cinch.faststart.child";

  /** The launcher's pid, given to the child on its command line. */
  static final String LAUNCHER_PID = "cinch.faststart.launcher";

  static final long WATCH_INTERVAL_MS = 250;

  private FastStart() {}

  /** Serves in a faster child JVM and exits, or says what this JVM does with stdin's first line. */
  public static FirstLineHandOver relaunchOrServeHere(String[] args, Map<String, String> env) {
    if (System.getProperty(CHILD_MARKER) != null) {
      long launcher = Long.getLong(LAUNCHER_PID, -1);
      if (launcher > 1) {
        DaemonThreads.start("cinch-launcher-watch", new LauncherWatch(launcher));
      }
      return FirstLineHandOver.from(env);
    }
    if (args.length != 0
        || System.getProperty(TrainingApi.TRAINING) != null
        || "0".equals(env.get("CINCH_FAST_START"))) {
      return FirstLineHandOver.NONE;
    }
    try {
      Path jar =
          Path.of(FastStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!startedPlain(jar, env)) {
        return FirstLineHandOver.NONE;
      }
      // A process is almost always started from here on; a class: a lambda bootstraps here.
      DaemonThreads.start("cinch-process-warm-up", new ProcessStartWarmUp());
      Optional<SelfMadeArchive> archive = SelfMadeArchive.of(jar, env);
      if (archive.isEmpty()) {
        return FirstLineHandOver.NONE;
      }
      if (!archive.get().ready()) {
        archive.get().makeInBackground();
        return FirstLineHandOver.NONE;
      }
      // A discover already waiting is answered now: the client has it while the child starts.
      FirstLineHandOver firstLine =
          FirstLineHandOver.answerWaiting(
              new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
      System.exit(runChild(jar, archive.get(), firstLine));
    } catch (IOException | URISyntaxException | RuntimeException e) {
      // run here, at normal speed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return FirstLineHandOver.NONE;
  }

  private static int runChild(Path jar, SelfMadeArchive archive, FirstLineHandOver firstLine)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(SelfMadeArchive.javaLauncher());
    command.addAll(LaunchOptions.fast(jar));
    command.add(archive.useOption());
    command.add("-D" + CHILD_MARKER + "=true");
    command.add("-D" + LAUNCHER_PID + "=" + pid());
    command.addAll(List.of("-jar", jar.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    firstLine.putIn(builder.environment());
    // The hook is in place before the child starts: a client may stop this process the moment it
    // has the discover answer. (Becoming the child by execve through Java 22's FFM API saved this
    // JVM's ~40 MB but cost a cold JVM 130-200 ms of start to link.)
    ForwardStop forward = new ForwardStop();
    Runtime.getRuntime().addShutdownHook(new Thread(forward, "cinch-faststart-forward"));
    Process child = forward.start(builder);
    SelfMadeArchive.markUsed(archive.file()); // not on the child's path
    return child.waitFor();
  }

  /**
   * Readies on another core, changing nothing, what a first {@code ProcessBuilder.start()} sets up
   * (20-30 ms on Java 17 and 25: Process's classes, the reaper's pool, lambdas), and a stop's path.
   */
  private static final class ProcessStartWarmUp implements Runnable {
    @Override
    public void run() {
      try {
        Class.forName("java.lang.ProcessImpl", true, null);
        Class.forName("java.lang.ProcessHandleImpl", true, null);
        CompletableFuture<String> exit = new CompletableFuture<>();
        exit.handle((value, error) -> value);
        exit.complete("");
      } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
        // Another JDK's inside: the start only pays the cost on its own thread.
      }
      QuickExit.prepare();
    }
  }

  /**
   * Passes a stop on to the child as SIGTERM and ends this process at once ({@link QuickExit}), not
   * after two JVM exits in a row (15-25 ms each on a small VM). A stop before the start means no
   * child; one during it waits, then stops it. Were this process killed, the child notices.
   */
  private static final class ForwardStop implements Runnable {

    private Process child;
    private boolean stopping;

    synchronized Process start(ProcessBuilder builder) throws IOException, InterruptedException {
      if (stopping) {
        Thread.currentThread().join(); // the JVM is exiting by the stop's status
      }
      child = builder.start();
      return child;
    }

    @Override
    public void run() {
      Process started;
      synchronized (this) {
        stopping = true;
        started = child;
      }
      if (started == null) {
        return; // nothing started: the JVM exits as it does on any stop
      }
      if (!started.isAlive()) {
        Runtime.getRuntime().halt(started.exitValue());
      }
      started.destroy();
      QuickExit.withChildrenRunning();
    }
  }

  /**
   * In the child: once the launcher is killed outright, no client's signal reaches this process, so
   * it notices the launcher gone and stops as on SIGTERM. A class: this runs at every start.
   */
  private record LauncherWatch(long launcher) implements Runnable {
    @Override
    public void run() {
      while (true) {
        try {
          Thread.sleep(WATCH_INTERVAL_MS);
        } catch (InterruptedException e) {
          return;
        }
        // An orphan is re-parented at once (to init or a subreaper): the pid changes, and a new
        // process that happens to reuse the launcher's pid cannot be mistaken for it.
        long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        if (parent != launcher) {
          System.exit(QuickExit.STOPPED); // as a SIGTERM: the shutdown hook stops everything
        }
      }
    }
  }

  /** Whether this JVM got no options at all, on its command line or from the environment. */
  private static boolean startedPlain(Path jar, Map<String, String> env) {
    String[] arguments = arguments();
    return !env.containsKey("JDK_JAVA_OPTIONS")
        && !env.containsKey("JAVA_TOOL_OPTIONS")
        && !env.containsKey("_JAVA_OPTIONS")
        && arguments != null
        && arguments.length == 2
        && "-jar".equals(arguments[0])
        && Path.of(arguments[1]).toAbsolutePath().normalize().equals(jar.normalize());
  }

  /**
   * This JVM's arguments after the program name. Linux's /proc is read directly, by a stream whose
   * classes the JVM has already loaded: ProcessHandle, or Files' channels, cost a cold JVM some ms.
   */
  private static String[] arguments() {
    try (FileInputStream in = new FileInputStream("/proc/self/cmdline")) {
      String[] words = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\0");
      return Arrays.copyOfRange(words, 1, words.length);
    } catch (IOException | RuntimeException noProc) {
      return ProcessHandle.current().info().arguments().orElse(null);
    }
  }

  /**
   * This JVM's pid, from Linux's /proc/self link where there is one: ProcessHandle's set-up (the
   * warm-up thread is running it at this point) held the child's start up by 5-7 ms.
   */
  private static long pid() {
    try {
      return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
    } catch (IOException | RuntimeException noProc) {
      return ProcessHandle.current().pid();
    }
  }
}
