package dev.cinchmcp.tool;

import static dev.cinchmcp.text.CappedText.count;

import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.WrittenFiles;
import dev.cinchmcp.backend.WrittenFiles.Kind;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a run's files become in its result: pictures as {@code image} blocks ({@link PictureFit}),
 * small text files as {@code resource} blocks, each a line in the text and an entry in {@code
 * structuredContent.files}, and a sentence for the summary. Under the 16 MB a client takes in one
 * message: pictures at most {@link #MAX_PICTURE_BYTES} in all (~11 MB as base64).
 */
final class ResultFiles {

  static final int MAX_PICTURE_BYTES = 8 * 1024 * 1024;

  static final int MAX_TEXT_BYTES = 32 * 1024;

  /** The longest list in an error's text, which must stay within ErrorText's window. */
  private static final int ERROR_LIST_CHARS = 600;

  /** The result's image and text blocks, its {@code structuredContent.files}, the images sent. */
  final List<Content> blocks = new ArrayList<>();

  final List<Map<String, Object>> entries = new ArrayList<>();
  int images;

  /** For the summary. */
  final String sentence;

  private final List<String> lines = new ArrayList<>();
  private final Map<String, byte[]> sent = new LinkedHashMap<>();
  private int pictureRoom = MAX_PICTURE_BYTES;
  private int textRoom = MAX_TEXT_BYTES;

  /** How one file came back: {@code returned} as in the output schema, and a note or null. */
  private record Shown(String returned, String note) {}

  private ResultFiles(WrittenFiles files, RunResult run) {
    for (WrittenFiles.WrittenFile file : files.files()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", file.name());
      entry.put("size", file.size());
      String type =
          file.figure()
              ? "figure"
              : file.kind() == Kind.TEXT || file.kind() == Kind.LISTED ? "file" : "picture";
      entry.put("type", type);
      Shown shown =
          switch (file.kind()) {
            case PICTURE -> picture(file, entry);
            case PICTURE_TOO_LARGE ->
                new Shown(
                    "left out",
                    "larger than the "
                        + bytes(WrittenFiles.MAX_FILE_BYTES)
                        + " a picture may be to leave the sandbox: draw it smaller");
            case PICTURE_OVER_BUDGET ->
                new Shown(
                    "left out",
                    "past the "
                        + WrittenFiles.MAX_PICTURES
                        + " pictures or "
                        + bytes(WrittenFiles.MAX_TOTAL_BYTES)
                        + " that leave the sandbox in one call");
            case TEXT -> text(file);
            default -> new Shown("listed", null);
          };
      entry.put("returned", shown.returned());
      if (shown.note() != null) {
        entry.put("note", shown.note());
      }
      entries.add(entry);
      lines.add(line(file, type, shown));
    }
    if (files.unlisted() > 0) {
      lines.add(
          "and "
              + count(files.unlisted())
              + " more files ("
              + bytes(files.unlistedBytes())
              + ") not listed");
    }
    this.sentence = sentence(files, run);
  }

  private Shown picture(WrittenFiles.WrittenFile file, Map<String, Object> entry) {
    String twin = sameAsSent(file.data());
    if (twin != null) {
      // savefig and then plt.show() of one figure: the same bytes twice
      return new Shown("listed", "the same picture as " + twin + ", shown once");
    }
    PictureFit.Outcome fitted =
        images < WrittenFiles.MAX_PICTURES
            ? PictureFit.fit(file.data(), pictureRoom)
            : PictureFit.Outcome.leftOut(
                "more than " + WrittenFiles.MAX_PICTURES + " pictures in one call");
    if (!fitted.sent()) {
      return new Shown("left out", fitted.change());
    }
    blocks.add(
        new ImageContent(
            null, Base64.getEncoder().encodeToString(fitted.data()), fitted.mimeType(), null));
    pictureRoom -= fitted.data().length;
    images++;
    sent.put(file.name(), file.data());
    if (fitted.width() > 0) {
      entry.put("width", fitted.width());
      entry.put("height", fitted.height());
    }
    return new Shown("image", fitted.change());
  }

  private Shown text(WrittenFiles.WrittenFile file) {
    String text = utf8(file.data());
    if (text == null || file.data().length > textRoom) {
      return new Shown("listed", null);
    }
    blocks.add(
        new EmbeddedResource(
            null,
            new TextResourceContents(uri(file.name()), textType(file.name()), text, null),
            null));
    textRoom -= file.data().length;
    return new Shown("text", null);
  }

  /** Null when there is nothing to say. */
  static ResultFiles of(RunResult run) {
    return run.files().anything() ? new ResultFiles(run.files(), run) : null;
  }

  String section(boolean inError) {
    StringBuilder sb = new StringBuilder("--- files ---\n").append(sentence).append('\n');
    int budget = inError ? ERROR_LIST_CHARS : Integer.MAX_VALUE;
    for (int i = 0; i < lines.size(); i++) {
      String line = "- " + lines.get(i) + "\n";
      if (line.length() > budget) {
        sb.append("- and ").append(lines.size() - i).append(" more (see structuredContent)\n");
        break;
      }
      budget -= line.length();
      sb.append(line);
    }
    return sb.toString();
  }

  private String sentence(WrittenFiles files, RunResult run) {
    String lost =
        switch (files.state()) {
          case MISSING ->
              "Pictures and files it may have written could not be brought back: "
                  + (run.timedOut()
                      ? "the sandbox was stopped at its time limit before they were handed over."
                      : "the sandbox's output ended before they were handed over"
                          + cutByApi(run)
                          + ".");
          case CUT ->
              "Pictures and files it wrote could not be brought back: the output that carries them"
                  + " was cut"
                  + cutByApi(run)
                  + ". Write fewer or smaller pictures.";
          case DAMAGED ->
              "Pictures and files it wrote could not be brought back: "
                  + (files.problem() == null ? "they arrived damaged" : files.problem())
                  + ".";
          default -> "";
        };
    if (!lost.isEmpty()) {
      return lost;
    }
    long pictures = entries.stream().filter(e -> !e.get("type").equals("file")).count();
    long leftOut = entries.stream().filter(e -> e.get("returned").equals("left out")).count();
    long texts = entries.stream().filter(e -> e.get("returned").equals("text")).count();
    long others = entries.size() - pictures + files.unlisted();
    List<String> parts = new ArrayList<>();
    if (pictures > 0) {
      long twins = pictures - images - leftOut;
      parts.add(
          plural(pictures, "picture")
              + (images == pictures
                  ? (pictures == 1 ? ", shown as an image" : ", all shown as images")
                  : ", "
                      + images
                      + " shown as images"
                      + (twins > 0 ? ", " + twins + " the same as one of those" : "")
                      + (leftOut > 0 ? ", " + leftOut + " left out (see the notes)" : "")));
    }
    if (others > 0) {
      parts.add(
          plural(others, "other file")
              + (texts > 0 ? ", " + texts + " shown whole as text" : "")
              + (others > texts
                  ? (texts > 0 ? ", the rest" : ",") + " listed by name and size"
                  : ""));
    }
    StringBuilder sb = new StringBuilder("It made ").append(String.join("; and ", parts));
    sb.append('.');
    if (files.problem() != null) {
      sb.append(" The launcher could not list them all: ").append(files.problem()).append('.');
    }
    sb.append(pictures + others == 1 ? " It was" : " They were")
        .append(" in the sandbox, which is gone now.");
    return sb.toString();
  }

  private static String cutByApi(RunResult run) {
    return run.backend().equals("cinch")
        ? " (the Cinch API's output limit is not documented; the files travel in stdout)"
        : "";
  }

  private static String line(WrittenFiles.WrittenFile file, String type, Shown shown) {
    String what =
        file.name()
            + " ("
            + (type.equals("file") ? "" : type + ", ")
            + bytes(file.size())
            + "): "
            + switch (shown.returned()) {
              case "image" -> "shown below";
              case "text" -> "its text below";
              case "listed" -> "listed only";
              default -> "left out";
            };
    return shown.note() == null ? what : what + "; " + shown.note();
  }

  private String sameAsSent(byte[] data) {
    return sent.entrySet().stream()
        .filter(earlier -> Arrays.equals(earlier.getValue(), data))
        .map(Map.Entry::getKey)
        .findFirst()
        .orElse(null);
  }

  private static String plural(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }

  /** "1.4 MB", "12 KB", "300 bytes". */
  static String bytes(long n) {
    if (n < 1024) {
      return n + (n == 1 ? " byte" : " bytes");
    }
    if (n < 1024 * 1024) {
      return String.format(Locale.ROOT, "%,d KB", (n + 512) / 1024);
    }
    if (n % (1024 * 1024) == 0) {
      return n / (1024 * 1024) + " MB";
    }
    return String.format(Locale.ROOT, "%.1f MB", n / (1024.0 * 1024.0));
  }

  private static String utf8(byte[] data) {
    try {
      // A new decoder reports malformed input rather than replacing it.
      String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(data)).toString();
      return text.indexOf('\0') >= 0 ? null : text;
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Where the file was in the sandbox, as a URI of its own scheme (no client can fetch it). */
  static String uri(String name) {
    String path = name.startsWith("/") ? name : ProgramInput.WORK_DIR + "/" + name;
    try {
      return new URI("sandbox", null, path, null).toASCIIString();
    } catch (URISyntaxException e) {
      return "sandbox:" + path;
    }
  }

  private static String textType(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return switch (lower.substring(lower.lastIndexOf('.') + 1)) {
      case "csv" -> "text/csv";
      case "json" -> "application/json";
      case "html", "htm" -> "text/html";
      case "md" -> "text/markdown";
      default -> "text/plain";
    };
  }
}
