package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What cgroup v1 limits write, over a directory tree laid out like the three hierarchies. The
 * kernel's side (the limits holding, the weight's effect) is checked on this machine's real cgroups
 * by {@link LocalSandboxCpuTest} and the local backend's other tests.
 */
class CgroupV1LimitsTest {

  @TempDir Path fs;

  @Test
  void runsAtTheCpuPriorityOfNice10UntilAStopGivesTheDefaultBack() throws IOException {
    Map<String, Path> parents = new LinkedHashMap<>();
    for (String controller : CgroupV1Limits.CONTROLLERS) {
      parents.put(controller, Files.createDirectories(fs.resolve(controller).resolve("cinchmcp")));
    }
    // The kernel's file, at its default.
    Path shares = Files.writeString(parents.get("cpu").resolve("cpu.shares"), "1024\n");
    CgroupV1Limits limits = new CgroupV1Limits(parents);

    limits.create("cinchmcp-1-1", 300L << 20, 640, 0.5);
    assertEquals("110", Files.readString(shares));
    assertEquals(
        "50000", Files.readString(parents.get("cpu").resolve("cinchmcp-1-1/cpu.cfs_quota_us")));
    limits.defaultPriority();
    assertEquals("1024", Files.readString(shares));
    limits.create("cinchmcp-1-2", 300L << 20, 640, 0.5);
    assertEquals("110", Files.readString(shares));
  }
}
