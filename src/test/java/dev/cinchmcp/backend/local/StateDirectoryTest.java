package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What another user could plant at the state directory's path is refused, and the backend goes on
 * in a fresh private directory instead; what is right is used as it is.
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
