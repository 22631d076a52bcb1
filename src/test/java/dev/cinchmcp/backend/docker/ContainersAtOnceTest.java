package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.docker.DockerSettings.ContainersAtOnce;
import org.junit.jupiter.api.Test;

/** How many containers run at once, by the cores and where the engine runs them. */
class ContainersAtOnceTest {

  @Test
  void twoCoresSharedWithTheEngineRunThreeHalfCpus() {
    ContainersAtOnce atOnce = ContainersAtOnce.of(4, 0.5, 2, true);
    assertEquals(3, atOnce.count());
    assertEquals("3 containers at once (not 4), to leave part of 2 cores free", atOnce.describe());
  }

  @Test
  void oneCoreRunsOne() {
    ContainersAtOnce atOnce = ContainersAtOnce.of(4, 0.5, 1, true);
    assertEquals(1, atOnce.count());
    assertEquals("1 container at once (not 4), to leave part of 1 core free", atOnce.describe());
  }

  @Test
  void aCoreToSpareOrAnEngineInItsOwnVmRunsAll() {
    assertEquals(4, ContainersAtOnce.of(4, 0.5, 3, true).count());
    assertEquals(4, ContainersAtOnce.of(4, 0.5, 16, true).count());
    assertEquals(4, ContainersAtOnce.of(4, 0.5, 2, false).count(), "Docker Desktop, macOS");
    assertEquals("", ContainersAtOnce.of(4, 0.5, 2, false).describe());
  }
}
