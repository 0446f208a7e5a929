package dev.svc.model;

import dev.svc.diagnostic.Origin;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what {@link ModelWriter} wrote, in the same order (see {@link ModelCodec}); {@code version}
 * is the file's format (older formats lack later fields).
 */
record ModelReader(DataInputStream in, int version) {
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
    Service read = serviceUpToAuth();
    if (version < 12) {
      return read;
    }
    Service.Limits limits = read.limits().withDrainDelay(Duration.ofMillis(in.readLong()));
    Optional<String> rateLimitStore = optional(this::string);
    Optional<String> cacheStore = optional(this::string);
    Service.Tasks tasks =
        version < 13 ? read.tasks() : read.tasks().withRunLimits(in.readInt(), in.readInt());
    Service later = read.withLaterFields(limits, rateLimitStore, cacheStore, tasks);
    return version < 14
        ? later
        : later.withScriptFetch(new Service.ScriptFetch(in.readBoolean(), list(this::network)));
  }

  private Service serviceUpToAuth() throws IOException {
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
            : Service.Audit.OFF,
        version >= 5
            ? new Service.Limits(
                in.readInt(),
                Duration.ofMillis(in.readLong()),
                Duration.ofMillis(in.readLong()),
                in.readInt(),
                Duration.ofMillis(in.readLong()))
            : Service.Limits.DEFAULTS,
        version >= 5
            ? new Service.PushNotifications(in.readBoolean(), list(this::network))
            : Service.PushNotifications.DEFAULT,
        version >= 6 ? caps() : ResultCaps.DEFAULTS,
        version >= 10 ? optional(this::serverAuth) : Optional.empty(),
        version >= 12
            ? new Service.Tasks(
                optional(this::string),
                Duration.ofMillis(in.readLong()),
                Duration.ofMillis(in.readLong()))
            : Service.Tasks.IN_MEMORY,
        Optional.empty(), // tools.rate_limit.store and tools.cache.store: read by service(),
        Optional.empty(), // after the drain delay
        Service.ScriptFetch.DEFAULT); // scripts.fetch: read by service(), last
  }

  ServerAuth serverAuth() throws IOException {
    return new ServerAuth(
        string(),
        env(),
        env(),
        list(this::string),
        optional(this::env),
        version >= 12 ? optional(this::introspection) : Optional.empty());
  }

  ServerAuth.Introspection introspection() throws IOException {
    return new ServerAuth.Introspection(
        env(), env(), optional(this::env), in.readBoolean(), Duration.ofMillis(in.readLong()));
  }

  IpNetwork network() throws IOException {
    String text = string();
    return IpNetwork.parse(text)
        .orElseThrow(() -> new IllegalArgumentException("not an IP network: " + text));
  }

  Adapter adapter() throws IOException {
    return new Adapter(
        string(), constant(ConnectorKind.values(), "connector"), env(), map(this::env));
  }

  Tool tool() throws IOException {
    String name = string();
    String description = string();
    List<Input> inputs = list(this::input);
    Execution execution =
        switch (in.readUnsignedByte()) {
          case 0 ->
              new Execution.OnAdapter(
                  string(), constant(ConnectorKind.values(), "connector"), statement());
          case 1 -> new Execution.Handler(script());
          default -> throw new IllegalArgumentException("unknown execution kind");
        };
    Optional<ScriptRef> inputMapper = optional(this::script);
    Optional<ScriptRef> outputMapper = optional(this::script);
    Optional<AuthPolicy> auth = optional(this::auth);
    CachePolicy cache = cache();
    Duration timeout = Duration.ofMillis(in.readLong());
    if (version < 6) {
      return new Tool(
          name, description, inputs, execution, inputMapper, outputMapper, auth, cache, timeout);
    }
    ResultCaps caps = caps();
    boolean readOnly = in.readBoolean();
    ToolAnnotations annotations = annotations();
    Optional<String> outputSchema = optional(this::string);
    Optional<Confirmation> confirm = version >= 8 ? optional(this::confirmation) : Optional.empty();
    Optional<String> inputSchema = version >= 9 ? optional(this::string) : Optional.empty();
    Optional<RateLimit> rateLimit = version >= 11 ? optional(this::rateLimit) : Optional.empty();
    if (version >= 12) {
      Optional<DatabaseSession> session = optional(this::session);
      if (execution instanceof Execution.OnAdapter on) {
        execution = on.withSession(session);
      }
    }
    return new Tool(
        name,
        description,
        inputs,
        execution,
        inputMapper,
        outputMapper,
        auth,
        cache,
        timeout,
        caps,
        readOnly,
        annotations,
        outputSchema,
        confirm,
        inputSchema,
        rateLimit);
  }

  DatabaseSession session() throws IOException {
    return new DatabaseSession(
        list(() -> new DatabaseSession.Setting(string(), sessionValue())),
        optional(this::sessionValue),
        list(this::string));
  }

  DatabaseSession.Value sessionValue() throws IOException {
    return switch (in.readUnsignedByte()) {
      case 0 -> new DatabaseSession.Value.Literal(string());
      case 1 -> new DatabaseSession.Value.Claim(string());
      default -> throw new IllegalArgumentException("unknown session value kind");
    };
  }

  RateLimit rateLimit() throws IOException {
    return new RateLimit(in.readLong(), Duration.ofMillis(in.readLong()));
  }

  Confirmation confirmation() throws IOException {
    return new Confirmation(string(), in.readBoolean());
  }

  ToolAnnotations annotations() throws IOException {
    return new ToolAnnotations(
        optional(this::string),
        optional(in::readBoolean),
        optional(in::readBoolean),
        optional(in::readBoolean),
        optional(in::readBoolean));
  }

  Input input() throws IOException {
    return new Input(
        string(),
        constant(InputType.values(), "input type"),
        optional(this::string),
        in.readBoolean(),
        optional(this::scalar),
        version < 2 || in.readBoolean(),
        version >= 7 ? optional(this::string) : Optional.empty());
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
              string(), string(), list(() -> new Statement.Parameter(string(), in.readBoolean())));
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

  ResultCaps caps() throws IOException {
    return new ResultCaps(in.readLong(), in.readLong());
  }

  Prompt prompt() throws IOException {
    return new Prompt(
        string(),
        optional(this::string),
        optional(this::string),
        list(this::argument),
        list(this::message));
  }

  Prompt.Message message() throws IOException {
    Prompt.Role role = constant(Prompt.Role.values(), "message role");
    if (version < 3) {
      return new Prompt.Message(role, new Prompt.Text(string()));
    }
    Prompt.Content content =
        switch (in.readUnsignedByte()) {
          case 0 -> new Prompt.Text(string());
          case 1 -> new Prompt.ImageFile(string(), string());
          case 2 -> new Prompt.EmbeddedImage(string(), string(), bytes());
          case 3 -> new Prompt.ResourceRef(string());
          default -> throw new IllegalArgumentException("unknown message content");
        };
    return new Prompt.Message(role, content);
  }

  Argument argument() throws IOException {
    return new Argument(
        string(),
        optional(this::string),
        optional(this::string),
        in.readBoolean(),
        list(this::string),
        version >= 12 ? optional(this::string) : Optional.empty());
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
        new Agent.ModelSpec(
            constant(Provider.values(), "model provider"), string(), map(this::env));
    return new Agent(name, description, instruction, spec, access());
  }

  ToolAccess access() throws IOException {
    return new ToolAccess(
        constant(ToolAccess.Mode.values(), "tool access mode"), list(this::string));
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

  /**
   * The constant of {@code values} the next byte numbers. A byte past the last constant is a
   * damaged (or hand-edited) file whose checksum still matches, as the CRC-32C catches damage, not
   * tampering: indexing {@code values} with it threw an {@code ArrayIndexOutOfBoundsException} that
   * {@link ModelCodec#decode} let through, and {@code svc serve} ended with it instead of "the
   * model file is damaged".
   */
  private <E extends Enum<E>> E constant(E[] values, String what) throws IOException {
    int index = in.readUnsignedByte();
    if (index >= values.length) {
      throw new IllegalArgumentException("unknown " + what + " " + index);
    }
    return values[index];
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

  @FunctionalInterface
  interface Read<T> {
    T read() throws IOException;
  }
}
