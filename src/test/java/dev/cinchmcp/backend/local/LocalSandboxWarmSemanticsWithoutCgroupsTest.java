package dev.cinchmcp.backend.local;

import java.nio.file.Path;

/**
 * {@link LocalSandboxWarmSemanticsTest} as a user without host cgroups runs it (Python under
 * RLIMIT_AS with one malloc arena, Node with its memory watchdog), also when the tests run as root.
 */
class LocalSandboxWarmSemanticsWithoutCgroupsTest extends LocalSandboxWarmSemanticsTest {

  @Override
  LocalSandboxSettings settings(Path state) {
    return super.settings(state).withoutHostCgroups();
  }
}
