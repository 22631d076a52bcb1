package dev.cinchmcp.backend;

/** A run without a result: the message tells the model what happened and what to do, no secret. */
public final class RunFailure extends RuntimeException {

  /** What went wrong, in the terms a caller acts on ({@code --check} answers by it). */
  public enum Kind {
    MISCONFIGURED,
    KEY_REFUSED, // 401/403
    CREDITS_EXHAUSTED, // 402, or a body that says so
    REQUEST_REFUSED, // 400/413/422
    RATE_LIMITED, // 429 after the bounded retries
    SERVER_ERROR, // 5xx
    UNREACHABLE,
    TIMEOUT,
    UNEXPECTED_ANSWER, // a redirect, or a 200 that is not the expected JSON
    SANDBOX_UNAVAILABLE, // local and docker: not started, or ended without a result
    INPUT_NOT_DELIVERED // the launcher could not give the program its stdin, files or args
  }

  /** Whether the program ran, as far as this server can know; the sentence tells a model. */
  public enum Ran {
    NOTHING,
    MAYBE;

    public String sentence() {
      return this == NOTHING ? "Nothing ran." : "The program may or may not have run.";
    }
  }

  /** Every way a run fails, in any backend. */
  public enum Reason {
    NOT_CONFIGURED(Kind.MISCONFIGURED, Ran.NOTHING),
    INPUT_NOT_DELIVERED(Kind.INPUT_NOT_DELIVERED, Ran.NOTHING),
    // The Cinch API.
    KEY_REFUSED(Kind.KEY_REFUSED, Ran.NOTHING),
    CREDITS_EXHAUSTED(Kind.CREDITS_EXHAUSTED, Ran.NOTHING),
    REQUEST_REFUSED(Kind.REQUEST_REFUSED, Ran.NOTHING),
    RATE_LIMITED(Kind.RATE_LIMITED, Ran.NOTHING), // or a Retry-After past the call's deadline
    API_FAILED(Kind.SERVER_ERROR, Ran.MAYBE),
    API_UNREACHABLE(Kind.UNREACHABLE, Ran.NOTHING), // refused, timed out, unknown host, TLS
    CONNECTION_LOST(Kind.UNREACHABLE, Ran.MAYBE), // after the request may have arrived
    API_CALL_ABANDONED(Kind.UNREACHABLE, Ran.MAYBE), // the answer came as the server shut down
    API_TIMEOUT(Kind.TIMEOUT, Ran.MAYBE),
    REDIRECTED(Kind.UNEXPECTED_ANSWER, Ran.NOTHING), // not followed: the address is wrong
    UNEXPECTED_STATUS(Kind.UNEXPECTED_ANSWER, Ran.MAYBE),
    UNREADABLE_ANSWER(Kind.UNEXPECTED_ANSWER, Ran.MAYBE),
    // The local and docker sandboxes.
    SANDBOX_UNAVAILABLE(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING), // not installed, not usable
    SANDBOX_NOT_STARTED(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING), // for this run; the next may work
    STOPPED_BEFORE_START(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING), // closing, or call cancelled
    STOPPED_WHILE_RUNNING(Kind.SANDBOX_UNAVAILABLE, Ran.MAYBE),
    SANDBOX_FAILED(Kind.SANDBOX_UNAVAILABLE, Ran.MAYBE), // unforeseen, or the run was lost
    // The docker backend's own.
    IMAGE_GONE(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING), // removed since checked: the next pulls it
    IMAGE_UNUSABLE(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING), // no interpreter or timeout, no pull
    ENGINE_REFUSED(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING);

    private final Kind kind;
    private final Ran ran;

    Reason(Kind kind, Ran ran) {
      this.kind = kind;
      this.ran = ran;
    }

    public Kind kind() {
      return kind;
    }

    public Ran ran() {
      return ran;
    }
  }

  private final Reason reason;

  public RunFailure(Reason reason, String message) {
    super(message, null, false, false);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public Kind kind() {
    return reason.kind();
  }
}
