package dev.cinchmcp.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cache directory for self-made archives is found per OS and trusted only when it deserves it.
 */
class TrustedDirectoryTest {

  private Path base;
  private UserPrincipal me;

  @BeforeEach
  void aCacheBaseInTheBuildDirectory() throws IOException {
    // Not @TempDir: that lives below /tmp, which everyone can write, and so is never trusted.
    Path root = Path.of("target", "trust-test", UUID.randomUUID().toString()).toAbsolutePath();
    base = Files.createDirectories(root.resolve("home/.cache"));
    me = Files.getOwner(base);
    assumeTrue(
        TrustedDirectory.open(base, base.resolve("probe"), me).isPresent(),
        "the build directory's parents must themselves be trusted for these tests");
  }

  private Optional<TrustedDirectory> open() throws IOException {
    return TrustedDirectory.open(base, base.resolve("cinch-mcp/archives"), me);
  }

  @Test
  void eachSystemKeepsItsCacheWhereItsConventionsSay() {
    Map<String, String> env =
        Map.of("HOME", "/home/ann", "LOCALAPPDATA", "C:\\Users\\ann\\AppData\\Local");
    assertEquals(
        Optional.of(Path.of("/home/ann/.cache")), TrustedDirectory.cacheBase(env, "Linux"));
    assertEquals(
        Optional.of(Path.of("/srv/cache")),
        TrustedDirectory.cacheBase(
            Map.of("HOME", "/home/ann", "XDG_CACHE_HOME", "/srv/cache"), "Linux"));
    assertEquals(
        Optional.of(Path.of("/home/ann/Library/Caches")),
        TrustedDirectory.cacheBase(env, "Mac OS X"));
    assertEquals(
        Optional.of(Path.of("/home/ann/.cache")),
        TrustedDirectory.cacheBase(
            Map.of("HOME", "/home/ann", "XDG_CACHE_HOME", "relative"), "Linux"),
        "a relative XDG_CACHE_HOME is ignored, as the spec says");
  }

  @Test
  void theLevelsItMakesAreTheUsersAlone() throws IOException {
    assertTrue(open().isPresent());
    assertEquals("rwx------", perms(base.resolve("cinch-mcp")));
    assertEquals("rwx------", perms(base.resolve("cinch-mcp/archives")));
  }

  @Test
  void aLevelOthersCanWriteIsRefused() throws IOException {
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertFalse(open().isPresent());
  }

  @Test
  void itsOwnLevelWithLooserPermissionsIsRefused() throws IOException {
    assertTrue(open().isPresent());
    Files.setPosixFilePermissions(
        base.resolve("cinch-mcp"), PosixFilePermissions.fromString("rwxr-xr-x"));
    assertFalse(open().isPresent());
  }

  @Test
  void aSymbolicLinkAtAnyLevelIsRefused() throws IOException {
    Path elsewhere = Files.createDirectories(base.resolveSibling("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
    Files.createSymbolicLink(base.resolve("cinch-mcp"), elsewhere);
    assertFalse(open().isPresent());
  }

  @Test
  void onlyARegularFileOfTheUsersWithNoOneElseWritingIsTrusted() throws IOException {
    TrustedDirectory dir = open().orElseThrow();
    Path archive = Files.writeString(dir.path().resolve("17-x.jsa"), "archive");
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("r--------"));
    assertTrue(dir.trustsFile(archive));

    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw-rw-rw-"));
    assertFalse(dir.trustsFile(archive), "writable by others");

    Path link = Files.createSymbolicLink(dir.path().resolve("17-y.jsa"), archive);
    assertFalse(dir.trustsFile(link), "a link");
    assertFalse(dir.trustsFile(dir.path().resolve("17-missing.jsa")));
  }

  private static String perms(Path p) throws IOException {
    return PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
  }
}
