// ArrayBuffer memory of one isolate, run once when the isolate is created, before sandbox.js (which
// then freezes what this leaves). V8's heap cap does not count an ArrayBuffer's bytes: they are
// allocated outside the heap, and V8 has no limit for them, so `new Uint8Array(2 ** 30)` in a few
// calls at once could take the process's memory. Here every way a script has to make new
// ArrayBuffer memory counts its bytes against a budget of the call, `maxBytes` in all (the heap
// cap: docs/scripts.md, Limits); past it, the allocation throws a RangeError before it happens.
//
// The ways, with V8 14's built-ins (SharedArrayBuffer, Atomics and WebAssembly are removed by
// sandbox.js; V8 alone has no TextEncoder or structuredClone):
// - the constructors ArrayBuffer and each typed array, replaced by proxies that count; the
//   prototypes' `constructor` is the proxy too, so that species constructors (slice, map, filter,
//   subarray, ArrayBuffer.prototype.slice) and static `from`/`of` come through them;
// - what makes memory with the built-in constructor directly: ArrayBuffer.prototype.transfer and
//   transferToFixedLength (a new length), the typed arrays' toReversed, toSorted and with (a copy),
//   Uint8Array.fromBase64 and fromHex (from a string), counted by wrappers;
// - a resizable ArrayBuffer counts its maxByteLength when made, so resize needs no count.
// Lengths are converted here once, and the built-in receives the number, so no valueOf or getter
// can show this code one length and V8 another; an iterable source of a typed array is first read
// into an Array (on the heap, under the heap cap) whose length is then exact, and an array-like
// one is copied element by element into a typed array of the length it had when read.
// A DataView or a typed array over an existing buffer makes no memory of its own.
//
// Returns startCall, which sandbox.js runs as a call starts: the count is per call.
(function (maxBytes) {
  "use strict";
  const g = globalThis;
  const { apply, construct, defineProperty, getOwnPropertyDescriptor, getPrototypeOf } = Reflect;
  const ProxyCtor = Proxy;
  const NumberCtor = Number;
  const RangeErrorCtor = RangeError;
  const trunc = Math.trunc;
  const iteratorSymbol = Symbol.iterator;
  const getter = (object, key) => getOwnPropertyDescriptor(object, key).get;
  const bufferByteLength = getter(ArrayBuffer.prototype, "byteLength");
  const TypedArrayPrototype = getPrototypeOf(Uint8Array.prototype);
  const typedByteLength = getter(TypedArrayPrototype, "byteLength");
  const typedLength = getter(TypedArrayPrototype, "length");

  let used = 0;
  // Throws unless `bytes` more fit in the call's budget; `make` then allocates them.
  const counted = (what, bytes, make) => {
    if (bytes > maxBytes - used) {
      throw new RangeErrorCtor(
        what + ": " + bytes + " bytes of ArrayBuffer memory would take this call past the " +
          maxBytes + " bytes a call may allocate outside the script heap (SVC_SCRIPT_HEAP_MB)",
      );
    }
    const made = make();
    used += bytes;
    return made;
  };
  // ToIndex as far as counting needs it; a value V8 refuses (negative, too large) is passed on
  // for V8 to throw its own RangeError.
  const toIndex = (value) => {
    if (value === undefined) return 0;
    const number = NumberCtor(value);
    return number !== number ? 0 : trunc(number);
  };
  const bytesOf = (n, size) => (n > 0 && n < Infinity ? n * size : 0);
  const isBuffer = (value) => {
    try {
      apply(bufferByteLength, value, []);
      return true;
    } catch {
      return false;
    }
  };
  const isTypedArray = (value) => {
    try {
      apply(typedLength, value, []);
      return true;
    } catch {
      return false;
    }
  };
  const method = (name, body) => ({ [name](...args) { return apply(body, this, args); } })[name];
  const replace = (object, name, wrapper) => {
    const desc = getOwnPropertyDescriptor(object, name);
    if (desc === undefined || typeof desc.value !== "function") return;
    defineProperty(object, name, { ...desc, value: method(name, wrapper(desc.value)) });
  };

  // --- ArrayBuffer -----------------------------------------------------------------------------
  const BufferCtor = ArrayBuffer;
  const bufferProxy = new ProxyCtor(BufferCtor, {
    construct(target, args, newTarget) {
      const length = toIndex(args[0]);
      const options = args[1];
      let max;
      if (options !== null && typeof options === "object") {
        const requested = options.maxByteLength;
        if (requested !== undefined) max = toIndex(requested);
      }
      const bytes = max === undefined ? bytesOf(length, 1) : bytesOf(max > length ? max : length, 1);
      const rest = max === undefined ? [length] : [length, { maxByteLength: max }];
      return counted("new ArrayBuffer", bytes, () =>
        construct(target, rest, newTarget === bufferProxy ? target : newTarget),
      );
    },
  });
  defineProperty(BufferCtor.prototype, "constructor", {
    ...getOwnPropertyDescriptor(BufferCtor.prototype, "constructor"),
    value: bufferProxy,
  });
  for (const name of ["transfer", "transferToFixedLength"]) {
    replace(BufferCtor.prototype, name, (original) => function (newLength) {
      const old = apply(bufferByteLength, this, []);
      const length = newLength === undefined ? old : toIndex(newLength);
      return counted("ArrayBuffer.prototype." + name, bytesOf(length - old, 1), () =>
        apply(original, this, [length]),
      );
    });
  }
  defineProperty(g, "ArrayBuffer", { ...getOwnPropertyDescriptor(g, "ArrayBuffer"), value: bufferProxy });

  // --- typed arrays ----------------------------------------------------------------------------
  for (const name of [
    "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
    "Uint32Array", "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
  ]) {
    const Ctor = g[name];
    if (typeof Ctor !== "function") continue;
    const size = Ctor.BYTES_PER_ELEMENT;
    const what = "new " + name;
    const proxy = new ProxyCtor(Ctor, {
      construct(target, args, newTarget) {
        const to = newTarget === proxy ? target : newTarget;
        const first = args[0];
        if (first === null || (typeof first !== "object" && typeof first !== "function")) {
          const length = toIndex(first);
          return counted(what, bytesOf(length, size), () => construct(target, [length], to));
        }
        if (isBuffer(first)) return construct(target, args, to); // a view of memory that exists
        if (isTypedArray(first)) {
          return counted(what, bytesOf(apply(typedLength, first, []), size), () =>
            construct(target, [first], to),
          );
        }
        // as the built-in would (an iterable's values, else an array-like's elements), in steps
        // that the heap cap and the count can stop: V8 would allocate first, then read
        const usingIterator = first[iteratorSymbol];
        if (usingIterator !== undefined && usingIterator !== null) {
          const list = [];
          for (const value of { [iteratorSymbol]: () => apply(usingIterator, first, []) }) {
            list[list.length] = value;
          }
          return counted(what, bytesOf(list.length, size), () => construct(target, [list], to));
        }
        const length = toIndex(first.length);
        return counted(what, bytesOf(length, size), () => {
          const made = construct(target, [length > 0 ? length : 0], to);
          for (let k = 0; k < length; k++) made[k] = first[k];
          return made;
        });
      },
    });
    defineProperty(Ctor.prototype, "constructor", {
      ...getOwnPropertyDescriptor(Ctor.prototype, "constructor"),
      value: proxy,
    });
    defineProperty(g, name, { ...getOwnPropertyDescriptor(g, name), value: proxy });
  }
  for (const name of ["toReversed", "toSorted", "with"]) {
    replace(TypedArrayPrototype, name, (original) => function (...args) {
      return counted("%TypedArray%.prototype." + name, apply(typedByteLength, this, []), () =>
        apply(original, this, args),
      );
    });
  }
  // from a string (held in the heap): counted once made, so at most one string's worth over
  for (const name of ["fromBase64", "fromHex"]) {
    replace(Uint8Array, name, (original) => function (...args) {
      const made = apply(original, this, args);
      return counted("Uint8Array." + name, apply(typedByteLength, made, []), () => made);
    });
  }

  // --- a typed array's indices as property keys ------------------------------------------------
  // Object.keys and the like name every element of a typed array by a string of its own, built in
  // one step of V8's C++ that never looks for the call's termination: ~30 bytes of heap per element.
  // Past the heap cap, svc gives V8 room and ends the call, but the step goes on to its end and
  // asks for room again and again: `Object.keys(new Uint8Array(2 ** 27))` (a buffer within the
  // budget) held 4.4 GB and ran past its call's deadline for minutes, and ended the process once.
  // Here such a step is refused when its keys alone (16 bytes each at the least) would pass the
  // heap cap, a RangeError the script can catch; below that the heap cap ends the call as usual.
  // `for…in` over such an array cannot be wrapped (docs/scripts.md, Limits).
  const mostKeys = trunc(maxBytes / 16);
  const isView = BufferCtor.isView; // quick, for the plain objects these usually see
  const checkKeys = (what, value) => {
    if (value === null || typeof value !== "object" || !apply(isView, BufferCtor, [value])) return;
    if (!isTypedArray(value)) return; // a DataView
    const n = apply(typedLength, value, []);
    if (n > mostKeys) {
      throw new RangeErrorCtor(
        what + ": a typed array of " + n + " elements has more indices than property keys of" +
          " them fit in the script heap (" + mostKeys + " at most, SVC_SCRIPT_HEAP_MB); read" +
          " its elements, or its length, instead",
      );
    }
  };
  // proxies of the built-ins, as lengths.js makes: their names, lengths and `toString` stay
  const checked = (owner, key, check) => {
    const desc = getOwnPropertyDescriptor(owner, key);
    const wrapped = new ProxyCtor(desc.value, {
      apply(target, self, args) {
        check(args, self);
        return apply(target, self, args);
      },
    });
    defineProperty(owner, key, { ...desc, value: wrapped });
  };
  for (const name of ["keys", "entries", "getOwnPropertyNames", "getOwnPropertyDescriptors"]) {
    checked(Object, name, (args) => checkKeys("Object." + name, args[0]));
  }
  checked(Reflect, "ownKeys", (args) => checkKeys("Reflect.ownKeys", args[0]));
  checked(Object, "assign", (args) => {
    for (let i = 1; i < args.length; i++) checkKeys("Object.assign", args[i]);
  });
  // concat copies a typed array marked Symbol.isConcatSpreadable element by element, in one C++
  // step, into a dictionary of V8's own (~80 bytes an element): a 32 MiB Uint8Array (2^25 elements)
  // ended the process, 2^24 held 1.5 GB until the heap cap ended the call. Refused past the same
  // count as the keys above, counting every typed array the call would spread.
  const spreadable = Symbol.isConcatSpreadable;
  checked(Array.prototype, "concat", (args, self) => {
    let n = 0;
    for (let i = -1; i < args.length; i++) {
      const item = i < 0 ? self : args[i];
      if (item === null || typeof item !== "object" || !apply(isView, BufferCtor, [item])) continue;
      if (isTypedArray(item) && item[spreadable]) n += apply(typedLength, item, []);
    }
    if (n > mostKeys) {
      throw new RangeErrorCtor(
        "Array.prototype.concat: spreading " + n + " typed-array elements is more than fit in" +
          " the script heap (" + mostKeys + " at most, SVC_SCRIPT_HEAP_MB); copy them with" +
          " Array.from or a loop",
      );
    }
  });
  // JSON.stringify writes a typed array as an object of its indices: a typed array anywhere in
  // the value asks here first (toJSON returns the array itself, which is then written as before)
  defineProperty(TypedArrayPrototype, "toJSON", {
    value: method("toJSON", function () {
      checkKeys("JSON.stringify", this);
      return this;
    }),
    writable: true,
    configurable: true,
  });

  return () => {
    used = 0;
  };
});
