/**
 * A value kept with an object of one request (its event, a view, a read's `Related`) under a
 * hidden key: a non-enumerable symbol property, which JSON, `Object.keys`, spreads and
 * `Object.assign` never see or copy.
 *
 * Not a module-level WeakMap. Such a map lives in V8's old generation, and each value it holds for
 * a young key is reachable from it while a minor GC (a scavenge) runs: the value, and all it
 * points at, survive every scavenge until one finds its key dead, and one that survives twice is
 * promoted to the old generation, to be freed only by a full GC. Under load a scavenge always finds
 * requests in flight, so the three maps this replaces (the request's state, the views' JSON texts,
 * a read's expansions) made the product's server copy and promote about 1.5 times as much per
 * scavenge as the bare handler, and spend that much longer in it (docs/performance.md, "Issue 27,
 * fourteenth pass"). A property dies with its object at the first scavenge after the request.
 *
 * An object that cannot take a property (frozen, sealed) keeps its value in a WeakMap instead.
 */
export interface ObjectSlot<O extends object, V> {
  get(owner: O): V | undefined;
  set(owner: O, value: V): V;
}

export const objectSlot = <O extends object, V>(description: string): ObjectSlot<O, V> => {
  const key = Symbol(description);
  const fixed = new WeakMap<O, V>();
  return {
    get: (owner) => {
      const value = (owner as { [key]?: V })[key];
      return value !== undefined || Object.isExtensible(owner) ? value : fixed.get(owner);
    },
    set: (owner, value) => {
      if (Object.isExtensible(owner))
        Object.defineProperty(owner, key, { value, writable: true, configurable: true });
      else fixed.set(owner, value);
      return value;
    },
  };
};
