package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LabelsTest {

  private final ProcessHandle self = ProcessHandle.current();
  private final long start = self.info().startInstant().orElseThrow().toEpochMilli();
  private final Labels labels = new Labels("m1", 1, 1);

  @Test
  void aLiveServersContainersAreNotOrphans() {
    assertFalse(labels.orphaned("m1/" + self.pid() + "/" + start));
    assertFalse(labels.orphaned(labels.owner()), "its own");
  }

  @Test
  void aDeadServersContainersAreOrphans() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    assertTrue(labels.orphaned("m1/" + gone.pid() + "/" + start));
    // A pid taken again by another process: the start time tells them apart.
    assertTrue(labels.orphaned("m1/" + self.pid() + "/" + (start - 5_000)));
  }

  @Test
  void anotherMachinesOrAMalformedLabelIsLeftAlone() {
    assertFalse(labels.orphaned("m2/999999999/1"));
    assertFalse(labels.orphaned("m1/x/1"));
    assertFalse(labels.orphaned(""));
  }
}
