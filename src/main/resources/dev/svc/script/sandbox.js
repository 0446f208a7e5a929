// The sandbox of one isolate, run once when the isolate is created. It receives the host's
// callbacks, the vendor bundle's factory, the longest JSON a call may return and the longest JSON
// of one request (a fetch, a question to the client) it may hand the host, and buffers.js's
// startCall (which starts a call's count of ArrayBuffer memory), shapes the global object, and
// returns the functions the Java side calls. Nothing it keeps is reachable from scripts: host callbacks live only in this
// closure. See docs/scripts.md for what scripts see.
(function (host, vendorFactory, maxResultChars, maxRequestChars, startBufferCount) {
  "use strict";
  const g = globalThis;
  const {
    apply,
    defineProperty,
    deleteProperty,
    getOwnPropertyDescriptor,
    getPrototypeOf,
    ownKeys,
  } = Reflect;
  const { freeze, hasOwn, create } = Object;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringCtor = String;
  const MapCtor = Map;
  const PromiseCtor = Promise;
  const then = Promise.prototype.then;
  const push = Array.prototype.push;
  const join = Array.prototype.join;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const ErrorCtor = Error;
  const toLower = String.prototype.toLowerCase;
  const isArray = Array.isArray;
  const slice = String.prototype.slice;
  // Text handed to the host is cut here, before it is copied into the JVM's heap: a script can make
  // strings of hundreds of megabytes, and the host keeps only the start of them anyway (a console
  // line 8192 characters, CallHost; an error's message 2000, ScriptFailedException).
  const MAX_TEXT = 8192;
  const MAX_STACK = 4 * MAX_TEXT;
  const cut = (text, max) => (text.length > max ? apply(slice, text, [0, max]) + "…" : text);
  // A request (a fetch, a question to the client) is copied into the JVM's heap and held there
  // until it is sent, and a call may have 64 in flight: one longer than the host sends is refused
  // here, before it is copied.
  const requestJson = (what, value) => {
    const json = stringify(value);
    if (json.length > maxRequestChars) {
      throw new TypeErrorCtor(
        what + ": the request is " + json.length + " characters of JSON, more than the " +
          maxRequestChars + " svc sends: send less",
      );
    }
    return json;
  };
  const exec = RegExp.prototype.exec;
  const emptyPattern = /(?:)/;

  // --- what scripts must not reach -----------------------------------------------------------
  // No WebAssembly (native code from bytes), no SharedArrayBuffer/Atomics (no threads to share
  // with), no FinalizationRegistry (its callbacks would run during a later call). Code generation
  // from strings (eval, Function) is switched off by the engine.
  for (const name of ["WebAssembly", "SharedArrayBuffer", "Atomics", "FinalizationRegistry"]) {
    deleteProperty(g, name);
  }

  const define = (name, value) =>
    defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });

  // --- console -------------------------------------------------------------------------------
  const describe = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof ErrorCtor) return value.stack || StringCtor(value);
    try {
      const json = stringify(value);
      return json === undefined ? StringCtor(value) : json;
    } catch {
      try {
        return StringCtor(value);
      } catch {
        return "[value]";
      }
    }
  };
  const console = create(null);
  // levels as the structured log numbers them: 1 error, 2 warn, 3 info, 4 debug
  for (const [name, level] of [
    ["log", 3],
    ["info", 3],
    ["warn", 2],
    ["error", 1],
    ["debug", 4],
    ["trace", 4],
  ]) {
    console[name] = (...args) => {
      const parts = [];
      for (const arg of args) apply(push, parts, [describe(arg)]);
      host.log(level, cut(apply(join, parts, [" "]), MAX_TEXT));
    };
  }
  define("console", console);

  // --- mcp: a result made of MCP content items (text, images, audio, embedded resources) ------
  // A handler that returns mcp.content(...) is answered with those items as the MCP result's
  // content instead of the JSON of its return value (see docs/scripts.md).
  const mcp = create(null);
  mcp.text = (text) => ({ type: "text", text: StringCtor(text) });
  mcp.image = (data, mimeType) => ({ type: "image", data: StringCtor(data), mimeType: StringCtor(mimeType) });
  mcp.audio = (data, mimeType) => ({ type: "audio", data: StringCtor(data), mimeType: StringCtor(mimeType) });
  mcp.resource = (uri, text, mimeType) => ({
    type: "resource",
    resource: { uri: StringCtor(uri), mimeType: StringCtor(mimeType || "text/plain"), text: StringCtor(text) },
  });
  mcp.content = (...items) => {
    const list = [];
    for (const item of items) {
      if (isArray(item)) {
        for (const inner of item) apply(push, list, [inner]);
      } else {
        apply(push, list, [item]);
      }
    }
    return { "mcp:content": list };
  };
  // Requests to the MCP client of the call (docs/scripts.md): each returns a promise of the
  // client's result, and rejects when the client cannot or does not answer.
  // `key` names the request under MCP 2026-07-28 (its key in inputRequests/inputResponses).
  const ask = (kind, argument, key) =>
    new PromiseCtor((resolve, reject) => {
      const json = requestJson("mcp." + kind, argument === undefined ? {} : argument);
      const id = nextId++;
      pending.set(id, { resolve, reject, ask: true });
      host.ask(id, kind, json, key === undefined || key === null ? null : "" + key);
    });
  const keyOf = (options) =>
    options !== null && typeof options === "object" ? options.key : undefined;
  mcp.elicit = (request) => {
    if (request === null || typeof request !== "object") {
      return PromiseCtor.reject(new TypeErrorCtor("mcp.elicit: pass {message, schema}"));
    }
    const schema = request.schema !== undefined ? request.schema : request.requestedSchema;
    return ask("elicit", { message: request.message, requestedSchema: schema }, request.key);
  };
  mcp.sample = (params, options) => ask("sample", params, keyOf(options));
  mcp.listRoots = (options) => ask("roots", {}, keyOf(options));
  // Whether the call's client declared the capability, so a script can ask only what it may.
  mcp.canAsk = (capability) => {
    if (capability !== "elicitation" && capability !== "sampling" && capability !== "roots") {
      throw new TypeErrorCtor('mcp.canAsk: pass "elicitation", "sampling" or "roots"');
    }
    return host.declares(capability) === true;
  };
  define("mcp", freeze(mcp));

  // --- fetch ---------------------------------------------------------------------------------
  class Headers {
    #values = new MapCtor();
    constructor(init) {
      if (init == null) return;
      if (init instanceof Headers) {
        init.forEach((value, name) => this.append(name, value));
      } else if (isArray(init)) {
        for (const pair of init) this.append(pair[0], pair[1]);
      } else if (typeof init === "object") {
        for (const name of Object.keys(init)) this.append(name, init[name]);
      } else {
        throw new TypeErrorCtor("Headers must be built from an object or an array of pairs");
      }
    }
    append(name, value) {
      const key = apply(toLower, StringCtor(name), []);
      const text = StringCtor(value);
      const old = this.#values.get(key);
      this.#values.set(key, old === undefined ? text : old + ", " + text);
    }
    set(name, value) {
      this.#values.set(apply(toLower, StringCtor(name), []), StringCtor(value));
    }
    get(name) {
      const value = this.#values.get(apply(toLower, StringCtor(name), []));
      return value === undefined ? null : value;
    }
    has(name) {
      return this.#values.has(apply(toLower, StringCtor(name), []));
    }
    delete(name) {
      this.#values.delete(apply(toLower, StringCtor(name), []));
    }
    forEach(callback, thisArg) {
      for (const [name, value] of this.#values) apply(callback, thisArg, [value, name, this]);
    }
    *entries() {
      yield* this.#values.entries();
    }
    *keys() {
      yield* this.#values.keys();
    }
    *values() {
      yield* this.#values.values();
    }
    [Symbol.iterator]() {
      return this.entries();
    }
  }

  class Response {
    #body;
    constructor(body, init = {}) {
      this.#body = body == null ? "" : StringCtor(body);
      this.status = init.status ?? 200;
      this.statusText = init.statusText ?? "";
      this.ok = this.status >= 200 && this.status < 300;
      this.headers = new Headers(init.headers);
      this.url = init.url ?? "";
    }
    text() {
      return PromiseCtor.resolve(this.#body);
    }
    json() {
      const body = this.#body;
      return apply(then, PromiseCtor.resolve(), [() => parse(body)]);
    }
  }

  let pending = new MapCtor();
  let nextId = 1;
  const fetch = (input, init) =>
    new PromiseCtor((resolve, reject) => {
      const options = init == null ? {} : init;
      const headers = [];
      new Headers(options.headers).forEach((value, name) => apply(push, headers, [[name, value]]));
      const body = options.body;
      if (body != null && typeof body !== "string") {
        throw new TypeErrorCtor("fetch: `body` must be a string (use JSON.stringify for objects)");
      }
      const request = {
        url: StringCtor(input),
        method: options.method == null ? "GET" : StringCtor(options.method),
        headers,
        body: body == null ? null : body,
      };
      const json = requestJson("fetch", request);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      host.fetch(id, json);
    });
  define("fetch", fetch);
  define("Headers", Headers);
  define("Response", Response);

  // Called by the host when a fetch finished: {error} or {status, statusText, url, headers, body};
  // or when the client answered a request: {error} or {result}.
  const settle = (id, json) => {
    const waiter = pending.get(id);
    if (waiter === undefined) return;
    pending.delete(id);
    const answer = parse(json);
    if (waiter.ask) {
      if (answer.error !== undefined) {
        waiter.reject(new ErrorCtor(answer.error));
      } else {
        waiter.resolve(answer.result);
      }
      return;
    }
    if (answer.error !== undefined) {
      waiter.reject(new TypeErrorCtor("fetch failed: " + answer.error));
    } else {
      waiter.resolve(new Response(answer.body, answer));
    }
  };

  // --- npm packages ----------------------------------------------------------------------------
  let packages = null;
  const missing = (name) => {
    throw new ErrorCtor('Cannot find package "' + name + '"');
  };
  if (vendorFactory !== null) {
    const vendor = { exports: {} };
    vendorFactory(vendor, vendor.exports, missing);
    packages = vendor.exports.packages;
  }
  // Every bundle of every tool receives this one function as its `require`, call after call:
  // frozen, so that no call can hang a value on it for a later one (it is no global, so the
  // freezing of the built-ins below does not reach it).
  const require = freeze((name) => {
    if (packages !== null && hasOwn(packages, name)) return packages[name];
    return missing(name);
  });

  // --- frozen built-ins ----------------------------------------------------------------------
  // Every built-in object (and console, fetch, ...) is frozen, so no call can change what a later
  // call sees through them (prototype pollution included). Assigning an inherited property that
  // is frozen would throw (the "override mistake"): for the properties code commonly assigns on
  // its own objects (an error's name and message, toString, constructor) the frozen value becomes
  // an accessor whose setter defines the property on the object assigned to instead.
  // The values behind those accessors (the built-in toString, bind, …) are frozen below with the
  // rest: the walk reaches the accessors, not what their closures hold.
  const overridden = [];
  const overridable = (object, keys) => {
    for (const key of keys) {
      const desc = getOwnPropertyDescriptor(object, key);
      if (desc === undefined || !hasOwn(desc, "value")) continue;
      const value = desc.value;
      apply(push, overridden, [value]);
      defineProperty(object, key, {
        get() {
          return value;
        },
        set(next) {
          if (this === object) {
            throw new TypeErrorCtor(
              "Cannot assign to read only property '" + StringCtor(key) + "' of a built-in object",
            );
          }
          defineProperty(this, key, {
            value: next,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        },
        enumerable: desc.enumerable,
        configurable: false,
      });
    }
  };
  overridable(Object.prototype, ["constructor", "toString", "toLocaleString", "valueOf"]);
  overridable(Function.prototype, ["constructor", "toString", "bind"]);
  overridable(Promise.prototype, ["constructor"]);
  for (const E of [
    Error,
    TypeError,
    RangeError,
    ReferenceError,
    SyntaxError,
    EvalError,
    URIError,
    AggregateError,
    g.SuppressedError,
  ]) {
    if (E !== undefined) overridable(E.prototype, ["constructor", "name", "message", "toString"]);
  }

  const hidden = [
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function () {}),
    getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(new Map()[Symbol.iterator]()),
    getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf(""[Symbol.iterator]()),
    getPrototypeOf(/a/[Symbol.matchAll]("")),
    getPrototypeOf(Uint8Array),
    getPrototypeOf(getPrototypeOf((function* () {})())),
    getPrototypeOf(getPrototypeOf((async function* () {})())),
  ];
  // The global object's own prototype chain is frozen too: a name defined on its prototype would
  // be a global for every later call (a `setTimeout` of one call's making, say), frozen global or
  // not.
  const todo = [...hidden, ...overridden, getPrototypeOf(g)];
  // Error stays extensible for two properties V8 reads from it and libraries set:
  // stackTraceLimit and prepareStackTrace. Both are put back after every call.
  const stackTraceLimit = Error.stackTraceLimit;
  defineProperty(Error, "prepareStackTrace", { value: undefined, writable: true });
  for (const key of ownKeys(Error)) {
    if (key !== "stackTraceLimit" && key !== "prepareStackTrace") {
      const desc = getOwnPropertyDescriptor(Error, key);
      defineProperty(Error, key, hasOwn(desc, "value")
        ? { configurable: false, writable: false }
        : { configurable: false });
      // and what they hold (Error.captureStackTrace, Error.isError, …), frozen below
      apply(push, todo, hasOwn(desc, "value") ? [desc.value] : [desc.get, desc.set]);
    }
  }
  Object.preventExtensions(Error);
  const seen = new Set([g, Error]);
  apply(push, todo, [Error.prototype, getPrototypeOf(Error)]);
  for (const key of ownKeys(g)) {
    const desc = getOwnPropertyDescriptor(g, key);
    apply(push, todo, hasOwn(desc, "value") ? [desc.value] : [desc.get, desc.set]);
  }
  while (todo.length > 0) {
    const value = todo.pop();
    if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
    if (seen.has(value)) continue;
    seen.add(value);
    freeze(value);
    apply(push, todo, [getPrototypeOf(value)]);
    for (const key of ownKeys(value)) {
      const desc = getOwnPropertyDescriptor(value, key);
      apply(push, todo, hasOwn(desc, "value") ? [desc.value] : [desc.get, desc.set]);
    }
  }

  // --- the global object ----------------------------------------------------------------------
  // Frozen too: a call cannot add or replace a global, so no call can leave anything for the
  // next. (Putting changed globals back after each call cost ~10 µs a call; freezing costs
  // nothing.) Scripts keep their state in their own variables, which are fresh for every call.
  freeze(g);

  // --- calls -----------------------------------------------------------------------------------
  const messageOf = (error) => {
    try {
      if (error instanceof ErrorCtor) {
        const message = StringCtor(error.message);
        return message === "" ? StringCtor(error.name) : message;
      }
      if (typeof error === "string") return error;
      if (error !== null && typeof error === "object" && typeof error.message === "string") {
        return error.message;
      }
      return describe(error);
    } catch {
      return "the script threw a value that cannot be shown";
    }
  };
  const stackOf = (error) => {
    try {
      return error instanceof ErrorCtor && typeof error.stack === "string" ? error.stack : "";
    } catch {
      return "";
    }
  };
  // Outcomes are strings: "v" + JSON of the value, or "x" + JSON of {message, stack}.
  const failed = (error) =>
    "x" + stringify({ message: cut(messageOf(error), MAX_TEXT), stack: cut(stackOf(error), MAX_STACK) });
  // JSON longer than svc serves as one result never leaves the isolate: the host would hold it
  // (and its tree) in its own heap before it could refuse it.
  const done = (value) => {
    try {
      const json = stringify(value);
      if (json !== undefined && json.length > maxResultChars) {
        return failed(
          new RangeErrorCtor(
            "the script returned " + json.length + " characters of JSON, more than the " +
              maxResultChars + " svc serves as one result: return less",
          ),
        );
      }
      return "v" + (json === undefined ? "null" : json);
    } catch (error) {
      return failed(
        new TypeErrorCtor("the script returned a value that is not JSON: " + messageOf(error)),
      );
    }
  };

  // RegExp's legacy statics (RegExp.input, $1…$9, lastMatch, leftContext, rightContext,
  // lastParen) belong to the isolate, not to a call, and freezing RegExp leaves their accessors
  // working: they would show the last match of the previous call, another caller's data. Matching
  // an empty pattern against an empty string sets them all to "".
  const forgetLastMatch = () => apply(exec, emptyPattern, [""]);

  let outcome = null;
  // Puts back what a call may have changed, so that no call sees the previous one's: its
  // unsettled fetches, Error.stackTraceLimit and Error.prepareStackTrace, the last RegExp match.
  // Every call runs it first, before any code of its own (so after the previous call's last
  // microtask, and without a call of the host's own into V8 per call). Those two properties of
  // Error stay writable (V8 reads them as plain data properties, and libraries set them), so a
  // call can also redefine them: read-only, or as an accessor that V8 ignores and whose setter
  // swallows the reset. Then the previous value would stay for the next calls (another caller's
  // errors formatted by that call's function, or no stacks at all), or the reset would throw:
  // reset() answers false instead, the call answers SPOILED without running, and the host closes
  // the isolate and runs the call on a fresh one.
  const SPOILED = "s";
  const errorDefaults = [
    ["stackTraceLimit", stackTraceLimit],
    ["prepareStackTrace", undefined],
  ];
  const reset = () => {
    if (pending.size !== 0) pending = new MapCtor(); // fetches the call left unsettled
    outcome = null;
    forgetLastMatch();
    try {
      for (const [key, value] of errorDefaults) {
        Error[key] = value;
        const desc = getOwnPropertyDescriptor(Error, key);
        if (desc === undefined || !hasOwn(desc, "value") || desc.value !== value || !desc.writable) {
          return false;
        }
      }
      return true;
    } catch {
      return false;
    }
  };
  // Runs the bundle's top level afresh (its module state is per call) and calls the export. The
  // outcome, or null while the returned promise is pending: the host then pumps fetches and asks
  // again with poll(); SPOILED when an earlier call left the isolate unfit (see reset).
  const invoke = (factory, exportName, payload) => {
    if (!reset()) return SPOILED;
    let result;
    startBufferCount();
    try {
      const module = { exports: {} };
      factory(module, module.exports, require);
      const exports = module.exports;
      let fn;
      if (exportName === "default") {
        fn = exports !== null && typeof exports === "object" && exports.__esModule
          ? exports.default
          : typeof exports === "function"
            ? exports
            : exports?.default;
      } else {
        fn = exports?.[exportName];
      }
      if (typeof fn !== "function") {
        throw new TypeErrorCtor(
          exportName === "default"
            ? "the script's default export is not a function"
            : "the script's export `" + exportName + "` is not a function",
        );
      }
      result = fn(parse(payload));
    } catch (error) {
      return failed(error);
    }
    if (result !== null && (typeof result === "object" || typeof result === "function")) {
      let thenable = false;
      try {
        thenable = typeof result.then === "function";
      } catch (error) {
        return failed(error);
      }
      if (thenable) {
        apply(then, PromiseCtor.resolve(result), [
          (value) => {
            outcome = done(value);
          },
          (error) => {
            outcome = failed(error);
          },
        ]);
        return null;
      }
    }
    return done(result);
  };
  // One entry per script and export, made once per isolate: a call then passes only its payload.
  const bind = (factory, exportName) => (payload) => invoke(factory, exportName, payload);
  // the outcome once, so that an idle isolate does not hold the last call's result
  const poll = () => {
    const settled = outcome;
    outcome = null;
    return settled;
  };
  return { bind, poll, settle };
});
