package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop starts no runsc command: a run that cleans up after its killed sandbox must not leave a
 * {@code runsc delete} running on once the server has gone. A stand-in runsc (a shell script)
 * records each call.
 */
@EnabledOnOs(OS.LINUX)
class RunscStopTest {

  @TempDir Path dir;

  private Runsc standIn(Path calls) throws Exception {
    Path script = dir.resolve("runsc");
    Files.writeString(
        script, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return new Runsc(script, dir.resolve("root"), Map.of("PATH", "/usr/bin:/bin"));
  }

  @Test
  void noHousekeepingStartsOnceStopped() throws Exception {
    Path calls = dir.resolve("calls");
    Runsc runsc = standIn(calls);

    runsc.deleteForce("before");
    assertEquals(1, Files.readAllLines(calls).size(), "the stand-in runs before a stop");

    runsc.refuseStarts();
    runsc.deleteForce("after");

    List<String> lines = Files.readAllLines(calls);
    assertEquals(1, lines.size(), "a delete ran after the stop: " + lines);
  }
}
