package dev.cinchmcp.backend;

/**
 * A run that produced no result: the backend could not be used, refused the program, or gave an
 * answer that could not be read. The message is written for the model that called the tool: what
 * happened and what to do next. It never holds a secret or a stack trace.
 */
public final class RunFailure extends RuntimeException {

  /** What went wrong, in the terms a caller acts on. */
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
    /** The API could not be reached at all: refused connection, unknown host, TLS failure. */
    UNREACHABLE,
    /** No answer within the configured time. */
    TIMEOUT,
    /** An answer this client cannot read: a redirect, or a 200 that is not the expected JSON. */
    UNEXPECTED_ANSWER,
    /** The sandbox itself could not be started (local backend). */
    SANDBOX_UNAVAILABLE,
    /**
     * The launcher could not give the program its stdin, files or args; the program did not run.
     */
    INPUT_NOT_DELIVERED
  }

  private final Kind kind;

  public RunFailure(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
