package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.backend.WrittenFiles;
import dev.cinchmcp.backend.WrittenFiles.Kind;
import dev.cinchmcp.backend.WrittenFiles.State;
import dev.cinchmcp.backend.WrittenFiles.WrittenFile;
import dev.cinchmcp.text.CappedText;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How what a run wrote and drew shows in its result: blocks, words, schema, the failure rule. */
class ResultFilesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResultView VIEW = new ResultView(SandboxFacts.SERVICE);

  private static RunResult run(int exitCode, WrittenFiles files) {
    return new RunResult(
        StreamCapture.of("out\n"),
        StreamCapture.of(exitCode == 0 ? "" : "Traceback\nValueError: boom\n"),
        exitCode,
        false,
        40L,
        "local",
        files);
  }

  private static WrittenFiles complete(WrittenFile... files) {
    return new WrittenFiles(State.COMPLETE, List.of(files), 0, 0, null);
  }

  private static WrittenFile picture(String name) throws IOException {
    // each name its own width: different pictures
    byte[] data =
        PictureFitTest.png(new BufferedImage(20 + name.length(), 20, BufferedImage.TYPE_INT_RGB));
    return new WrittenFile(name, data.length, Kind.PICTURE, data);
  }

  private static WrittenFile text(String name, String content) {
    byte[] data = content.getBytes(StandardCharsets.UTF_8);
    return new WrittenFile(name, data.length, Kind.TEXT, data);
  }

  private static void assertConforms(CallToolResult result) {
    var errors =
        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(JSON.valueToTree(ToolSchemas.output()))
            .validate(JSON.valueToTree(result.structuredContent()));
    assertEquals(List.of(), errors);
  }

  private static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  @Test
  void picturesAndTextFilesFollowTheTextInTheOrderMade() throws IOException {
    CallToolResult result =
        VIEW.of(
            run(
                0,
                complete(
                    picture("[figure 1]"),
                    text("table.csv", "a,b\n"),
                    picture("chart.png"),
                    new WrittenFile("model.bin", 5_000_000, Kind.LISTED, null))));
    assertFalse(result.isError());
    assertEquals(4, result.content().size());
    assertInstanceOf(ImageContent.class, result.content().get(1));
    EmbeddedResource csv = assertInstanceOf(EmbeddedResource.class, result.content().get(2));
    TextResourceContents contents = (TextResourceContents) csv.resource();
    assertEquals("sandbox:/tmp/work/table.csv", contents.uri());
    assertEquals("text/csv", contents.mimeType());
    assertEquals("a,b\n", contents.text());
    assertEquals("image/png", ((ImageContent) result.content().get(3)).mimeType());
    assertTrue(text(result).contains("--- files ---\n"), text(result));
    assertTrue(text(result).contains("- model.bin (4.8 MB): listed only\n"), text(result));
    Map<?, ?> structured = (Map<?, ?>) result.structuredContent();
    assertEquals(4, ((List<?>) structured.get("files")).size());
    assertTrue(structured.get("summary").toString().contains("It made 2 pictures"));
    assertTrue(
        structured
            .get("summary")
            .toString()
            .endsWith(" They were in the sandbox, which is gone now."));
    assertConforms(result);
  }

  @Test
  void oneThingMadeIsTalkedOfInTheSingular() throws IOException {
    Map<?, ?> structured =
        (Map<?, ?>) VIEW.of(run(0, complete(picture("chart.png")))).structuredContent();
    assertTrue(
        structured
            .get("summary")
            .toString()
            .endsWith(
                "It made 1 picture, shown as an image. It was in the sandbox, which is gone now."),
        structured.get("summary").toString());
  }

  @Test
  void theSamePictureTwiceIsShownOnce() throws IOException {
    WrittenFile saved = picture("line.png");
    WrittenFile shown = new WrittenFile("[figure 1]", saved.size(), Kind.PICTURE, saved.data());
    CallToolResult result = VIEW.of(run(0, complete(saved, shown)));
    assertEquals(2, result.content().size(), "the text and one image");
    Map<?, ?> second =
        (Map<?, ?>) ((List<?>) ((Map<?, ?>) result.structuredContent()).get("files")).get(1);
    assertEquals("listed", second.get("returned"));
    assertEquals("the same picture as line.png, shown once", second.get("note"));
    assertTrue(
        ((Map<?, ?>) result.structuredContent())
            .get("summary")
            .toString()
            .contains("It made 2 pictures, 1 shown as images, 1 the same as one of those."));
    assertConforms(result);
  }

  @Test
  void aFailedRunThatDrewSaysSoFirstAndIsNotFlagged() throws IOException {
    RunResult failed = run(1, complete(picture("p.png")));
    CallToolResult result = VIEW.of(failed);
    assertFalse(result.isError(), "Claude Code would drop the picture of an error");
    RunResult plain = run(1, WrittenFiles.NOT_ASKED);
    String errorText = text(VIEW.of(plain));
    assertTrue(text(result).startsWith(errorText), "the error's own text, then the files");
    Map<?, ?> structured = (Map<?, ?>) result.structuredContent();
    assertEquals("error", structured.keySet().iterator().next());
    assertTrue(
        structured.get("error").toString().startsWith("The program failed: it exited with code 1"));
    assertTrue(structured.get("error").toString().contains("not flagged as an error"));
    assertConforms(result);
  }

  @Test
  void aFailedRunWithoutPicturesIsAnErrorAsBefore() {
    CallToolResult result =
        VIEW.of(run(1, complete(new WrittenFile("big.csv", 90_000, Kind.LISTED, null))));
    assertTrue(result.isError());
    assertFalse(((Map<?, ?>) result.structuredContent()).containsKey("error"));
    assertTrue(text(result).length() <= ErrorText.LIMIT + 1_000, "" + text(result).length());
    assertConforms(result);
  }

  @Test
  void aRunThatWroteNothingGetsTheResultItHadBefore() {
    CallToolResult launched = VIEW.of(run(0, complete()));
    CallToolResult plain = VIEW.of(run(0, WrittenFiles.NOT_ASKED));
    assertEquals(plain, launched);
    assertEquals(
        VIEW.of(run(2, WrittenFiles.NOT_ASKED)), VIEW.of(run(2, complete())), "a failure too");
  }

  @Test
  void aFrameCutOnTheWaySaysWhatWasLostAndWhy() {
    RunResult cut =
        new RunResult(
            StreamCapture.of("before\n"),
            CappedText.EMPTY,
            0,
            false,
            5L,
            "cinch",
            new WrittenFiles(State.CUT, List.of(), 0, 0, null));
    CallToolResult result = VIEW.of(cut);
    String summary = ((Map<?, ?>) result.structuredContent()).get("summary").toString();
    assertTrue(summary.contains("could not be brought back"), summary);
    assertTrue(summary.contains("the Cinch API's output limit is not documented"), summary);
    assertEquals(1, result.content().size());
    assertConforms(result);
  }

  @Test
  void picturesStayWithinTheResultsTotal() {
    List<WrittenFile> files = new ArrayList<>();
    int each = PictureFit.MAX_BYTES - 1000; // WebP: sent as it is, never re-encoded
    for (int i = 0; i < 6; i++) {
      byte[] webp = new byte[each];
      System.arraycopy(
          new byte[] {'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'}, 0, webp, 0, 12);
      webp[100] = (byte) i; // six different pictures
      files.add(new WrittenFile(i + ".webp", each, Kind.PICTURE, webp));
    }
    CallToolResult result = VIEW.of(run(0, new WrittenFiles(State.COMPLETE, files, 0, 0, null)));
    long sent =
        result.content().stream()
            .filter(c -> c instanceof ImageContent)
            .mapToLong(c -> ((ImageContent) c).data().length() * 3L / 4)
            .sum();
    assertEquals(4, result.content().size() - 1, "four of them fit in the total");
    assertTrue(sent <= ResultFiles.MAX_PICTURE_BYTES, "" + sent);
    assertConforms(result);
  }
}
