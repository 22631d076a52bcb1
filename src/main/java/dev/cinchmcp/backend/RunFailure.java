package dev.cinchmcp.backend;

/**
 * A run that produced no result: the backend could not be used, refused the program, or gave an
 * answer that could not be read. The message is written for the model that called the tool: what
 * happened and what to do next. It never holds a secret or a stack trace.
 *
 * <p>Every failure names its {@link Reason}, the one place that says, for each way a run can fail
 * in any backend, its {@link Kind} and whether anything ran. The message says what to do next, each
 * backend in its own words.
 */
public final class RunFailure extends RuntimeException {

  /** What went wrong, in the terms a caller acts on ({@code --check} answers by it). */
  public enum Kind {
    /** The server's configuration stops every call; nothing was sent. */
    MISCONFIGURED,
    /** The API refused the key (401/403). */
    KEY_REFUSED,
    /** The account has no credits left (402, or a body that says so). */
    CREDITS_EXHAUSTED,
    /** The API refused this request as invalid or too large (400/413/422). */
    REQUEST_REFUSED,
    /** Still rate limited after the bounded retries (429). */
    RATE_LIMITED,
    /** The API failed on its side (5xx). */
    SERVER_ERROR,
    /** The API could not be reached, or the connection to it broke. */
    UNREACHABLE,
    /** No answer within the configured time. */
    TIMEOUT,
    /** An answer this client cannot read: a redirect, or a 200 that is not the expected JSON. */
    UNEXPECTED_ANSWER,
    /** The sandbox could not be started, or ended without a result (local and docker backends). */
    SANDBOX_UNAVAILABLE,
    /**
     * The launcher could not give the program its stdin, files or args; the program did not run.
     */
    INPUT_NOT_DELIVERED
  }

  /** Whether the program ran, as far as this server can know, and the sentence that says so. */
  public enum Ran {
    /** The program certainly did not run: the failure came before it could start. */
    NOTHING,
    /** The program may have run, in part or in full; its result is lost. */
    MAYBE;

    /** What a failure's message says about it, for a model deciding whether a retry is safe. */
    public String sentence() {
      return switch (this) {
        case NOTHING -> "Nothing ran.";
        case MAYBE -> "The program may or may not have run.";
      };
    }
  }

  /** Every way a run fails, in any backend: its kind and whether anything ran. */
  public enum Reason {
    // Any backend.
    /** The server is not configured to run code. */
    NOT_CONFIGURED(Kind.MISCONFIGURED, Ran.NOTHING),
    /** The launcher failed before the program started. */
    INPUT_NOT_DELIVERED(Kind.INPUT_NOT_DELIVERED, Ran.NOTHING),

    // The Cinch API.
    KEY_REFUSED(Kind.KEY_REFUSED, Ran.NOTHING),
    CREDITS_EXHAUSTED(Kind.CREDITS_EXHAUSTED, Ran.NOTHING),
    REQUEST_REFUSED(Kind.REQUEST_REFUSED, Ran.NOTHING),
    /** 429 after the retries, or a Retry-After past the call's deadline. */
    RATE_LIMITED(Kind.RATE_LIMITED, Ran.NOTHING),
    /** A 5xx. */
    API_FAILED(Kind.SERVER_ERROR, Ran.MAYBE),
    /** No connection: refused, timed out, unknown host, TLS. */
    API_UNREACHABLE(Kind.UNREACHABLE, Ran.NOTHING),
    /** The connection broke after the request may have arrived. */
    CONNECTION_LOST(Kind.UNREACHABLE, Ran.MAYBE),
    /** The answer arrived as the server was shutting down. */
    API_CALL_ABANDONED(Kind.UNREACHABLE, Ran.MAYBE),
    /** No answer within CINCH_TIMEOUT_MS. */
    API_TIMEOUT(Kind.TIMEOUT, Ran.MAYBE),
    /** A 3xx, which is not followed: the address is wrong. */
    REDIRECTED(Kind.UNEXPECTED_ANSWER, Ran.NOTHING),
    /** A status the API is not known to give. */
    UNEXPECTED_STATUS(Kind.UNEXPECTED_ANSWER, Ran.MAYBE),
    /** A 200 that is not a run. */
    UNREADABLE_ANSWER(Kind.UNEXPECTED_ANSWER, Ran.MAYBE),

    // The local and docker sandboxes.
    /** The sandbox cannot be had: not installed, not usable, not for this language. */
    SANDBOX_UNAVAILABLE(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING),
    /** The sandbox could not be set up or started for this run; the next may work. */
    SANDBOX_NOT_STARTED(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING),
    /** The runner was closing, or the call was cancelled, before the program started. */
    STOPPED_BEFORE_START(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING),
    /** The runner was closed while the program ran. */
    STOPPED_WHILE_RUNNING(Kind.SANDBOX_UNAVAILABLE, Ran.MAYBE),
    /** The runner or the engine failed in a way it did not foresee, or lost the run. */
    SANDBOX_FAILED(Kind.SANDBOX_UNAVAILABLE, Ran.MAYBE),

    // The docker backend's own.
    /** The image was removed since it was checked; the next run pulls it. */
    IMAGE_GONE(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING),
    /** The image lacks an interpreter or timeout, or cannot be pulled. */
    IMAGE_UNUSABLE(Kind.SANDBOX_UNAVAILABLE, Ran.NOTHING),
    /** The engine refused to create or start the container. */
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

  /** Whether the program may have run (in part), so that a retry may run it twice. */
  public boolean mayHaveRun() {
    return reason.ran() == Ran.MAYBE;
  }
}
