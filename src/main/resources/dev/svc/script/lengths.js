// Lengths V8 cannot hold, run once when the isolate is created, before sandbox.js (which then
// freezes what this leaves). V8 ends the whole process, with no callback svc could answer
// ("Fatal JavaScript invalid size error"), when one built-in step is asked for an array of more
// elements than it holds (2^27 on this build): `new Array(2 ** 28).fill(0)`,
// `Array.from({ length: 2 ** 28 })`, `"x".repeat(2 ** 28).split("")`, a JSON text of more items.
// A handler that sizes an array by a number a client sent would let any client end the server.
// The built-ins that make such an array in one step from a length are wrapped here: past the
// length they throw a RangeError the script can catch, before V8 is asked. The list cannot be
// complete (docs/scripts.md, Limits, says so); below the length, the heap cap applies as usual.
// A regular expression compiled from a pattern of millions of characters ends it too: RegExp,
// and what compiles a string as one, refuse a longer pattern the same way.
// The wrappers are proxies of the built-ins: names, lengths and `toString` stay theirs.
(function () {
  "use strict";
  const { apply, construct, defineProperty, getOwnPropertyDescriptor } = Reflect;
  const ProxyCtor = Proxy;
  const NumberCtor = Number;
  const StringCtor = String;
  const RangeErrorCtor = RangeError;
  const RegExpCtor = RegExp;
  const iteratorSymbol = Symbol.iterator;
  // fewer than V8's most (FixedArray::kMaxLength, 2^27 less a few): a margin for what a built-in
  // adds to the length it was given
  const MOST_ELEMENTS = 2 ** 27 - 1024;
  // a JSON text shorter than this cannot hold more items than that (each takes two characters)
  const MOST_JSON_CHARS = 2 * MOST_ELEMENTS;
  // a regular expression compiled from a longer pattern may end the process (4 million
  // alternatives, `"a|".repeat(2 ** 22)`, did; 3 million did not): a quarter of that, for shapes
  // that compile to more per character
  const MOST_PATTERN_CHARS = 2 ** 21;

  const lengthOf = (value) => {
    if (value === null || value === undefined) return 0;
    const n = NumberCtor(value.length);
    return n > 0 ? n : 0;
  };
  const refuse = (what, n) => {
    throw new RangeErrorCtor(
      what + ": " + n + " elements are more than one array may hold here (" + MOST_ELEMENTS +
        "); check a length before making an array of it",
    );
  };
  const wrap = (owner, key, check) => {
    const original = getOwnPropertyDescriptor(owner, key).value;
    const wrapped = new ProxyCtor(original, {
      apply(target, self, args) {
        check(self, args);
        return apply(target, self, args);
      },
    });
    defineProperty(owner, key, { value: wrapped });
  };

  // an array of `this.length` elements, dense, in one step
  const whole = (name) => (self) => {
    const n = lengthOf(self);
    if (n > MOST_ELEMENTS) refuse("Array.prototype." + name, n);
  };
  // sort too: it copies `this.length` elements into a work array first (an array-like, a string or
  // a proxy of an array that long ends the process; a sparse array is refused with them)
  for (const name of ["fill", "sort", "toReversed", "toSorted", "toSpliced", "with"]) {
    wrap(Array.prototype, name, whole(name));
  }
  // slice of a string (`Array.prototype.slice.call(s)`) of 2^28 characters ended the process after
  // 15 s of copying them one by one (a sparse array or an array-like that long does not)
  // (where start or end falls: a number clamped to the string, anything else the widest)
  const at = (v, n, widest) => {
    if (typeof v !== "number") return widest;
    if (v !== v) return 0;
    const x = v < 0 ? n + v : v;
    return x < 0 ? 0 : x > n ? n : x;
  };
  wrap(Array.prototype, "slice", (self, args) => {
    if (typeof self !== "string" && !(self instanceof StringCtor)) return;
    const n = lengthOf(self);
    if (n <= MOST_ELEMENTS) return;
    const count = at(args[1], n, n) - at(args[0], n, 0);
    if (count > MOST_ELEMENTS) refuse("Array.prototype.slice of a string", count);
  });
  // Array.from of an array-like makes its array at the array-like's length (an iterable grows one
  // element at a time, under the heap cap)
  wrap(Array, "from", (self, args) => {
    const items = args[0];
    if (items === null || items === undefined) return;
    if (typeof items === "string" || typeof items[iteratorSymbol] === "function") return;
    const n = lengthOf(items);
    if (n > MOST_ELEMENTS) refuse("Array.from", n);
  });
  // split makes its array in one step; a string longer than the most elements may split into more
  wrap(StringCtor.prototype, "split", (self, args) => {
    if (typeof self !== "string" && !(self instanceof StringCtor)) return;
    const limit = args[1];
    const text = StringCtor(self);
    if (text.length > MOST_ELEMENTS && (limit === undefined || limit >>> 0 > MOST_ELEMENTS)) {
      refuse("String.prototype.split of " + text.length + " characters into up to", text.length);
    }
  });
  // a pattern given as a string is compiled by RegExp (called or constructed, also as
  // `/x/.constructor`), RegExp.prototype.compile, and match, matchAll and search of a string
  const checkPattern = (what) => (self, args) => {
    const pattern = args[0];
    if (typeof pattern === "string" && pattern.length > MOST_PATTERN_CHARS) {
      throw new RangeErrorCtor(
        what + ": a pattern of " + pattern.length + " characters is longer than a regular" +
          " expression may be here (" + MOST_PATTERN_CHARS + "); check a length before" +
          " compiling a pattern of it",
      );
    }
  };
  const checkRegExp = checkPattern("RegExp");
  const regExpProxy = new ProxyCtor(RegExpCtor, {
    apply(target, self, args) {
      checkRegExp(self, args);
      return apply(target, self, args);
    },
    construct(target, args, newTarget) {
      checkRegExp(undefined, args);
      return construct(target, args, newTarget === regExpProxy ? target : newTarget);
    },
  });
  defineProperty(globalThis, "RegExp", { value: regExpProxy });
  defineProperty(RegExpCtor.prototype, "constructor", { value: regExpProxy });
  wrap(RegExpCtor.prototype, "compile", checkPattern("RegExp.prototype.compile"));
  for (const name of ["match", "matchAll", "search"]) {
    wrap(StringCtor.prototype, name, checkPattern("String.prototype." + name));
  }
  wrap(JSON, "parse", (self, args) => {
    const text = args[0];
    if (typeof text === "string" && text.length > MOST_JSON_CHARS) {
      throw new RangeErrorCtor(
        "JSON.parse: a text of " + text.length + " characters may hold more items than one array" +
          " may hold here (" + MOST_ELEMENTS + ")",
      );
    }
  });
})();
