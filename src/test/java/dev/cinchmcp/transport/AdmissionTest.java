package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionTest {

  private final InFlight inFlight = new InFlight();
  private final List<String> started = new ArrayList<>();

  private boolean offer(Admission admission, String id, int bytes) {
    InFlight.Call call = inFlight.open(id);
    return admission.offer(call, bytes, () -> started.add(id));
  }

  @Test
  void runsUpToTheLimitThenQueuesInArrivalOrder() {
    Admission admission = new Admission(2, 10, 1000);
    assertTrue(offer(admission, "a", 1));
    assertTrue(offer(admission, "b", 1));
    assertTrue(offer(admission, "c", 1));
    assertTrue(offer(admission, "d", 1));
    assertEquals(List.of("a", "b"), started);
    admission.finished();
    assertEquals(List.of("a", "b", "c"), started);
    admission.finished();
    admission.finished();
    assertEquals(List.of("a", "b", "c", "d"), started);
  }

  @Test
  void aCancelledWaitingRequestIsSkipped() {
    Admission admission = new Admission(1, 10, 1000);
    offer(admission, "a", 1);
    offer(admission, "b", 1);
    offer(admission, "c", 1);
    assertTrue(inFlight.get("b").cancel());
    admission.finished();
    assertEquals(List.of("a", "c"), started);
  }

  @Test
  void refusesWhenTooManyOrTooMuchIsWaiting() {
    Admission byCount = new Admission(1, 2, 1000);
    assertTrue(offer(byCount, "a", 1));
    assertTrue(offer(byCount, "b", 1));
    assertTrue(offer(byCount, "c", 1));
    assertFalse(offer(byCount, "d", 1));

    Admission bySize = new Admission(1, 100, 10);
    assertTrue(
        offer(bySize, "e", 100)); // runs at once: only waiting requests count against the size
    assertTrue(offer(bySize, "f", 6));
    assertFalse(offer(bySize, "g", 6));
    bySize.finished(); // f starts, its bytes no longer wait
    assertTrue(offer(bySize, "h", 6));
  }

  @Test
  void requestsThatEndWhileStartingAreStartedInALoopNotNested() {
    Admission admission = new Admission(1, 100_000, Long.MAX_VALUE);
    int[] started = {0};
    InFlight.Call first = inFlight.open("first");
    admission.offer(first, 1, () -> started[0]++); // runs, and stays running
    for (int i = 0; i < 50_000; i++) {
      // Each one ends inside its own start, as a request answered without I/O does.
      admission.offer(
          inFlight.open("q" + i),
          1,
          () -> {
            started[0]++;
            admission.finished();
          });
    }
    admission.finished(); // the first ends: the whole queue runs, without a stack overflow
    assertEquals(50_001, started[0]);
  }
}
