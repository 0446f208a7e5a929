package dev.svc.model;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Writes a model field by field, in record component order (see {@link ModelCodec}). */
record ModelWriter(DataOutputStream out, int version) {
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
    if (version < 5) {
      return;
    }
    out.writeInt(s.limits().maxBodyBytes());
    out.writeLong(s.limits().headerTimeout().toMillis());
    out.writeLong(s.limits().bodyTimeout().toMillis());
    out.writeInt(s.limits().connectionsPerClient());
    out.writeLong(s.limits().drainTimeout().toMillis());
    out.writeBoolean(s.pushNotifications().allowPrivateNetworks());
    list(s.pushNotifications().allowedNetworks(), n -> string(n.toString()));
    if (version >= 6) {
      caps(s.defaultCaps());
    }
    if (version >= 10) {
      optional(s.auth(), this::serverAuth);
    }
    if (version >= 12) {
      optional(s.tasks().store(), this::string);
      out.writeLong(s.tasks().lease().toMillis());
      out.writeLong(s.tasks().retention().toMillis());
      out.writeLong(s.limits().drainDelay().toMillis());
      optional(s.rateLimitStore(), this::string);
      optional(s.cacheStore(), this::string);
    }
    if (version >= 13) {
      out.writeInt(s.tasks().maxRunning());
      out.writeInt(s.tasks().maxWaiting());
    }
    if (version >= 14) {
      out.writeBoolean(s.scriptFetch().allowPrivateNetworks());
      list(s.scriptFetch().allowedNetworks(), n -> string(n.toString()));
    }
  }

  void serverAuth(ServerAuth a) throws IOException {
    string(a.plugin());
    env(a.issuer());
    env(a.audience());
    list(a.scopes(), this::string);
    optional(a.jwksUri(), this::env);
    if (version >= 12) {
      optional(a.introspection(), this::introspection);
    }
  }

  void introspection(ServerAuth.Introspection i) throws IOException {
    env(i.clientId());
    env(i.clientSecret());
    optional(i.endpoint(), this::env);
    out.writeBoolean(i.everyToken());
    out.writeLong(i.cacheTime().toMillis());
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
    if (version < 6) {
      return;
    }
    caps(t.caps());
    out.writeBoolean(t.readOnly());
    annotations(t.annotations());
    optional(t.outputSchema(), this::string);
    if (version < 8) {
      return;
    }
    optional(t.confirm(), this::confirmation);
    if (version >= 9) {
      optional(t.inputSchema(), this::string);
    }
    if (version >= 11) {
      optional(t.rateLimit(), this::rateLimit);
    }
    if (version >= 12) {
      optional(
          t.execution() instanceof Execution.OnAdapter on ? on.session() : Optional.empty(),
          this::session);
    }
  }

  void session(DatabaseSession s) throws IOException {
    list(
        s.settings(),
        setting -> {
          string(setting.name());
          sessionValue(setting.value());
        });
    optional(s.role(), this::sessionValue);
    list(s.allowedRoles(), this::string);
  }

  void sessionValue(DatabaseSession.Value v) throws IOException {
    switch (v) {
      case DatabaseSession.Value.Literal literal -> {
        out.writeByte(0);
        string(literal.text());
      }
      case DatabaseSession.Value.Claim claim -> {
        out.writeByte(1);
        string(claim.name());
      }
    }
  }

  void rateLimit(RateLimit r) throws IOException {
    out.writeLong(r.requests());
    out.writeLong(r.per().toMillis());
  }

  void confirmation(Confirmation c) throws IOException {
    string(c.message());
    out.writeBoolean(c.runWithoutAsking());
  }

  void annotations(ToolAnnotations a) throws IOException {
    optional(a.title(), this::string);
    optional(a.readOnly(), out::writeBoolean);
    optional(a.destructive(), out::writeBoolean);
    optional(a.idempotent(), out::writeBoolean);
    optional(a.openWorld(), out::writeBoolean);
  }

  void input(Input i) throws IOException {
    string(i.name());
    out.writeByte(i.type().ordinal());
    optional(i.description(), this::string);
    out.writeBoolean(i.required());
    optional(i.defaultValue(), this::scalar);
    out.writeBoolean(i.redacted());
    if (version >= 7) {
      optional(i.header(), this::string);
    }
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

  void caps(ResultCaps c) throws IOException {
    out.writeLong(c.maxRows());
    out.writeLong(c.maxBytes());
  }

  void prompt(Prompt p) throws IOException {
    string(p.name());
    optional(p.title(), this::string);
    optional(p.description(), this::string);
    list(p.arguments(), this::argument);
    list(p.messages(), this::message);
  }

  void message(Prompt.Message m) throws IOException {
    out.writeByte(m.role().ordinal());
    switch (m.content()) {
      case Prompt.Text text -> {
        out.writeByte(0);
        string(text.text());
      }
      case Prompt.ImageFile image -> {
        out.writeByte(1);
        string(image.path());
        string(image.mimeType());
      }
      case Prompt.EmbeddedImage image -> {
        out.writeByte(2);
        string(image.path());
        string(image.mimeType());
        bytes(image.bytes());
      }
      case Prompt.ResourceRef resource -> {
        out.writeByte(3);
        string(resource.uri());
      }
    }
  }

  void argument(Argument a) throws IOException {
    string(a.name());
    optional(a.title(), this::string);
    optional(a.description(), this::string);
    out.writeBoolean(a.required());
    list(a.completion(), this::string);
    if (version >= 12) {
      optional(a.defaultValue(), this::string);
    }
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

  @FunctionalInterface
  interface Item<T> {
    void write(T value) throws IOException;
  }
}
