package dev.cinchmcp.backend.local;

/**
 * {@link LocalSandboxHostPackagesTest} as a user without host cgroups runs it (Python under
 * RLIMIT_AS: OpenBLAS's threads must fit in 256 MB of address space), also when the tests run as
 * root.
 */
class LocalSandboxHostPackagesWithoutCgroupsTest extends LocalSandboxHostPackagesTest {

  @Override
  LocalSandboxSettings settings(LocalSandboxSettings base) {
    return super.settings(base).withoutHostCgroups();
  }
}
