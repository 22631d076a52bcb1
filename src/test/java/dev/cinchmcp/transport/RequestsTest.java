package dev.cinchmcp.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.transport.Requests.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Admission and the states of a request, without a session: each move made on purpose. */
class RequestsTest {

  private final List<String> started = new ArrayList<>();
  private Requests requests;

  private Requests requests(int maxRunning, int maxWaiting, long maxBytes) {
    return requests(maxRunning, maxWaiting, maxBytes, r -> started.add(r.id().toString()));
  }

  private Requests requests(int maxRunning, int maxWaiting, long maxBytes, Consumer<Request> run) {
    requests = new Requests(maxRunning, maxWaiting, maxBytes, run);
    return requests;
  }

  private Request offer(String id, int bytes) {
    Request r = requests.open(RequestId.ofString(id), null, bytes, null);
    return requests.admit(r) ? r : null;
  }

  /** Offers one-byte requests with these ids, in this order. */
  private List<Request> offerAll(String... ids) {
    List<Request> offered = new ArrayList<>();
    for (String id : ids) {
      offered.add(offer(id, 1));
    }
    return offered;
  }

  /** Asserts which requests have started, in order; a string id is recorded as JSON. */
  private void assertStarted(String... ids) {
    assertEquals(Stream.of(ids).map(id -> "\"" + id + "\"").toList(), started);
  }

  @Test
  void runsUpToTheLimitThenQueuesInArrivalOrder() {
    requests(2, 10, 1000);
    List<Request> offered = offerAll("a", "b", "c", "d");
    assertStarted("a", "b");
    requests.finished(offered.get(0));
    assertStarted("a", "b", "c");
    requests.finished(offered.get(1));
    assertStarted("a", "b", "c", "d");
  }

  @Test
  void aRequestCancelledWhileQueuedNeverStarts() {
    requests(1, 10, 1000);
    Request a = offer("a", 1);
    Request b = offer("b", 1);
    offer("c", 1);
    assertEquals(Request.State.QUEUED, b.state());
    assertTrue(b.cancel());
    requests.forget(b);
    requests.finished(a);
    assertStarted("a", "c");
    assertEquals(Request.State.CANCELLED, b.state());
  }

  @Test
  void aStopCancelsEverythingAndAFreedPlaceStartsNothing() {
    requests(1, 10, 1000);
    Request a = offer("a", 1);
    Request b = offer("b", 1);
    // The running one's work ends as it is cancelled, as a disposed call's does.
    requests.stopStarting();
    List<Request> cancelled = requests.cancelAll(null);
    requests.finished(a);
    assertStarted("a"); // the waiting one must not start during a stop
    assertEquals(2, cancelled.size());
    assertEquals(Request.State.CANCELLED, a.state());
    assertEquals(Request.State.CANCELLED, b.state());
  }

  @Test
  void refusesWhenTooManyOrTooMuchIsWaiting() {
    requests(1, 2, 1000);
    assertNotNull(offer("a", 1));
    assertNotNull(offer("b", 1));
    assertNotNull(offer("c", 1));
    assertNull(offer("d", 1));
    assertNull(requests.find(RequestId.ofString("d")), "a refused request is forgotten");

    requests(1, 100, 10);
    Request e = offer("e", 100); // runs at once: only waiting requests count against the size
    assertNotNull(e);
    assertNotNull(offer("f", 6));
    assertNull(offer("g", 6));
    requests.finished(e); // f starts, its bytes no longer wait
    assertNotNull(offer("h", 6));
  }

  @Test
  void queuedRequestsThatHaveAPlaceDoNotCountAsWaiting() {
    // Another thread is starting "a" (here: a start that is still in progress) while the reader
    // admits more: they queue behind it, yet each has a free place, so none is refused.
    List<String> admittedDuringStart = new ArrayList<>();
    requests(
        4,
        1,
        10,
        r -> {
          started.add(r.id().toString());
          if (r.id().toString().equals("\"a\"")) {
            for (String id : List.of("b", "c", "d")) {
              admittedDuringStart.add(offer(id, 6) == null ? id + " refused" : id);
            }
          }
        });
    offer("a", 6);
    assertEquals(List.of("b", "c", "d"), admittedDuringStart);
    assertStarted("a", "b", "c", "d");
    // Once every place is taken the limits hold as before: one 6-byte request may wait, not two.
    assertNotNull(offer("e", 6));
    assertNull(offer("f", 1));
  }

  @Test
  void requestsThatEndWhileStartingAreStartedInALoopNotNested() {
    int[] count = {0};
    requests(
        1,
        100_000,
        Long.MAX_VALUE,
        r -> {
          count[0]++;
          if (!r.id().toString().equals("\"first\"")) {
            requests.finished(r); // each ends inside its own start, as one answered without I/O
          }
        });
    Request first = offer("first", 1);
    for (int i = 0; i < 50_000; i++) {
      offer("q" + i, 1);
    }
    requests.finished(first); // the whole queue runs, without a stack overflow
    assertEquals(50_001, count[0]);
  }

  @Test
  void anIdIsRefusedWhileItsRequestLivesAndFreeAsSoonAsItIsAnswered() {
    requests(4, 10, 1000);
    Request one = offer("x", 1);
    assertNull(requests.open(RequestId.ofString("x"), null, 1, null), "still running");
    assertTrue(one.answer());
    // Answered but not yet cleaned up: the client may already reuse the id.
    Request two = requests.open(RequestId.ofString("x"), null, 1, null);
    assertNotNull(two);
    requests.forget(one); // the old one's clean-up must not free the new one's id
    assertSame(two, requests.find(RequestId.ofString("x")));
  }

  @Test
  void numberIdsAreTheSameIdWhenTheirValuesAre() {
    assertEquals(RequestId.ofNumber("1"), RequestId.ofNumber("1.0"));
    assertEquals(RequestId.ofNumber("1e2"), RequestId.ofNumber("100"));
    assertTrue(!RequestId.ofNumber("1").equals(RequestId.ofString("1")));
    assertEquals("1e400", RequestId.ofNumber("1e400").toString());
  }

  @Test
  void eachStateMovesOnceAndTheLoserDoesNothing() {
    Request r = new Request(RequestId.ofString("s"), null, 1, null);
    assertTrue(r.begin());
    assertTrue(!r.begin());
    assertTrue(r.answer());
    assertTrue(!r.cancel(), "a cancel after the answer changes nothing");
    assertEquals(Request.State.ANSWERED, r.state());

    Request c = new Request(RequestId.ofString("c"), null, 1, null);
    assertTrue(c.cancel());
    assertTrue(!c.begin(), "cancelled before its turn: it never runs");
    assertTrue(!c.answer(), "and is never answered");
  }
}
