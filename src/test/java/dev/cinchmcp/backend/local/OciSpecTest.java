package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which pieces of a planted /etc are shown, in real directory trees. */
class OciSpecTest {

  @TempDir Path root;
  Path etc;
  Path elsewhere; // beside etc: JUnit warns about links that lead out of its temporary directory

  @BeforeEach
  void plant() throws IOException {
    etc = Files.createDirectory(root.resolve("etc"));
    elsewhere = Files.createDirectory(root.resolve("elsewhere"));
  }

  private List<String> shown() {
    return OciSpec.etcBinds(etc).stream().map(b -> b.source() + " -> " + b.destination()).toList();
  }

  @Test
  void theKnownPiecesAreShownAndNothingElse() throws IOException {
    Files.createDirectory(etc.resolve("alternatives"));
    Files.createDirectory(etc.resolve("fonts"));
    Files.writeString(etc.resolve("matplotlibrc"), "backend: Agg\n");
    Files.writeString(etc.resolve("shadow"), "root:*:1:0:99999:7:::\n");
    Files.writeString(etc.resolve("passwd"), "root:x:0:0:root:/root:/bin/bash\n");
    Files.writeString(etc.resolve("hostname"), "my-laptop\n");
    Files.createDirectory(etc.resolve("ssh"));

    assertEquals(
        List.of(
            etc.resolve("alternatives") + " -> /etc/alternatives",
            etc.resolve("fonts") + " -> /etc/fonts",
            etc.resolve("matplotlibrc") + " -> /etc/matplotlibrc"),
        shown());
  }

  @Test
  void aMissingPieceIsLeftOut() throws IOException {
    Files.createDirectory(etc.resolve("alternatives"));

    assertEquals(List.of(etc.resolve("alternatives") + " -> /etc/alternatives"), shown());
  }

  @Test
  void aPieceThatIsALinkIsLeftOutBecauseABindFollowsItOnTheHost() throws IOException {
    Files.writeString(elsewhere.resolve("private-notes"), "secret");
    Files.createDirectory(elsewhere.resolve("fonts"));
    Files.createSymbolicLink(etc.resolve("matplotlibrc"), elsewhere.resolve("private-notes"));
    Files.createSymbolicLink(etc.resolve("fonts"), elsewhere.resolve("fonts"));

    assertEquals(List.of(), shown());
  }

  @Test
  void aPieceOfTheWrongKindIsLeftOut() throws IOException {
    Files.writeString(etc.resolve("alternatives"), "not a directory");
    Files.createDirectory(etc.resolve("matplotlibrc"));

    assertEquals(List.of(), shown());
  }

  @Test
  void aPieceOthersMayWriteIsLeftOut() throws IOException {
    Files.createDirectory(
        etc.resolve("fonts"),
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    Files.setPosixFilePermissions(
        etc.resolve("fonts"), PosixFilePermissions.fromString("rwxrwxrwx"));

    assertEquals(List.of(), shown());
  }

  @Test
  void noEtcShowsNothing() {
    assertEquals(List.of(), OciSpec.etcBinds(etc.resolve("missing")));
  }
}
