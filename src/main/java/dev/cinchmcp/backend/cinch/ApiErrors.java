package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunFailure.Reason;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.Settings;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLException;

/**
 * Every failure of a call to the Cinch API, in words: what happened, whether anything ran, what to
 * do. The status decides first, the body's wording second (its format is not documented: JSON, text
 * or HTML). Messages may quote the API or the network: the call masks the key in them.
 */
final class ApiErrors {

  static final int EXCERPT_LIMIT = 300;

  private static final Pattern CREDITS =
      Pattern.compile("credit|balance|billing|payment|quota", Pattern.CASE_INSENSITIVE);
  private static final Pattern JSON_MESSAGE =
      Pattern.compile(
          "\"(?:error|message|detail|error_description)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern TAGS = Pattern.compile("<[^>]*>");

  private ApiErrors() {}

  static RunFailure forStatus(int status, String body) {
    String message = apiMessage(body);
    if (status == 402
        || (status >= 400 && CREDITS.matcher(message).find() && status != 401 && status != 429)) {
      return creditsExhausted(message);
    }
    return switch (status) {
      case 401, 403 ->
          failure(
              Reason.KEY_REFUSED,
              "The Cinch API refused the API key (HTTP " + status + ")" + suffix(message),
              "Check CINCH_API_KEY in this server's configuration: ask the user to copy a valid key"
                  + " from their Cinch account. Retrying will not help until the key is fixed.");
      case 400, 413, 422 ->
          failure(
              Reason.REQUEST_REFUSED,
              "The Cinch API refused the request (HTTP %d%s)%s"
                  .formatted(status, status == 413 ? ", too large" : "", suffix(message)),
              "Change the program as the message says"
                  + (status == 413 ? " (make the code smaller)" : "")
                  + " before trying again.");
      default -> {
        if (status >= 500) {
          yield failure(
              Reason.API_FAILED,
              "The Cinch API failed on its side (HTTP " + status + ")" + suffix(message),
              "Try again in a little while; if it keeps failing, tell the user the service is"
                  + " having problems.");
        }
        if (status >= 300 && status < 400) {
          yield failure(
              Reason.REDIRECTED,
              "The Cinch API answered with a redirect (HTTP %d), which this server does not follow"
                  .formatted(status),
              "CINCH_BASE_URL is probably wrong: ask the user to check it (the default is "
                  + Settings.DEFAULT_BASE_URL
                  + ").");
        }
        yield failure(
            Reason.UNEXPECTED_STATUS,
            "The Cinch API answered with an unexpected HTTP " + status + suffix(message),
            "Check CINCH_BASE_URL; if it is right, tell the user.");
      }
    };
  }

  static RunFailure creditsExhausted(String message) {
    return failure(
        Reason.CREDITS_EXHAUSTED,
        "The Cinch account is out of credits" + suffix(message),
        "Do NOT retry: every retry will fail the same way. Tell the user to add credits to their"
            + " Cinch account, then try again.");
  }

  static RunFailure rateLimited(int attempts, String retryHint) {
    return rateLimited(
        "and still was after " + attempts(attempts),
        "Wait"
            + (retryHint.isEmpty() ? " a little" : " " + retryHint)
            + " before running code again.");
  }

  /** Retry-After outlasts the deadline: the model is not handed the API's (maybe absurd) wait. */
  static RunFailure rateLimitedPastDeadline(int attempts, Duration deadline) {
    return rateLimited(
        "after %s and asked to wait longer than this call's %d ms deadline (CINCH_TIMEOUT_MS) allows"
            .formatted(attempts(attempts), deadline.toMillis()),
        "Wait a while before running code again; if it keeps happening, tell the user.");
  }

  private static RunFailure rateLimited(String how, String next) {
    return failure(
        Reason.RATE_LIMITED, "The Cinch API is rate limiting this key (HTTP 429) " + how, next);
  }

  /** Retries included. */
  static RunFailure timedOut(Duration timeout) {
    return failure(
        Reason.API_TIMEOUT,
        "The Cinch API did not answer within " + timeout.toMillis() + " ms (CINCH_TIMEOUT_MS)",
        "The sandbox itself stops programs after "
            + SandboxFacts.TIME_LIMIT_SECONDS
            + " s. If the program is slow, make it faster or print progress sooner; if every call"
            + " times out, the API may be unreachable or CINCH_TIMEOUT_MS too small.");
  }

  static RunFailure abandoned() {
    return failure(
        Reason.API_CALL_ABANDONED, "The server is shutting down; the run was abandoned", "");
  }

  static RunFailure exchangeFailed(String where, Throwable cause) {
    List<Throwable> chain = Stream.iterate(cause, Objects::nonNull, Throwable::getCause).toList();
    String why =
        cause instanceof HttpConnectTimeoutException
            ? "the connection timed out"
            : chain.stream().anyMatch(SSLException.class::isInstance)
                ? "the TLS handshake failed"
                : cause instanceof UnknownHostException
                        || chain.stream().anyMatch(UnresolvedAddressException.class::isInstance)
                    ? "its host name does not resolve"
                    : cause instanceof ConnectException ? "the connection was refused" : null;
    if (why != null) {
      return failure(
          Reason.API_UNREACHABLE,
          "Cannot reach " + where + " (" + why + ")",
          "Check the network and CINCH_BASE_URL (default "
              + Settings.DEFAULT_BASE_URL
              + "); tell the user if it persists.");
    }
    return failure(
        Reason.CONNECTION_LOST,
        "The connection to %s failed before an answer arrived (%s)"
            .formatted(where, cause.getMessage()),
        "Try again once, and tell the user if it fails again.");
  }

  /**
   * An answer that is not a run; if the API's own message speaks of credits, that is what it is.
   */
  static RunFailure notARun(String reason, String excerpt, String apiMessage) {
    if (CREDITS.matcher(apiMessage).find()) {
      return creditsExhausted(apiMessage(apiMessage));
    }
    return failure(
        Reason.UNREADABLE_ANSWER,
        "The Cinch API gave an answer this server cannot read: " + reason + excerptSuffix(excerpt),
        "Check CINCH_BASE_URL points at the Cinch API; if it does, try again once.");
  }

  /** What happened, whether anything ran in the reason's own words, then what to do. */
  private static RunFailure failure(Reason reason, String happened, String next) {
    String ran = reason.ran().sentence();
    return new RunFailure(reason, happened + ". " + (next.isEmpty() ? ran : ran + " " + next));
  }

  /** A body's JSON "error"/"message" string, else its text without tags; one line, cut short. */
  static String apiMessage(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    Matcher m = JSON_MESSAGE.matcher(body);
    String text = m.find() ? unescape(m.group(1)) : TAGS.matcher(body).replaceAll(" ");
    text = text.replaceAll("\\s+", " ").strip();
    return text.length() > EXCERPT_LIMIT ? text.substring(0, EXCERPT_LIMIT) + "..." : text;
  }

  private static String unescape(String json) {
    return json.replace("\\\"", "\"").replace("\\n", " ").replace("\\/", "/").replace("\\\\", "\\");
  }

  private static String attempts(int n) {
    return n + (n == 1 ? " attempt" : " attempts");
  }

  private static String suffix(String message) {
    return message.isEmpty() ? "" : ": \"" + message + "\"";
  }

  private static String excerptSuffix(String excerpt) {
    String e = apiMessage(excerpt);
    return e.isEmpty() ? " (it was empty)" : "; it began: \"" + e + "\"";
  }
}
