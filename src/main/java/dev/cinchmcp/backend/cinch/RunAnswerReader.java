package dev.cinchmcp.backend.cinch;

import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.backend.WrittenFiles;
import dev.cinchmcp.text.CappedText;
import java.io.IOException;
import java.io.Reader;
import java.util.Locale;

/**
 * Reads the API's answer to a run ({@code {"stdout": ..., "stderr": ..., "exitCode": 0, "timedOut":
 * false, "durationMs": 287}}) straight from the response stream, keeping the start and the end of
 * each output stream ({@link StreamCapture}) however much the program printed.
 *
 * <p>Unknown fields are skipped, missing ones tolerated, and snake_case names accepted too (the
 * wire format is not documented beyond one example). An answer with none of the run's fields is not
 * a run.
 */
final class RunAnswerReader {

  /** The answer is not a run: what it says instead, for the error message. */
  static final class NotARun extends Exception {
    private final String excerpt;
    private final String apiMessage;

    NotARun(String reason, String excerpt, String apiMessage) {
      super(reason, null, false, false);
      this.excerpt = excerpt;
      this.apiMessage = apiMessage;
    }

    /** The start of the answer as received. */
    String excerpt() {
      return excerpt;
    }

    /** The API's own "error" or "message" text, if the answer had one; else null. */
    String apiMessage() {
      return apiMessage;
    }
  }

  static final int EXCERPT_LIMIT = 300;

  private RunAnswerReader() {}

  static RunResult read(Reader body) throws IOException, NotARun {
    return read(body, null);
  }

  /**
   * The run, with the launcher's frame taken out of stdout before it is cut when {@code out} is not
   * null (an answer without stdout, or with a stdout the API cut inside the frame, brings no files:
   * {@link RunResult#files()} says which).
   */
  static RunResult read(Reader body, OutFrame out) throws IOException, NotARun {
    JsonScanner json = new JsonScanner(body, EXCERPT_LIMIT);
    Fields f = new Fields();
    f.out = out;
    try {
      json.expect('{');
      if (!json.consume('}')) {
        do {
          String name = normalise(json.readShortString(64));
          json.expect(':');
          readField(json, name, f);
        } while (json.consume(','));
        json.expect('}');
      }
      if (json.peek() != -1) {
        throw new JsonScanner.Malformed("more after the end of the JSON object");
      }
    } catch (JsonScanner.Malformed e) {
      throw new NotARun(
          "the answer is not the expected JSON (" + e.getMessage() + ")", json.excerpt(), null);
    }
    if (!f.anyRunField) {
      throw new NotARun("the answer has none of the fields of a run", json.excerpt(), f.apiMessage);
    }
    CappedText stdout = f.stdout == null ? CappedText.EMPTY : f.stdout.result(null);
    CappedText stderr = f.stderr == null ? CappedText.EMPTY : f.stderr.result(null);
    // An answer without stdout brings no frame: MISSING when one was asked for.
    WrittenFiles files = (f.stdout == null ? new StreamCapture(out) : f.stdout).files();
    return new RunResult(
        stdout, stderr, f.exitCode, Boolean.TRUE.equals(f.timedOut), f.durationMs, "cinch", files);
  }

  private static final class Fields {
    OutFrame out;
    StreamCapture stdout;
    StreamCapture stderr;
    Integer exitCode;
    Boolean timedOut;
    Long durationMs;
    String apiMessage;
    boolean anyRunField;
  }

  private static void readField(JsonScanner json, String name, Fields f)
      throws IOException, JsonScanner.Malformed {
    boolean isNull = json.peek() == 'n';
    if (isNull) {
      json.readLiteral(); // a null field counts as missing
      return;
    }
    switch (name) {
      case "stdout" -> {
        f.stdout = new StreamCapture(f.out);
        json.readString(f.stdout.chars());
        f.anyRunField = true;
      }
      case "stderr" -> {
        f.stderr = new StreamCapture(null);
        json.readString(f.stderr.chars());
        f.anyRunField = true;
      }
      case "exitcode" -> {
        f.exitCode = wholeNumber(json, name);
        f.anyRunField = true;
      }
      case "timedout" -> {
        Boolean value = json.peek() == '"' ? null : json.readLiteral();
        if (value == null) {
          throw new JsonScanner.Malformed("timedOut is not true or false");
        }
        f.timedOut = value;
        f.anyRunField = true;
      }
      case "durationms" -> {
        f.durationMs = (long) json.readNumber();
        f.anyRunField = true;
      }
      case "error", "message" -> {
        if (json.peek() == '"') {
          f.apiMessage = json.readShortString(EXCERPT_LIMIT);
        } else {
          json.skipValue();
        }
      }
      default -> json.skipValue();
    }
  }

  private static Integer wholeNumber(JsonScanner json, String name)
      throws IOException, JsonScanner.Malformed {
    int c = json.peek();
    if (c != '-' && (c < '0' || c > '9')) {
      throw new JsonScanner.Malformed(name + " is not a number");
    }
    double value = json.readNumber();
    if (value != Math.rint(value) || Math.abs(value) > Integer.MAX_VALUE) {
      throw new JsonScanner.Malformed(name + " is not a whole number");
    }
    return (int) value;
  }

  /** exitCode, exit_code and EXITCODE all mean the same field. */
  private static String normalise(String name) {
    return name.replace("_", "").toLowerCase(Locale.ROOT);
  }
}
