import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A statement's text and parameters, ready for `Database.textRows`. */
export interface BoundText {
  text: string;
  params: unknown[];
}

/** A statement compiled once: its text, its parameters, and which of them are the caller's values. */
interface CompiledText {
  text: string;
  /** The parameters as compiled: constants of the shape, and stand-ins where `slots` says. */
  params: unknown[];
  /** Per parameter, the index of the caller's value it binds, or -1 for a constant of the shape. */
  slots: number[];
}

const dialect = new PgDialect();
const STAND_IN = '\u0000dp-slot-';
const standIn = (i: number) => `${STAND_IN}${i}\u0000`;

/**
 * Statements compiled once per shape, then bound to each request's values
 * without being built again: building a list's SQL (every selected field's
 * JSON, the order's keys) and compiling it to a 2 KB text was most of a list
 * request's time in Node, and a new string each time made the prepared
 * statement's name lookup hash it anew (decision 0021's named statements).
 *
 * `build` makes the statement from the values it is given. The first time a
 * shape is seen it is called with stand-ins (strings no request sends): each
 * parameter that holds a stand-in binds that value later, every other
 * parameter is a constant of the shape. So the key must name everything but
 * the values that `build` reads (which fields, the order, the page size...).
 * A shape whose values do not all reach the statement as parameters (one
 * used in a condition while building, or written into the text) is not kept:
 * `bind` answers undefined and the caller builds the statement as before.
 */
export class CompiledTexts {
  private readonly texts = new Map<string, CompiledText | null>();

  /** `max`: the shapes kept at most; the oldest leaves for a new one. */
  constructor(private readonly max: number) {}

  /** The shapes kept. */
  get size(): number {
    return this.texts.size;
  }

  bind(key: string, values: readonly unknown[], build: (values: readonly unknown[]) => SQL): BoundText | undefined {
    let compiled = this.texts.get(key);
    if (compiled === undefined) {
      compiled = compile(values.length, build);
      // The oldest shape makes room: shapes a caller crafts by the thousand cost their own builds, not others'.
      if (this.texts.size >= this.max) this.texts.delete(this.texts.keys().next().value as string);
      this.texts.set(key, compiled);
    }
    if (!compiled) return undefined;
    const { slots } = compiled;
    const params = compiled.params.slice();
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number;
      if (slot >= 0) params[i] = values[slot];
    }
    return { text: compiled.text, params };
  }
}

function compile(count: number, build: (values: readonly unknown[]) => SQL): CompiledText | null {
  const standIns = Array.from({ length: count }, (_, i) => standIn(i));
  const { sql: text, params } = dialect.sqlToQuery(build(standIns));
  if (text.includes(STAND_IN)) return null;
  const slots = params.map((param) => (typeof param === 'string' ? standIns.indexOf(param) : -1));
  // A stand-in inside a longer parameter (`%value%`): that parameter is no value of the caller's as it is.
  if (params.some((param, i) => slots[i] === -1 && typeof param === 'string' && param.includes(STAND_IN))) return null;
  for (let i = 0; i < count; i++) if (!slots.includes(i)) return null;
  return { text, params, slots };
}
