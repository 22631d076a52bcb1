package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Dependency;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another user could plant at the state directory's path is refused, and the backend goes on
 * in a fresh private directory instead; what is right is used as it is; what a crashed server left
 * is removed.
 */
class StateDirectoryTest {

  @TempDir Path tmp;

  @Test
  void aMissingDirectoryIsMadePrivate() throws IOException {
    Path wanted = tmp.resolve("cinchmcp-local-" + StateDirectory.ownUid());
    StateDirectory.Prepared prepared = StateDirectory.prepare(wanted);
    assertEquals(wanted, prepared.root());
    assertFalse(prepared.fresh());
    for (Path dir : new Path[] {prepared.root(), prepared.runsc(), prepared.bundles()}) {
      assertEquals("rwx------", mode(dir), dir.toString());
    }
    // A second server of the same user shares it.
    assertEquals(wanted, StateDirectory.prepare(wanted).root());
  }

  @Test
  void aDirectoryOpenToOthersIsRefused() throws IOException {
    Path wanted = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(wanted, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertRefused(wanted, "is open to other users (mode rwxrwxrwx");
  }

  @Test
  void aSymbolicLinkIsRefusedAndNotFollowed() throws IOException {
    Path target = Files.createDirectory(tmp.resolve("attacker"));
    String before = mode(target);
    Path wanted = Files.createSymbolicLink(tmp.resolve("link"), target);
    assertRefused(wanted, "is a symbolic link");
    try (var entries = Files.list(target)) {
      assertEquals(0, entries.count(), "nothing was made in the link's target");
    }
    assertEquals(before, mode(target), "the link's target was not chmod-ed");
  }

  @Test
  void aLinkOneLevelDownIsRefusedToo() throws IOException {
    Path wanted = Files.createDirectory(tmp.resolve("ok"));
    Files.setPosixFilePermissions(wanted, PosixFilePermissions.fromString("rwx------"));
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Files.createSymbolicLink(wanted.resolve("bundles"), elsewhere);
    assertRefused(wanted, "bundles is a symbolic link");
  }

  @Test
  void aPlainFileIsRefused() throws IOException {
    Path wanted = Files.writeString(tmp.resolve("file"), "x");
    assertRefused(wanted, "is not a directory");
  }

  @Test
  void aDirectoryOfAnotherUserIsRefused() throws IOException {
    assumeTrue(StateDirectory.ownUid() == 0, "only root can give a directory away");
    Path wanted = Files.createDirectory(tmp.resolve("theirs"));
    Files.setPosixFilePermissions(wanted, PosixFilePermissions.fromString("rwx------"));
    UserPrincipal nobody =
        wanted.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.setOwner(wanted, nobody);
    assertRefused(wanted, "belongs to uid 65534, not to this server's uid 0");
  }

  @Test
  void theSessionRuntimeDirectoryIsPreferredWhenPrivate() throws IOException {
    Path runtime = Files.createDirectory(tmp.resolve("run-user"));
    Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwx------"));
    Path other = tmp.resolve("tmp");
    assertEquals(
        runtime.resolve("cinchmcp-local"),
        StateDirectory.defaultPath(Map.of("XDG_RUNTIME_DIR", runtime.toString()), other));
    Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertEquals(
        other.resolve("cinchmcp-local-" + StateDirectory.ownUid()),
        StateDirectory.defaultPath(Map.of("XDG_RUNTIME_DIR", runtime.toString()), other));
    assertEquals(
        other.resolve("cinchmcp-local-" + StateDirectory.ownUid()),
        StateDirectory.defaultPath(Map.of(), other));
  }

  /**
   * A crashed server left a running sandbox, its bundle and its cgroup: the next start removes
   * them.
   */
  @Test
  @Requires(GVISOR)
  void startUpRemovesWhatACrashedServerLeftAndNothingOfALiveOne() throws Exception {
    LocalSandboxSettings settings = LocalSandboxSettings.defaults().withStateDir(tmp);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String leftover = StateDirectory.PREFIX + gone.pid() + "-1";
    String ours = StateDirectory.PREFIX + ProcessHandle.current().pid() + "-999999";
    assertTrue(StateDirectory.isLeftover(leftover));
    assertFalse(StateDirectory.isLeftover(ours), "a live server's runs are never leftovers");
    assertFalse(StateDirectory.isLeftover("someone-else-1"), "only this backend's names");

    StateDirectory.Prepared prepared = StateDirectory.prepare(tmp);
    // Another live server's run (a live process's pid) stays, whatever it looks like.
    Process live = new ProcessBuilder("sleep", "60").start();
    Path liveBundle =
        Files.createDirectories(
            prepared.bundles().resolve(StateDirectory.PREFIX + live.pid() + "-1"));

    // A sandbox still running under the dead server's id, as a crash would leave it.
    Path bundle = Files.createDirectories(prepared.bundles().resolve(leftover).resolve("rootfs"));
    Files.writeString(
        bundle.resolve("../config.json"),
        OciSpec.json(
            List.of(
                SandboxRuntimes.find().interpreter(Language.PYTHON).orElseThrow(),
                "-c",
                "import time; time.sleep(60)"),
            Language.PYTHON,
            0,
            64,
            tmp.resolve("no-etc"))); // none of /etc bound
    Runsc runsc = new Runsc(Dependency.runsc(), prepared.runsc(), settings.runscEnvironment());
    Process crashed =
        runsc
            .processBuilder(
                runsc.command("run", "--bundle", bundle.getParent().toString(), leftover))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    Await.until(
        () -> runsc.list().contains(leftover),
        Duration.ofSeconds(10),
        "the leftover sandbox to start");
    RunCgroup cgroup =
        HostCgroups.detect().limits().isPresent()
            ? HostCgroups.detect().limits().get().create(leftover, 64L << 20, 100, 0.5)
            : null;

    try (LocalSandboxRunner runner = LocalRunners.runner(tmp)) {
      assertEquals(tmp, runner.stateDir());
      assertEquals(List.of(), runsc.list());
      assertFalse(Files.exists(bundle.getParent()), "bundle left");
      if (cgroup != null) {
        assertFalse(cgroup.procsFiles().stream().anyMatch(Files::exists), "cgroup left");
      }
      assertTrue(Files.isDirectory(liveBundle), "a live server's bundle was removed");
      Files.delete(liveBundle);
      LocalRunners.assertNothingLeft(runner);
    } finally {
      live.destroyForcibly();
      crashed.destroyForcibly();
      if (cgroup != null) {
        cgroup.remove();
      }
    }
  }

  private static void assertRefused(Path wanted, String why) throws IOException {
    Optional<String> problem = StateDirectory.makeAndCheck(wanted);
    assertTrue(problem.orElse("").contains(why), problem.toString());
    StateDirectory.Prepared prepared = StateDirectory.prepare(wanted);
    assertNotEquals(wanted, prepared.root());
    assertTrue(prepared.fresh());
    assertTrue(prepared.root().getFileName().toString().startsWith(wanted.getFileName() + "-"));
    assertEquals("rwx------", mode(prepared.root()));
    assertEquals("rwx------", mode(prepared.bundles()));
    assertFalse(Files.isSymbolicLink(prepared.root()));
  }

  private static String mode(Path dir) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS));
  }
}
