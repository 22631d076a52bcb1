package dev.cinchmcp.launch;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replaces this process with another program, as {@code execve(2)} does: same process id, same
 * stdin, stdout and stderr, and nothing of this JVM left behind. FastStart uses it to become the
 * fast JVM rather than wait beside it as a second one (a launcher JVM that stays costs some 40 MB).
 *
 * <p>It needs the foreign function API, final in Java 22; the server is built for Java 17, so it is
 * reached by reflection, and on an older JVM, on Windows, or if anything fails, {@link
 * #replaceIfPossible} returns and the caller starts a child process instead. The jar's manifest
 * says {@code Enable-Native-Access: ALL-UNNAMED}, so the JVM prints no warning about it.
 */
public final class ProcessImage {

  private ProcessImage() {}

  /** Execs the command with this environment; returns only if that could not be done. */
  public static void replaceIfPossible(List<String> command, Map<String, String> env) {
    if (Runtime.version().feature() < 22
        || System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("win")) {
      return;
    }
    try {
      Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
      Class<?> segmentType = Class.forName("java.lang.foreign.MemorySegment");
      Class<?> layoutType = Class.forName("java.lang.foreign.MemoryLayout");
      Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
      Class<?> addressLayout = Class.forName("java.lang.foreign.AddressLayout");
      Class<?> descriptorType = Class.forName("java.lang.foreign.FunctionDescriptor");
      Class<?> optionType = Class.forName("java.lang.foreign.Linker$Option");
      Class<?> arenaType = Class.forName("java.lang.foreign.Arena");

      Object linker = linkerType.getMethod("nativeLinker").invoke(null);
      Object lookup = linkerType.getMethod("defaultLookup").invoke(linker);
      Optional<?> execve =
          (Optional<?>)
              Class.forName("java.lang.foreign.SymbolLookup")
                  .getMethod("find", String.class)
                  .invoke(lookup, "execve");
      if (execve.isEmpty()) {
        return;
      }
      Object address = valueLayout.getField("ADDRESS").get(null);
      Object javaInt = valueLayout.getField("JAVA_INT").get(null);
      Object layouts = Array.newInstance(layoutType, 3);
      for (int i = 0; i < 3; i++) {
        Array.set(layouts, i, address);
      }
      Object descriptor =
          descriptorType
              .getMethod("of", layoutType, layouts.getClass())
              .invoke(null, javaInt, layouts);
      MethodHandle handle =
          (MethodHandle)
              linkerType
                  .getMethod("downcallHandle", segmentType, descriptorType, optionType.arrayType())
                  .invoke(linker, execve.get(), descriptor, Array.newInstance(optionType, 0));

      Object arena = arenaType.getMethod("global").invoke(null);
      Method allocateString =
          Class.forName("java.lang.foreign.SegmentAllocator")
              .getMethod("allocateFrom", String.class);
      Method allocate = arenaType.getMethod("allocate", long.class);
      Method setAt = segmentType.getMethod("setAtIndex", addressLayout, long.class, segmentType);
      Object nullSegment = segmentType.getField("NULL").get(null);
      long wordSize = (long) layoutType.getMethod("byteSize").invoke(address);

      List<String> environment = new ArrayList<>();
      for (Map.Entry<String, String> variable : env.entrySet()) {
        environment.add(variable.getKey() + "=" + variable.getValue());
      }
      Object[] strings = new Object[2];
      List<List<String>> vectors = List.of(command, environment);
      for (int v = 0; v < 2; v++) {
        List<String> words = vectors.get(v);
        Object vector = allocate.invoke(arena, wordSize * (words.size() + 1));
        for (int i = 0; i < words.size(); i++) {
          setAt.invoke(vector, address, (long) i, allocateString.invoke(arena, words.get(i)));
        }
        setAt.invoke(vector, address, (long) words.size(), nullSegment);
        strings[v] = vector;
      }
      Object path = allocateString.invoke(arena, command.get(0));
      handle.invokeWithArguments(path, strings[0], strings[1]); // returns only when it failed
    } catch (Throwable e) {
      // not possible here: the caller starts a child instead
    }
  }
}
