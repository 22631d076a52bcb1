package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.ProcStatus;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * What the quick exit's SIGKILL without a spawned {@code kill} rests on, checked without killing
 * anything: on Linux, a thread other than the first has a process handle of its own, which Java
 * does not refuse to destroy, and whose id names the thread's process to the kernel. (The kill
 * itself is tested end to end: {@code Mcp2026IT.aStopNeedsNoKillCommandToEndAtOnce}.)
 */
@EnabledOnOs(OS.LINUX)
class QuickExitTest {

  @Test
  void aThreadsHandleIsNotTheProcessButBelongsToIt() throws Exception {
    CountDownLatch checked = new CountDownLatch(1);
    CompletableFuture<Optional<ProcessHandle>> found = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              found.complete(QuickExit.threadHandle());
              awaitQuietly(checked); // alive while it is checked
            });
    thread.start();
    try {
      Optional<ProcessHandle> handle = found.get();

      assertTrue(handle.isPresent(), "a thread other than the first has a handle");
      long tid = handle.get().pid();
      long pid = ProcessHandle.current().pid();
      assertNotEquals(pid, tid, "not the process's own handle, which Java refuses to destroy");
      assertNotEquals(ProcessHandle.current(), handle.get());
      assertTrue(handle.get().isAlive());
      assertEquals(pid, threadGroupOf(tid), "the thread belongs to this process");
    } finally {
      checked.countDown();
      thread.join();
    }
  }

  @Test
  void onlyAThreadOfThisProcessOtherThanItsFirstIsTaken() {
    assertEquals(OptionalLong.of(456), QuickExit.otherThreadId(Path.of("123/task/456"), 123));
    // /proc of another pid namespace: its ids would name another process here
    assertEquals(OptionalLong.empty(), QuickExit.otherThreadId(Path.of("9123/task/9456"), 123));
    // the first thread: its id is the process's, which Java refuses to destroy
    assertEquals(OptionalLong.empty(), QuickExit.otherThreadId(Path.of("123/task/123"), 123));
    assertEquals(OptionalLong.empty(), QuickExit.otherThreadId(Path.of("123"), 123));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The process a thread id belongs to, as the kernel says ({@code Tgid}). */
  private static long threadGroupOf(long tid) {
    return Long.parseLong(
        ProcStatus.field(tid, "Tgid").orElseThrow(() -> new AssertionError("no Tgid for " + tid)));
  }
}
