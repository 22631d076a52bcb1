package dev.cinchmcp.backend.cinch;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.cinchmcp.backend.Program;

/** The JSON body of a run request: {@code {"code": "...", "language": "python"}}. */
final class RequestBody {

  private RequestBody() {}

  static String json(Program program) {
    JsonStringEncoder encoder = JsonStringEncoder.getInstance();
    StringBuilder sb = new StringBuilder(program.code().length() + 48);
    sb.append("{\"code\":\"");
    encoder.quoteAsString(program.code(), sb);
    sb.append("\",\"language\":\"").append(program.language().wireName()).append("\"}");
    return sb.toString();
  }
}
