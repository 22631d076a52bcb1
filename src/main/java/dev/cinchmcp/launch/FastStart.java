package dev.cinchmcp.launch;

import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Gives a plain {@code java -jar cinch-mcp.jar} the fast launch's start-up, from its second start
 * on.
 *
 * <p>JVM options cannot be set from inside a jar, and a plain launch loads some two thousand
 * classes the slow way. So when the JVM was started with no options at all, the server looks for
 * the archive it made for itself on an earlier start ({@link SelfMadeArchive}: per user, per JVM,
 * per jar). If it is there, the server is started again as a child with the options of {@link
 * LaunchOptions} and that archive: one small JVM start that saves several times it. The child
 * inherits stdin, stdout and stderr as they are (nothing is copied through this process), and its
 * exit status is returned; a stop signal here is passed on, and this process ends at once (were it
 * killed outright, the child notices and stops: {@link LauncherWatch}). If it is not there yet, the
 * server runs in this JVM, at normal speed, and a separate training process makes the archive for
 * next time. {@code CINCH_FAST_START=0} turns all of it off.
 *
 * <p>"No options at all" is read from the process's own arguments, which Linux and macOS give;
 * where they are unknown (Windows), the server always runs in this JVM.
 */
public final class FastStart {

  /** Set in the child, so that it never starts another. */
  static final String CHILD_MARKER = "cinch.faststart.child";

  private FastStart() {}

  /**
   * What the fast start did: ran the server in a child JVM, which has exited with {@code
   * childStatus}; or left it to this JVM ({@code childStatus} empty), which then serves stdin as
   * {@code firstLine} says (in a child: what its launcher did with the first line).
   */
  public record Outcome(OptionalInt childStatus, FirstLineHandOver firstLine) {

    static Outcome runHere(FirstLineHandOver firstLine) {
      return new Outcome(OptionalInt.empty(), firstLine);
    }
  }

  /** Runs the server in a faster child JVM if it can, or says how to run it here. */
  public static Outcome relaunch(String[] args, Map<String, String> env) {
    if (System.getProperty(CHILD_MARKER) != null) {
      return Outcome.runHere(FirstLineHandOver.from(env));
    }
    if (args.length != 0
        || System.getProperty(SelfMadeArchive.TRAINING) != null
        || "0".equals(env.get("CINCH_FAST_START"))) {
      return Outcome.runHere(FirstLineHandOver.NONE);
    }
    FirstLineHandOver firstLine = FirstLineHandOver.NONE;
    try {
      Path jar =
          Path.of(FastStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (!startedPlain(jar, env)) {
        return Outcome.runHere(firstLine);
      }
      // From here on a process is almost always started: the child, or the trainer of its archive.
      ProcessStartWarmUp.begin();
      Optional<SelfMadeArchive> archive = SelfMadeArchive.of(jar, env);
      if (archive.isEmpty()) {
        return Outcome.runHere(firstLine);
      }
      if (!archive.get().ready()) {
        archive.get().makeInBackground();
        return Outcome.runHere(firstLine);
      }
      // A discover already waiting is answered now: the client has it while the child starts.
      firstLine =
          FirstLineHandOver.answerWaiting(
              new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
      return new Outcome(OptionalInt.of(runChild(jar, archive.get(), firstLine)), firstLine);
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return Outcome.runHere(firstLine); // run here, at normal speed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Outcome.runHere(firstLine);
    }
  }

  /** Starts the child, handing it what was done with stdin's first line, and waits for it. */
  private static int runChild(Path jar, SelfMadeArchive archive, FirstLineHandOver firstLine)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(LaunchOptions.fast(jar));
    command.addAll(archive.useOptions());
    command.add("-D" + CHILD_MARKER + "=true");
    command.add("-D" + LauncherWatch.LAUNCHER_PID + "=" + ProcessHandle.current().pid());
    command.add("-jar");
    command.add(jar.toString());
    ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
    firstLine.putIn(builder.environment());
    // A client signals only this process: SIGINT, SIGTERM or SIGHUP here is passed on as SIGTERM,
    // and both stop at once. Were this process killed outright, the child notices its launcher gone
    // (LauncherWatch) and stops too. The hook is in place before the child starts: a client may
    // stop this process the moment it has the discover answer, while the child is being started.
    ForwardStop forward = new ForwardStop();
    Runtime.getRuntime().addShutdownHook(new Thread(forward, "cinch-faststart-forward"));
    // A child, on every Java: becoming the fast JVM by execve (Java 22's foreign function API)
    // saved the ~40 MB of this waiting JVM, but linking it cost a cold JVM 130-200 ms of start.
    Process child = forward.start(builder);
    // Marked once the child is on its way, not before: it is not on the child's path.
    archive.markUsed();
    // The stop's exit path, loaded while this JVM only waits: a stop then loads nothing first.
    QuickExit.prepare();
    return child.waitFor();
  }

  /**
   * Starts the child, and on a stop passes it on and ends this process at once. The child stops its
   * calls and sandboxes and ends itself, with a backstop of its own ({@code StopOnSignal}). Were
   * this process to wait for it, the client would wait for two JVM exits one after the other (some
   * 15-25 ms each on a small VM), not side by side; and a JVM cannot end quickly while a thread of
   * its own waits for a child, so it ends by SIGKILL ({@link QuickExit}). A child that has already
   * ended gives its status, as always. The start and the stop exclude each other: a stop that comes
   * first means no child is started; one that comes during the start waits for it, then stops it.
   */
  private static final class ForwardStop implements Runnable {

    private Process child;
    private boolean stopping;

    synchronized Process start(ProcessBuilder builder) throws IOException, InterruptedException {
      if (stopping) {
        // The JVM is exiting by the stop's status; this thread only waits for that.
        Thread.currentThread().join();
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
      QuickExit.withChildrenRunning(LauncherWatch.STOPPED);
    }
  }

  /**
   * Whether this JVM got no options at all: exactly {@code java -jar <jar>}, and none from the
   * environment variables the launcher reads options from.
   */
  private static boolean startedPlain(Path jar, Map<String, String> env) {
    for (String variable : List.of("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS")) {
      if (env.containsKey(variable)) {
        return false;
      }
    }
    String[] arguments = arguments();
    return arguments != null
        && arguments.length == 2
        && "-jar".equals(arguments[0])
        && Path.of(arguments[1]).toAbsolutePath().normalize().equals(jar.normalize());
  }

  /** This JVM's arguments after the program name; Linux's /proc is read directly (it is faster). */
  private static String[] arguments() {
    try {
      byte[] cmdline = java.nio.file.Files.readAllBytes(Path.of("/proc/self/cmdline"));
      String[] words = new String(cmdline, java.nio.charset.StandardCharsets.UTF_8).split("\0");
      return java.util.Arrays.copyOfRange(words, 1, words.length);
    } catch (IOException | RuntimeException noProc) {
      return ProcessHandle.current().info().arguments().orElse(null);
    }
  }
}
