package dev.cinchmcp.launch;

import dev.cinchmcp.transport.StdioTransport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * Ends the process now, once a stop has done its work. An exiting JVM waits up to 300 ms for
 * threads blocked in native calls (HotSpot's {@code VM_Exit}): with children or container streams
 * (threads in {@code waitpid} and pipe reads) it took 60-380 ms to end, so it ends by SIGKILL.
 */
public final class QuickExit {

  /** The exit status of a stop: a shell's for a process ended by SIGTERM. */
  public static final int STOPPED = 143;

  private QuickExit() {}

  /**
   * {@code clean}: no thread waits in a native call ({@code CodeRunner.stopNow}). Stdin is closed
   * before a {@code halt} only (for SIGKILL closing it would wait for the reader: 4-10 ms here).
   */
  public static void now(boolean clean, InputStream in) {
    if (!clean || ProcessHandle.current().children().findAny().isPresent()) {
      killThisProcess();
    }
    StdioTransport.closeInput(in);
    Runtime.getRuntime().halt(0);
  }

  /** Loads a stop's path ahead: the launcher then ended 9.8 ms after a signal, not 12.5. */
  public static void prepare() {
    threadHandle();
  }

  /** Ends the process with children still running: by SIGKILL, else by {@code halt(STOPPED)}. */
  public static void withChildrenRunning() {
    killThisProcess();
    Runtime.getRuntime().halt(STOPPED);
  }

  private static void killThisProcess() {
    Optional<ProcessHandle> thread = threadHandle();
    if (thread.isPresent() && thread.get().destroyForcibly()) {
      return; // SIGKILL is pending: this thread does not run on
    }
    try {
      String pid = Long.toString(ProcessHandle.current().pid());
      new ProcessBuilder("kill", "-KILL", pid).start().waitFor(1, TimeUnit.SECONDS);
    } catch (IOException | RuntimeException e) {
      // no kill command: halt, and wait as the JVM does
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * This thread as a process handle (Linux, not the first thread): Java refuses to destroy its own
   * process but not this, and {@code kill(2)} of a thread's id signals its process (no spawned
   * {@code kill}: 4-11 ms).
   */
  static Optional<ProcessHandle> threadHandle() {
    try {
      OptionalLong tid =
          otherThreadId(
              Files.readSymbolicLink(Path.of("/proc/thread-self")), ProcessHandle.current().pid());
      return tid.isPresent() ? ProcessHandle.of(tid.getAsLong()) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The thread id in {@code /proc/thread-self}'s target ("&lt;pid&gt;/task/&lt;tid&gt;") if it
   * names a thread of {@code pid} other than its first; a /proc of another pid namespace does not.
   */
  static OptionalLong otherThreadId(Path target, long pid) {
    if (target.getNameCount() != 3 || !target.getName(1).toString().equals("task")) {
      return OptionalLong.empty();
    }
    long owner = Long.parseLong(target.getName(0).toString());
    long tid = Long.parseLong(target.getName(2).toString());
    return owner == pid && tid != pid ? OptionalLong.of(tid) : OptionalLong.empty();
  }
}
