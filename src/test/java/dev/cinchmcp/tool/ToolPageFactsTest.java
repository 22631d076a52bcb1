package dev.cinchmcp.tool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.text.CappedText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The tool's page (docs/tool.md) states the sandbox's facts as SandboxFacts has them. */
class ToolPageFactsTest {

  private static String section() throws IOException {
    String readme = Files.readString(Path.of("docs/tool.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf("# What the tool does");
    int end = readme.indexOf("\n## ", start + 1);
    return readme.substring(start, end).replaceAll("\\s+", " ");
  }

  @Test
  void theToolPageStatesTheFactsOfSandboxFacts() throws IOException {
    String s = section();
    for (String fact :
        new String[] {
          SandboxFacts.SERVICE_RUNTIMES,
          SandboxFacts.SERVICE_LIMITS,
          "/tmp (" + SandboxFacts.TMP_MEGABYTES + " MB)",
          CappedText.count(CappedText.LIMIT),
          "first " + CappedText.count(CappedText.HEAD),
          "last " + CappedText.count(CappedText.TAIL),
          CappedText.count(ErrorText.LIMIT),
          "SandboxFacts"
        }) {
      assertTrue(s.contains(fact), "docs/tool.md's \"What the tool does\" lacks: " + fact);
    }
  }

  @Test
  void thePicturesSectionStatesTheBoundsTheServerHolds() throws IOException {
    String readme = Files.readString(Path.of("docs/tool.md"), StandardCharsets.UTF_8);
    int start = readme.indexOf("## Pictures and files");
    String s = readme.substring(start, readme.indexOf("\n## ", start + 3)).replaceAll("\\s+", " ");
    for (String fact :
        new String[] {
          "at most " + dev.cinchmcp.backend.WrittenFiles.MAX_PICTURES + " pictures per call",
          "larger than " + ResultFiles.bytes(dev.cinchmcp.backend.WrittenFiles.MAX_FILE_BYTES),
          "past " + ResultFiles.bytes(dev.cinchmcp.backend.WrittenFiles.MAX_TOTAL_BYTES),
          "at most " + ResultFiles.bytes(PictureFit.MAX_BYTES),
          PictureFit.MAX_SIDE + " pixels a side",
          PictureFit.TARGET_SIDE + " × " + PictureFit.TARGET_SIDE,
          "total at most " + ResultFiles.bytes(ResultFiles.MAX_PICTURE_BYTES),
          "up to " + ResultFiles.bytes(dev.cinchmcp.backend.WrittenFiles.MAX_TEXT_BYTES),
          dev.cinchmcp.backend.WrittenFiles.MAX_TEXTS + " of them"
        }) {
      assertTrue(s.contains(fact), "docs/tool.md's \"Pictures and files\" lacks: " + fact);
    }
  }
}
