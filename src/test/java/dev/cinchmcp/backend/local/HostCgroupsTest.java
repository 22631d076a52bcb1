package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cgroup v2 path over a directory tree laid out like a systemd user session's delegated
 * subtree. These machines mount cgroup v1, so the kernel's side (moving a process in, the OOM
 * killer, cpu.max) is not exercised here: only where the backend looks, what it makes and writes,
 * and what it reads back. Also the cap on all sandboxes together, and how the ready line says it.
 */
class HostCgroupsTest {

  private static final String OWN =
      "/user.slice/user-1000.slice/user@1000.service/app.slice/app-client.scope";

  @TempDir Path fs;
  Path delegated;

  @BeforeEach
  void layOutADelegatedSubtree() throws IOException {
    Files.writeString(fs.resolve("cgroup.controllers"), "cpuset cpu io memory hugetlb pids rdma\n");
    Files.writeString(fs.resolve("cgroup.subtree_control"), "cpu io memory pids\n");
    Path userSlice = Files.createDirectories(fs.resolve("user.slice/user-1000.slice"));
    Files.writeString(userSlice.resolve("cgroup.subtree_control"), "cpu memory pids\n");
    Files.writeString(userSlice.resolve("cgroup.procs"), "");
    Files.writeString(fs.resolve("cgroup.procs"), "1\n");
    delegated = userSlice.resolve("user@1000.service");
    Files.createDirectories(delegated.resolve("app.slice/app-client.scope"));
    Files.writeString(delegated.resolve("cgroup.subtree_control"), "cpu memory pids\n");
    Files.writeString(delegated.resolve("cgroup.procs"), "");
    Files.writeString(delegated.resolve("app.slice/cgroup.subtree_control"), "memory pids\n");
    Files.writeString(delegated.resolve("app.slice/cgroup.procs"), "");
    Files.writeString(delegated.resolve("app.slice/app-client.scope/cgroup.procs"), "4242\n");
  }

  private static String procSelfCgroup() {
    return "0::" + OWN + "\n";
  }

  /** The limits found for this user in the delegated subtree laid out above. */
  private HostCgroups delegatedLimits() {
    return HostCgroups.find(fs, procSelfCgroup(), StateDirectory.ownUid()).limits().orElseThrow();
  }

  @Test
  void findsTheNearestDelegatedAncestorWithAllThreeControllers() {
    HostCgroups.Result result = HostCgroups.find(fs, procSelfCgroup(), StateDirectory.ownUid());
    assertTrue(result.limits().isPresent(), result.unavailableReason());
    HostCgroups limits = result.limits().get();
    // app.slice lacks cpu; the server's own scope holds the server, so neither can be the parent.
    assertEquals(delegated.resolve("cinchmcp"), limits.parent());
    assertEquals("cgroup v2 at " + delegated.resolve("cinchmcp"), limits.describe());
  }

  @Test
  void enablesTheControllersForItsRunsAndWritesEachLimit() throws IOException {
    HostCgroups limits = delegatedLimits();
    assertEquals(
        "+memory +pids +cpu", Files.readString(limits.parent().resolve("cgroup.subtree_control")));
    RunCgroup run = limits.create("cinchmcp-1-1", 300L << 20, 640, 0.5);
    Path dir = limits.parent().resolve("cinchmcp-1-1");
    assertEquals(List.of(dir.resolve("cgroup.procs")), run.procsFiles());
    assertEquals(Long.toString(300L << 20), Files.readString(dir.resolve("memory.max")));
    assertEquals("640", Files.readString(dir.resolve("pids.max")));
    assertEquals("50000 100000", Files.readString(dir.resolve("cpu.max")));
    assertEquals(
        List.of("/bin/sh", "-c", RunCgroup.JOIN_THEN_EXEC, "cinchmcp-join", "1"),
        run.wrap(List.of("runsc", "run")).subList(0, 5));
    assertEquals(
        List.of(dir.resolve("cgroup.procs").toString(), "runsc", "run"),
        run.wrap(List.of("runsc", "run")).subList(5, 8));
  }

  @Test
  void readsTheKernelsVerdicts() throws IOException {
    RunCgroup run = delegatedLimits().create("cinchmcp-1-2", 1L << 28, 64, 0.5);
    Path dir = run.memory();
    Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n");
    Files.writeString(dir.resolve("pids.events"), "max 0\n");
    assertFalse(run.memoryExceeded());
    assertFalse(run.processLimitHit());
    Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n");
    Files.writeString(dir.resolve("pids.events"), "max 2\n");
    Files.writeString(dir.resolve("memory.peak"), "123456\n");
    assertTrue(run.memoryExceeded());
    assertTrue(run.processLimitHit());
    assertEquals(123456, run.peakMemory());
  }

  @Test
  void removesOnlyTheRunsOfDeadServers() throws IOException {
    HostCgroups limits = delegatedLimits();
    Path parent = limits.parent();
    Files.createDirectory(parent.resolve("cinchmcp-dead-1"));
    Files.createDirectory(parent.resolve("cinchmcp-live-1"));
    limits.removeLeftovers(name -> name.contains("dead"));
    // A fake tree keeps the interface files the kernel would drop, so only the emptied directory
    // of the live run is checked: it stays.
    assertTrue(Files.isDirectory(parent.resolve("cinchmcp-live-1")));
    assertFalse(Files.exists(parent.resolve("cinchmcp-dead-1")));
  }

  @Test
  void notDelegatedSaysSoAndWhatToDo() throws IOException {
    // A login shell's session scope: under user-1000.slice, which root owns and does not delegate.
    Files.writeString(
        delegated.resolve("cgroup.subtree_control"), "memory pids\n"); // systemd without cpu
    HostCgroups.Result result = HostCgroups.find(fs, procSelfCgroup(), StateDirectory.ownUid() + 1);
    assertTrue(result.limits().isEmpty());
    assertTrue(
        result.unavailableReason().startsWith("cgroup v2 is not delegated to this user here"),
        result.unavailableReason());
    assertTrue(result.unavailableReason().contains("systemd-run --user"));
  }

  @Test
  void anAncestorOwnedBySomeoneElseIsNotUsed() throws IOException {
    assumeTrue(StateDirectory.ownUid() == 0, "only root can give a directory away");
    UserPrincipal nobody =
        fs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.setOwner(delegated, nobody);
    Files.setOwner(delegated.resolve("cgroup.procs"), nobody);
    HostCgroups.Result result = HostCgroups.find(fs, procSelfCgroup(), 0);
    // user-1000.slice is ours (root's) and enables all three: root may use it, never nobody's.
    assertEquals(
        fs.resolve("user.slice/user-1000.slice/cinchmcp"), result.limits().orElseThrow().parent());
  }

  @Test
  void capsAllRunsTogetherOnTheParentOrLiftsTheCap() throws IOException {
    HostCgroups limits = delegatedLimits();
    limits.capAll(OptionalDouble.of(1.5));
    assertEquals("7500 5000", Files.readString(limits.parent().resolve("cpu.max")));
    limits.capAll(OptionalDouble.empty());
    assertEquals("max 5000", Files.readString(limits.parent().resolve("cpu.max")));
  }

  @Test
  void oneAndAHalfCoresAreThreeQuartersOfEachPeriod() {
    assertEquals(7500, HostCgroups.allQuotaUs(1.5));
    assertEquals("all sandboxes together at most 1.5 of 2 cores", HostCgroups.describeCap(1.5, 2));
  }

  @Test
  void oneCoreIsNamedInTheSingular() {
    assertEquals("all sandboxes together at most 0.75 of 1 core", HostCgroups.describeCap(0.75, 1));
    assertEquals("all sandboxes together at most 1 of 1 core", HostCgroups.describeCap(1.0, 1));
  }
}
