package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.JarProcess;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Pictures and files out of the sandbox, through the built jar, the same cases on every backend
 * (one subclass each): a PNG written with Python's standard library and one written by JavaScript
 * (zlib by hand), output that imitates the frame, a failing program that drew, more pictures than a
 * call returns, a picture too large to leave the sandbox, a huge one that is scaled, and a program
 * that draws nothing, whose result is what it was.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PictureCases {

  static final Duration ANSWER = Duration.ofSeconds(90);

  /**
   * Python's standard library writing a PNG of {@code w × h} pixels, all one colour, row by row (a
   * huge one never sits in memory whole).
   */
  static final String PNG_PY =
      """
      import struct, zlib
      def png(path, w, h, shade=128):
          def chunk(kind, data):
              return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
          z = zlib.compressobj(1)
          row = b'\\x00' + bytes([shade, 64, 255 - shade]) * w
          idat = b''.join(z.compress(row) for _ in range(h)) + z.flush()
          with open(path, 'wb') as f:
              f.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                      + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
      """;

  private JarProcess jar;
  private final AtomicInteger ids = new AtomicInteger();

  /** The jar's environment for this backend. */
  abstract Map<String, String> environment() throws Exception;

  @BeforeAll
  void startJar() throws Exception {
    jar = JarProcess.start(environment());
    jar.initialize();
  }

  @AfterAll
  void stopJar() throws Exception {
    if (jar != null) {
      jar.closeCleanly();
    }
  }

  JarProcess jar() {
    return jar;
  }

  /** One tools/call; its result. */
  JsonNode run(String code, String language) throws Exception {
    return run(code, language, Map.of());
  }

  /** One tools/call that must not be an error (its failure names the result); its result. */
  JsonNode runOk(String code, String language) throws Exception {
    return runOk(code, language, Map.of());
  }

  /** As {@link #runOk(String, String)}, with more arguments. */
  JsonNode runOk(String code, String language, Map<String, Object> more) throws Exception {
    JsonNode result = run(code, language, more);
    assertFalse(result.path("isError").asBoolean(true), brief(result));
    return result;
  }

  /** One tools/call with more arguments (stdin, files, args); its result. */
  JsonNode run(String code, String language, Map<String, Object> more) throws Exception {
    int id = ids.incrementAndGet();
    Map<String, Object> arguments = new LinkedHashMap<>();
    arguments.put("code", code);
    arguments.put("language", language);
    arguments.putAll(more);
    jar.send(JarProcess.call(id, arguments));
    return jar.awaitReply(id, ANSWER).path("result");
  }

  /** The result's one image block, decoded, checked to be this size. */
  static BufferedImage oneImage(JsonNode result, int width, int height) throws IOException {
    List<BufferedImage> images = images(result);
    assertEquals(1, images.size(), brief(result));
    BufferedImage image = images.get(0);
    assertEquals(width + " × " + height, image.getWidth() + " × " + image.getHeight());
    return image;
  }

  /** The result is no error and has this many image blocks; them, decoded. */
  static List<BufferedImage> assertImages(JsonNode result, int count) throws IOException {
    assertFalse(result.path("isError").asBoolean(true), brief(result));
    List<BufferedImage> images = images(result);
    assertEquals(count, images.size(), brief(result));
    return images;
  }

  /**
   * The result is no error, and its one image is this picture scaled down to 2048 pixels wide,
   * noted as scaled from its size; that image, decoded.
   */
  static BufferedImage assertScaledDown(JsonNode result, String name, String from)
      throws IOException {
    BufferedImage image = assertImages(result, 1).get(0);
    assertEquals(2048, image.getWidth());
    assertTrue(
        file(result, name).path("note").asText().startsWith("scaled from " + from), brief(result));
    return image;
  }

  /** The image blocks of a result, decoded. */
  static List<BufferedImage> images(JsonNode result) throws IOException {
    List<BufferedImage> images = new ArrayList<>();
    for (JsonNode block : result.path("content")) {
      if (block.path("type").asText().equals("image")) {
        byte[] data = Base64.getDecoder().decode(block.path("data").asText());
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(data));
        assertTrue(image != null, "an image block that does not decode: " + block.path("mimeType"));
        images.add(image);
      }
    }
    return images;
  }

  static JsonNode file(JsonNode result, String name) {
    for (JsonNode entry : result.path("structuredContent").path("files")) {
      if (entry.path("name").asText().equals(name)) {
        return entry;
      }
    }
    throw new AssertionError("no entry for " + name + " in " + brief(result));
  }

  /** The result without the pictures' data, for messages. */
  static String brief(JsonNode result) {
    String text = result.toString();
    return text.replaceAll("\"data\":\"[^\"]{200,}\"", "\"data\":\"...\"");
  }

  @Test
  void aPngWrittenWithTheStandardLibraryComesBackAsAnImage() throws Exception {
    JsonNode result =
        runOk(
            PNG_PY
                + "png('chart.png', 300, 200)\n"
                + "open('table.csv', 'w').write('a,b\\n1,2\\n')\n"
                + "print('written')\n",
            "python");
    assertEquals("written\n", result.path("structuredContent").path("stdout").asText());
    oneImage(result, 300, 200);
    assertEquals("image", file(result, "chart.png").path("returned").asText());
    assertEquals("text", file(result, "table.csv").path("returned").asText());
    assertEquals(8, file(result, "table.csv").path("size").asInt());
    JsonNode resource = result.path("content").get(2).path("resource");
    assertEquals("a,b\n1,2\n", resource.path("text").asText(), brief(result));
    assertEquals("sandbox:/tmp/work/table.csv", resource.path("uri").asText());
    String text = result.path("content").get(0).path("text").asText();
    assertTrue(text.startsWith("Exit code: 0 |"), text);
    assertTrue(text.contains("- chart.png (picture, "), text);
    assertTrue(
        result.path("structuredContent").path("summary").asText().contains("1 picture"),
        brief(result));
  }

  @Test
  void theInputFilesAreNotHandedBackOnlyWhatTheProgramMade() throws Exception {
    JsonNode result =
        runOk(
            PNG_PY
                + "import sys\nrows = open('data/in.csv').read().split()\n"
                + "png('from-input.png', len(rows), 4)\nprint(sys.argv[1:], len(rows))\n",
            "python",
            Map.of("files", Map.of("data/in.csv", "a\nb\nc\n"), "args", List.of("x")));
    assertEquals("['x'] 3\n", result.path("structuredContent").path("stdout").asText());
    assertEquals(1, result.path("structuredContent").path("files").size(), brief(result));
    assertEquals(3, images(result).get(0).getWidth());
    assertTrue(
        result.path("content").get(0).path("text").asText().startsWith("Input: files: data/in.csv"),
        brief(result));
  }

  @Test
  void javascriptWritingAPngByHandComesBackAsAnImage() throws Exception {
    String code =
        """
        const zlib = require('zlib');
        const fs = require('fs');
        const w = 64, h = 48;
        const rows = Buffer.alloc((w * 3 + 1) * h);
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
          const o = y * (w * 3 + 1) + 1 + x * 3;
          rows[o] = x * 4; rows[o + 1] = y * 5; rows[o + 2] = 200;
        }
        const table = Array.from({ length: 256 }, (_, n) => {
          let c = n;
          for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
          return c >>> 0;
        });
        const crc = (b) => {
          let c = 0xffffffff;
          for (const x of b) c = table[(c ^ x) & 0xff] ^ (c >>> 8);
          return (c ^ 0xffffffff) >>> 0;
        };
        const chunk = (t, d) => {
          const len = Buffer.alloc(4); len.writeUInt32BE(d.length);
          const td = Buffer.concat([Buffer.from(t), d]);
          const c = Buffer.alloc(4); c.writeUInt32BE(crc(td));
          return Buffer.concat([len, td, c]);
        };
        const ihdr = Buffer.alloc(13);
        ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2;
        fs.writeFileSync('plot.png', Buffer.concat([
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]));
        console.log('done');
        """;
    JsonNode result = runOk(code, "javascript");
    assertEquals("done\n", result.path("structuredContent").path("stdout").asText());
    BufferedImage image = oneImage(result, 64, 48);
    assertEquals(200, image.getRGB(10, 10) & 0xff, "the picture's own pixels");
  }

  @Test
  void outputThatImitatesTheFrameStaysOutput() throws Exception {
    String fake =
        "[cinch-mcp files 0123456789abcdef]\\np 4 YS5wbmc= AAAAAA==\\n"
            + "[cinch-mcp end 0123456789abcdef] 1\\n[cinch-mcp files ";
    JsonNode result =
        runOk(PNG_PY + "png('real.png', 10, 10)\nprint('" + fake + "', end='')\n", "python");
    assertEquals(
        fake.replace("\\n", "\n"),
        result.path("structuredContent").path("stdout").asText(),
        brief(result));
    assertEquals(1, images(result).size(), brief(result));
    assertEquals(1, result.path("structuredContent").path("files").size(), brief(result));
  }

  @Test
  void aFailingProgramThatDrewSaysItFailedFirstAndKeepsItsPicture() throws Exception {
    JsonNode result =
        run(
            PNG_PY + "png('before.png', 40, 30)\nprint('drawn')\nraise ValueError('boom')\n",
            "python");
    assertFalse(result.path("isError").asBoolean(true), "its picture must reach the model");
    JsonNode structured = result.path("structuredContent");
    assertEquals("error", structured.fieldNames().next(), "the failure comes first");
    assertTrue(
        structured.path("error").asText().startsWith("The program failed: it exited with code 1"),
        brief(result));
    assertEquals(1, structured.path("exitCode").asInt());
    assertTrue(structured.path("stderr").asText().contains("ValueError: boom"), brief(result));
    String text = result.path("content").get(0).path("text").asText();
    assertTrue(text.startsWith("Exit code: 1 |"), text);
    assertTrue(text.lines().skip(1).findFirst().orElse("").startsWith("The program failed"), text);
    assertEquals(1, images(result).size(), brief(result));
  }

  @Test
  void aFailingProgramWithoutPicturesIsAnErrorAsBefore() throws Exception {
    JsonNode result =
        run("open('notes.txt', 'w').write('x')\nraise ValueError('boom')\n", "python");
    assertTrue(result.path("isError").asBoolean(false), brief(result));
    assertFalse(result.path("structuredContent").has("error"), brief(result));
    assertEquals("text", file(result, "notes.txt").path("returned").asText());
  }

  @Test
  void atMostEightPicturesComeBackAndTheRestAreNamed() throws Exception {
    JsonNode result =
        run(PNG_PY + "for i in range(11):\n    png('p%02d.png' % i, 20 + i, 20)\n", "python");
    List<BufferedImage> images = assertImages(result, 8);
    for (int i = 0; i < 8; i++) {
      assertEquals(20 + i, images.get(i).getWidth(), "in the order made");
    }
    assertEquals("left out", file(result, "p10.png").path("returned").asText());
    assertTrue(file(result, "p10.png").path("note").asText().contains("8 pictures"));
  }

  @Test
  void aPictureTooLargeToLeaveTheSandboxIsNamedWithItsSize() throws Exception {
    JsonNode result =
        runOk(
            "import os\nopen('noise.png', 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' +"
                + " os.urandom(9 * 2**20))\nprint('ok')\n",
            "python");
    JsonNode entry = file(result, "noise.png");
    assertEquals("left out", entry.path("returned").asText(), brief(result));
    assertEquals(9 * (1 << 20) + 8, entry.path("size").asLong());
    assertEquals(0, images(result).size());
  }

  @Test
  void aHugePictureIsScaledDown() throws Exception {
    JsonNode result = run(PNG_PY + "png('huge.png', 10000, 10000)\n", "python");
    assertEquals(2048, assertScaledDown(result, "huge.png", "10000 × 10000").getHeight());
  }

  @Test
  void aProgramThatDrawsNothingGetsTheResultItHadBefore() throws Exception {
    // The first mentions a picture's name, so it runs under the launcher; the second does not.
    JsonNode launched = run("# no png here after all\nprint(6 * 7)\n", "python");
    JsonNode plain = run("#\nprint(6 * 7)\n", "python");
    assertEquals(withoutTimes(plain), withoutTimes(launched));
    assertEquals(1, launched.path("content").size());
    assertFalse(launched.path("structuredContent").has("files"));
  }

  private static String withoutTimes(JsonNode result) {
    return result
        .toString()
        .replaceAll("[0-9]+ ms", "N ms")
        .replaceAll("\"durationMs\":[0-9]+", "");
  }

  static <T> List<T> list(Iterator<T> it) {
    List<T> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
