package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which programs run under the launcher that hands files back, by their text. */
class InputLauncherHintTest {

  @ParameterizedTest(name = "{0}, may write {2}: {1}")
  @MethodSource("programs")
  void mayWriteFilesIsToldByTheText(Language language, String code, boolean mayWrite) {
    assertEquals(mayWrite, InputLauncher.mayWriteFiles(new Program(code, language)), code);
  }

  static Stream<Arguments> programs() {
    Stream<Arguments> pythonThatMayWrite =
        programs(
            Language.PYTHON,
            true,
            "import matplotlib.pyplot as plt\nplt.plot([1])",
            "from matplotlib import pyplot",
            "fig.savefig('a.pdf')",
            "open('chart.PNG', 'wb')",
            "path = 'out.jpeg'",
            "# writes a GIF",
            "with open(name, 'w') as f: f.write('x')",
            "open(p, mode=\"a+\")",
            "open(p, \"xb\")",
            "pathlib.Path('r.txt').write_text('hi')",
            "df.to_csv('x.csv')",
            "data = b'\\x89PNG'",
            "icon = 'logo.webp'",
            "svg = '<svg/>'");
    Stream<Arguments> pythonThatDoesNot =
        programs(
            Language.PYTHON,
            false,
            "print(6 * 7)",
            "print(open('data.csv').read())",
            "import json\nprint(json.dumps({'w': 1}))",
            "s = 'pngx'\nprint(s)",
            "print('stringify')",
            "x = 'w'");
    Stream<Arguments> javascriptThatMayWrite =
        programs(
            Language.JAVASCRIPT,
            true,
            "require('fs').writeFileSync('a.png', b)",
            "fs.appendFileSync('log.txt', 'x')",
            "fs.createWriteStream('out.csv')",
            "const name = 'plot.png'");
    Stream<Arguments> javascriptThatDoesNot =
        programs(
            Language.JAVASCRIPT,
            false,
            "console.log(JSON.stringify(process.argv))",
            "console.log(require('fs').readFileSync(0, 'utf8'))",
            "open('a', 'w')"); // not JavaScript's way to write
    return Stream.of(
            pythonThatMayWrite, pythonThatDoesNot, javascriptThatMayWrite, javascriptThatDoesNot)
        .flatMap(group -> group);
  }

  private static Stream<Arguments> programs(Language language, boolean mayWrite, String... codes) {
    return Stream.of(codes).map(code -> arguments(language, code, mayWrite));
  }
}
