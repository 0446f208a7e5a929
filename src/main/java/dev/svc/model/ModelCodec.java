package dev.svc.model;

import dev.svc.diagnostic.Origin;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The artifact encoding of a compiled model ({@code model.bin}): a magic number, a format version,
 * the model, and a SHA-256 of everything before it. Hand-written rather than a serialization
 * library so that it is deterministic (same project, same bytes), loads without reflection
 * (start-up time), and fails with a clear message on a newer or damaged file. {@code {{ env.X }}}
 * placeholders stay placeholders: the artifact never holds their values.
 */
public final class ModelCodec {
  private static final byte[] MAGIC = "SVCMODEL".getBytes(StandardCharsets.US_ASCII);

  /**
   * Bump on every change of the layout below; older readers refuse newer files. 2 added {@code
   * server.metrics}, {@code server.audit} and inputs' {@code redact}; version 1 files still read
   * (with those at their defaults).
   */
  public static final int FORMAT_VERSION = 2;

  private ModelCodec() {}

  public static byte[] encode(Model model) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
    try {
      DataOutputStream out = new DataOutputStream(buffer);
      out.write(MAGIC);
      out.writeShort(FORMAT_VERSION);
      new Writer(out).model(model);
      out.flush();
      byte[] body = buffer.toByteArray();
      out.write(sha256(body));
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.toByteArray();
  }

  /**
   * Reads a model written by {@link #encode}.
   *
   * @throws ArtifactException when the bytes are not a model, come from a newer svc, or are damaged
   */
  public static Model decode(byte[] bytes) {
    if (bytes.length < MAGIC.length + 2 + 32
        || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)) {
      throw new ArtifactException("not an svc model file (it does not start with SVCMODEL)");
    }
    int version = ((bytes[MAGIC.length] & 0xff) << 8) | (bytes[MAGIC.length + 1] & 0xff);
    if (version > FORMAT_VERSION) {
      throw new ArtifactException(
          "the model was built by a newer svc (format "
              + version
              + ", this svc reads up to "
              + FORMAT_VERSION
              + "); upgrade svc or rebuild the project with this one");
    }
    if (version < 1) {
      throw new ArtifactException("the model file has an unknown format " + version);
    }
    byte[] body = Arrays.copyOf(bytes, bytes.length - 32);
    byte[] checksum = Arrays.copyOfRange(bytes, bytes.length - 32, bytes.length);
    if (!MessageDigest.isEqual(sha256(body), checksum)) {
      throw new ArtifactException("the model file is damaged (checksum mismatch); rebuild it");
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
      in.skipNBytes(MAGIC.length + 2);
      Model model = new Reader(in, version).model();
      if (in.available() != 0) {
        throw new ArtifactException("the model file has trailing bytes; rebuild it");
      }
      return model;
    } catch (EOFException | IllegalArgumentException e) {
      throw new ArtifactException("the model file is damaged (" + e.getMessage() + "); rebuild it");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the model field by field, in record component order. */
  private record Writer(DataOutputStream out) {
    void model(Model m) throws IOException {
      service(m.service());
      list(m.adapters(), this::adapter);
      list(m.tools(), this::tool);
      list(m.prompts(), this::prompt);
      list(m.resources(), this::resource);
      list(m.resourceTemplates(), this::template);
      list(m.agents(), this::agent);
      scripts(m.scripts());
    }

    void service(Service s) throws IOException {
      string(s.name());
      optional(s.version(), this::string);
      optional(s.port(), out::writeInt);
      optional(s.logLevel(), out::writeInt);
      list(s.allowedHosts(), this::string);
      list(s.allowedOrigins(), this::string);
      cache(s.defaultCache());
      out.writeInt(s.searchLimit());
      access(s.agentToolAccess());
      optional(s.buildOut(), this::string);
      out.writeBoolean(s.buildCleanDir());
      out.writeBoolean(s.metrics().enabled());
      optional(s.metrics().port(), out::writeInt);
      out.writeBoolean(s.audit().enabled());
      optional(s.audit().path(), this::string);
    }

    void adapter(Adapter a) throws IOException {
      string(a.name());
      out.writeByte(a.connector().ordinal());
      env(a.connectionString());
      map(a.options(), this::env);
    }

    void tool(Tool t) throws IOException {
      string(t.name());
      string(t.description());
      list(t.inputs(), this::input);
      switch (t.execution()) {
        case Execution.OnAdapter on -> {
          out.writeByte(0);
          string(on.adapter());
          out.writeByte(on.connector().ordinal());
          statement(on.statement());
        }
        case Execution.Handler handler -> {
          out.writeByte(1);
          script(handler.script());
        }
      }
      optional(t.inputMapper(), this::script);
      optional(t.outputMapper(), this::script);
      optional(t.auth(), this::auth);
      cache(t.cache());
      out.writeLong(t.timeout().toMillis());
    }

    void input(Input i) throws IOException {
      string(i.name());
      out.writeByte(i.type().ordinal());
      optional(i.description(), this::string);
      out.writeBoolean(i.required());
      optional(i.defaultValue(), this::scalar);
      out.writeBoolean(i.redacted());
    }

    void scalar(Object value) throws IOException {
      switch (value) {
        case Long l -> {
          out.writeByte(0);
          out.writeLong(l);
        }
        case Double d -> {
          out.writeByte(1);
          out.writeDouble(d);
        }
        case Boolean b -> {
          out.writeByte(2);
          out.writeBoolean(b);
        }
        default -> {
          out.writeByte(3);
          string(String.valueOf(value));
        }
      }
    }

    void statement(Statement s) throws IOException {
      switch (s) {
        case Statement.Sql sql -> {
          out.writeByte(0);
          string(sql.source());
          string(sql.sql());
          list(
              sql.parameters(),
              p -> {
                string(p.input());
                out.writeBoolean(p.asText());
              });
        }
        case Statement.Mongo mongo -> {
          out.writeByte(1);
          string(mongo.source());
          list(mongo.segments(), this::segment);
        }
        case Statement.Redis redis -> {
          out.writeByte(2);
          string(redis.source());
          list(redis.arguments(), argument -> list(argument, this::segment));
        }
      }
    }

    void segment(Statement.Segment segment) throws IOException {
      switch (segment) {
        case Statement.Literal literal -> {
          out.writeByte(0);
          string(literal.text());
        }
        case Statement.Placeholder placeholder -> {
          out.writeByte(1);
          string(placeholder.input());
          out.writeBoolean(placeholder.insideString());
        }
      }
    }

    void script(ScriptRef ref) throws IOException {
      string(ref.path());
      string(ref.exportName());
    }

    void auth(AuthPolicy a) throws IOException {
      string(a.plugin());
      optional(a.script(), this::script);
      map(a.policy(), this::env);
    }

    void cache(CachePolicy c) throws IOException {
      out.writeBoolean(c.enabled());
      out.writeLong(c.ttl().toMillis());
    }

    void prompt(Prompt p) throws IOException {
      string(p.name());
      optional(p.title(), this::string);
      optional(p.description(), this::string);
      list(p.arguments(), this::argument);
      list(
          p.messages(),
          m -> {
            out.writeByte(m.role().ordinal());
            string(m.text());
          });
    }

    void argument(Argument a) throws IOException {
      string(a.name());
      optional(a.title(), this::string);
      optional(a.description(), this::string);
      out.writeBoolean(a.required());
      list(a.completion(), this::string);
    }

    void resource(Resource r) throws IOException {
      string(r.uri());
      string(r.name());
      optional(r.title(), this::string);
      optional(r.description(), this::string);
      optional(r.mimeType(), this::string);
      switch (r.content()) {
        case Resource.InlineText text -> {
          out.writeByte(0);
          string(text.text());
        }
        case Resource.ContentFile file -> {
          out.writeByte(1);
          string(file.path());
        }
        case Resource.EmbeddedFile embedded -> {
          out.writeByte(2);
          string(embedded.path());
          bytes(embedded.bytes());
        }
      }
    }

    void template(ResourceTemplate t) throws IOException {
      string(t.uriTemplate());
      string(t.name());
      optional(t.title(), this::string);
      optional(t.description(), this::string);
      optional(t.mimeType(), this::string);
      list(t.arguments(), this::argument);
      switch (t.content()) {
        case ResourceTemplate.InlineTemplate inline -> {
          out.writeByte(0);
          string(inline.text());
        }
        case ResourceTemplate.FileTemplate file -> {
          out.writeByte(1);
          string(file.directory());
          string(file.pathTemplate());
        }
        case ResourceTemplate.EmbeddedFiles embedded -> {
          out.writeByte(2);
          string(embedded.pathTemplate());
          map(embedded.files(), this::bytes);
        }
      }
    }

    void agent(Agent a) throws IOException {
      string(a.name());
      optional(a.description(), this::string);
      string(a.instruction());
      out.writeByte(a.model().provider().ordinal());
      string(a.model().model());
      map(a.model().options(), this::env);
      access(a.toolAccess());
    }

    void access(ToolAccess access) throws IOException {
      out.writeByte(access.mode().ordinal());
      list(access.tools(), this::string);
    }

    void scripts(Scripts scripts) throws IOException {
      list(
          scripts.bundles(),
          b -> {
            string(b.path());
            string(b.code());
          });
      optional(scripts.vendor(), this::string);
    }

    void env(EnvString value) throws IOException {
      string(value.template());
      string(value.origin().file());
      out.writeInt(value.origin().line());
      out.writeInt(value.origin().column());
    }

    void bytes(Bytes bytes) throws IOException {
      out.writeInt(bytes.size());
      out.write(bytes.unsafeArray());
    }

    void string(String s) throws IOException {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      out.writeInt(utf8.length);
      out.write(utf8);
    }

    <T> void optional(Optional<T> value, Item<T> item) throws IOException {
      out.writeBoolean(value.isPresent());
      if (value.isPresent()) {
        item.write(value.get());
      }
    }

    <T> void list(List<T> items, Item<T> item) throws IOException {
      out.writeInt(items.size());
      for (T t : items) {
        item.write(t);
      }
    }

    <V> void map(Map<String, V> map, Item<V> value) throws IOException {
      out.writeInt(map.size());
      for (Map.Entry<String, V> entry : map.entrySet()) {
        string(entry.getKey());
        value.write(entry.getValue());
      }
    }
  }

  @FunctionalInterface
  private interface Item<T> {
    void write(T value) throws IOException;
  }

  @FunctionalInterface
  private interface Read<T> {
    T read() throws IOException;
  }

  /**
   * Reads what {@link Writer} wrote, in the same order; {@code version} is the file's format (older
   * formats lack later fields).
   */
  private record Reader(DataInputStream in, int version) {
    Model model() throws IOException {
      return new Model(
          service(),
          list(this::adapter),
          list(this::tool),
          list(this::prompt),
          list(this::resource),
          list(this::template),
          list(this::agent),
          scripts());
    }

    Service service() throws IOException {
      return new Service(
          string(),
          optional(this::string),
          optional(in::readInt),
          optional(in::readInt),
          list(this::string),
          list(this::string),
          cache(),
          in.readInt(),
          access(),
          optional(this::string),
          in.readBoolean(),
          version >= 2
              ? new Service.Metrics(in.readBoolean(), optional(in::readInt))
              : Service.Metrics.DEFAULT,
          version >= 2
              ? new Service.Audit(in.readBoolean(), optional(this::string))
              : Service.Audit.OFF);
    }

    Adapter adapter() throws IOException {
      return new Adapter(
          string(), ConnectorKind.values()[in.readUnsignedByte()], env(), map(this::env));
    }

    Tool tool() throws IOException {
      String name = string();
      String description = string();
      List<Input> inputs = list(this::input);
      Execution execution =
          switch (in.readUnsignedByte()) {
            case 0 ->
                new Execution.OnAdapter(
                    string(), ConnectorKind.values()[in.readUnsignedByte()], statement());
            case 1 -> new Execution.Handler(script());
            default -> throw new IllegalArgumentException("unknown execution kind");
          };
      return new Tool(
          name,
          description,
          inputs,
          execution,
          optional(this::script),
          optional(this::script),
          optional(this::auth),
          cache(),
          Duration.ofMillis(in.readLong()));
    }

    Input input() throws IOException {
      return new Input(
          string(),
          InputType.values()[in.readUnsignedByte()],
          optional(this::string),
          in.readBoolean(),
          optional(this::scalar),
          version < 2 || in.readBoolean());
    }

    Object scalar() throws IOException {
      return switch (in.readUnsignedByte()) {
        case 0 -> in.readLong();
        case 1 -> in.readDouble();
        case 2 -> in.readBoolean();
        case 3 -> string();
        default -> throw new IllegalArgumentException("unknown scalar kind");
      };
    }

    Statement statement() throws IOException {
      return switch (in.readUnsignedByte()) {
        case 0 ->
            new Statement.Sql(
                string(),
                string(),
                list(() -> new Statement.Parameter(string(), in.readBoolean())));
        case 1 -> new Statement.Mongo(string(), list(this::segment));
        case 2 -> new Statement.Redis(string(), list(() -> list(this::segment)));
        default -> throw new IllegalArgumentException("unknown statement kind");
      };
    }

    Statement.Segment segment() throws IOException {
      return switch (in.readUnsignedByte()) {
        case 0 -> new Statement.Literal(string());
        case 1 -> new Statement.Placeholder(string(), in.readBoolean());
        default -> throw new IllegalArgumentException("unknown segment kind");
      };
    }

    ScriptRef script() throws IOException {
      return new ScriptRef(string(), string());
    }

    AuthPolicy auth() throws IOException {
      return new AuthPolicy(string(), optional(this::script), map(this::env));
    }

    CachePolicy cache() throws IOException {
      return new CachePolicy(in.readBoolean(), Duration.ofMillis(in.readLong()));
    }

    Prompt prompt() throws IOException {
      return new Prompt(
          string(),
          optional(this::string),
          optional(this::string),
          list(this::argument),
          list(() -> new Prompt.Message(Prompt.Role.values()[in.readUnsignedByte()], string())));
    }

    Argument argument() throws IOException {
      return new Argument(
          string(),
          optional(this::string),
          optional(this::string),
          in.readBoolean(),
          list(this::string));
    }

    Resource resource() throws IOException {
      String uri = string();
      String name = string();
      Optional<String> title = optional(this::string);
      Optional<String> description = optional(this::string);
      Optional<String> mime = optional(this::string);
      Resource.Content content =
          switch (in.readUnsignedByte()) {
            case 0 -> new Resource.InlineText(string());
            case 1 -> new Resource.ContentFile(string());
            case 2 -> new Resource.EmbeddedFile(string(), bytes());
            default -> throw new IllegalArgumentException("unknown resource content");
          };
      return new Resource(uri, name, title, description, mime, content);
    }

    ResourceTemplate template() throws IOException {
      String uriTemplate = string();
      String name = string();
      Optional<String> title = optional(this::string);
      Optional<String> description = optional(this::string);
      Optional<String> mime = optional(this::string);
      List<Argument> arguments = list(this::argument);
      ResourceTemplate.Content content =
          switch (in.readUnsignedByte()) {
            case 0 -> new ResourceTemplate.InlineTemplate(string());
            case 1 -> new ResourceTemplate.FileTemplate(string(), string());
            case 2 -> new ResourceTemplate.EmbeddedFiles(string(), map(this::bytes));
            default -> throw new IllegalArgumentException("unknown template content");
          };
      return new ResourceTemplate(uriTemplate, name, title, description, mime, arguments, content);
    }

    Agent agent() throws IOException {
      String name = string();
      Optional<String> description = optional(this::string);
      String instruction = string();
      Agent.ModelSpec spec =
          new Agent.ModelSpec(Provider.values()[in.readUnsignedByte()], string(), map(this::env));
      return new Agent(name, description, instruction, spec, access());
    }

    ToolAccess access() throws IOException {
      return new ToolAccess(ToolAccess.Mode.values()[in.readUnsignedByte()], list(this::string));
    }

    Scripts scripts() throws IOException {
      return new Scripts(list(() -> new ScriptBundle(string(), string())), optional(this::string));
    }

    EnvString env() throws IOException {
      String template = string();
      return new EnvString(template, new Origin(string(), in.readInt(), in.readInt()));
    }

    Bytes bytes() throws IOException {
      int size = in.readInt();
      if (size < 0 || size > in.available()) {
        throw new IllegalArgumentException("a length runs past the end");
      }
      return new Bytes(in.readNBytes(size));
    }

    String string() throws IOException {
      int size = in.readInt();
      if (size < 0 || size > in.available()) {
        throw new IllegalArgumentException("a length runs past the end");
      }
      return new String(in.readNBytes(size), StandardCharsets.UTF_8);
    }

    <T> Optional<T> optional(Read<T> item) throws IOException {
      return in.readBoolean() ? Optional.of(item.read()) : Optional.empty();
    }

    <T> List<T> list(Read<T> item) throws IOException {
      int size = in.readInt();
      if (size < 0 || size > in.available()) {
        throw new IllegalArgumentException("a count runs past the end");
      }
      List<T> items = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        items.add(item.read());
      }
      return items;
    }

    <V> Map<String, V> map(Read<V> value) throws IOException {
      int size = in.readInt();
      if (size < 0 || size > in.available()) {
        throw new IllegalArgumentException("a count runs past the end");
      }
      Map<String, V> map = new LinkedHashMap<>();
      for (int i = 0; i < size; i++) {
        map.put(string(), value.read());
      }
      return map;
    }
  }
}
