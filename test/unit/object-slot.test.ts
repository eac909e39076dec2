import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../shared/http/byte-budget';
import { compatFor } from '../../shared/http/compat';
import { objectSlot } from '../../shared/http/object-slot';
import { requestState, startRequestState } from '../../shared/http/request-state';
import { ticketView } from '../../shared/http/views/ticket';
import { routeOf } from '../../shared/routes';
import type { Related } from '../../shared/store/tickets';
import { ticket } from './fixtures';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** Bytes in V8's young generation (its new space and new large objects). */
const young = (): number =>
  v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_name.startsWith('new_'))
    .reduce((bytes, space) => bytes + space.space_used_size, 0);

/** Some 2 MB of small objects: what a request's reads and views come to. */
const bulky = () => Array.from({ length: 50_000 }, (_, i) => ({ i }));

/**
 * Bytes of the young generation that the first minor GC after `request` keeps, beyond what it
 * keeps of a request that made the same garbage and held nothing. As in a warm process, the
 * module-level structures have grown to their size (a few requests first) and are old (two full
 * GCs); a WeakMap's table that grows at the request would be young, and behave as the slots do.
 */
const keptAfter = (request: () => void): number => {
  const run = (work: () => void) => {
    for (let i = 0; i < 8; i++) work();
    gc({ type: 'major' });
    gc({ type: 'major' });
    work();
    gc({ type: 'minor' });
    return young();
  };
  const baseline = Math.min(
    run(() => void bulky()),
    run(() => void bulky()),
  );
  return run(request) - baseline;
};

const BASE = 'https://api.example.com';
const STANDARD = compatFor(routeOf('ticketDetail'), 'standard');
/** Far below the ~2 MB of `bulky`, far above what a minor GC's own noise keeps. */
const LITTLE = 200_000;

describe('a value kept with a young object, and the first minor GC after its request', () => {
  it('the measure: a module-level WeakMap keeps the value of a dropped key through it', () => {
    const map = new WeakMap<object, unknown>();
    expect(keptAfter(() => void map.set({}, bulky()))).toBeGreaterThan(5 * LITTLE);
  });

  it('objectSlot: the value dies with its owner', () => {
    const slot = objectSlot<object, unknown>('test');
    expect(keptAfter(() => void slot.set({}, bulky()))).toBeLessThan(LITTLE);
  });
});

/** The values a request's objects hold in slots (object-slot.ts): their own symbol properties. */
const slotted = (owner: object): unknown[] =>
  Object.getOwnPropertySymbols(owner).map((key) => (owner as Record<symbol, unknown>)[key]);

describe("what the product keeps per request lives on the request's own objects", () => {
  it("a request's state, on its event (request-state.ts)", () => {
    const event = {};
    const state = startRequestState(event);
    expect(slotted(event)).toEqual([state]);
    expect(slotted(event)[0]).toBe(state);
  });

  it("a view's measured JSON text, on the view (byte-budget.ts)", () => {
    const view = { id: 'a' };
    const text = jsonText(view);
    expect(slotted(view)).toEqual([text]);
  });

  it("a read's expansions, on its Related (views/ticket.ts)", () => {
    const related: Related = () => undefined;
    ticketView(ticket(), related, BASE, STANDARD);
    expect(slotted(related)).toEqual([expect.any(Function)]);
  });
});

describe('objectSlot', () => {
  it('keeps a value per object, unseen by JSON, Object.keys, spreads and Object.assign', () => {
    const slot = objectSlot<object, string>('test');
    const owner = { a: 1 };
    expect(slot.get(owner)).toBeUndefined();
    expect(slot.set(owner, 'kept')).toBe('kept');
    expect(slot.get(owner)).toBe('kept');
    expect(slot.get({ a: 1 })).toBeUndefined();
    expect(JSON.stringify(owner)).toBe('{"a":1}');
    expect(Object.keys(owner)).toEqual(['a']);
    expect(slot.get({ ...owner })).toBeUndefined();
    expect(slot.get(Object.assign({}, owner))).toBeUndefined();
    slot.set(owner, 'again');
    expect(slot.get(owner)).toBe('again');
  });

  it('keeps a value for an object that cannot take a property', () => {
    const slot = objectSlot<object, string>('test');
    const frozen = Object.freeze({ a: 1 });
    slot.set(frozen, 'kept');
    expect(slot.get(frozen)).toBe('kept');
    expect(slot.get(Object.freeze({ a: 1 }))).toBeUndefined();
  });

  it("a request's state stays its event's, and a copy of the event starts afresh", () => {
    const event = { rawPath: '/x' };
    const state = startRequestState(event);
    expect(requestState(event)).toBe(state);
    expect(requestState({ ...event })).not.toBe(state);
  });
});
