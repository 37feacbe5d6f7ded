import type { CellT } from './field-widgets/widget.ts';

/** Options of t that change neither the text nor where it is looked up: its result is the same for every row. */
const PLAIN_OPTIONS = new Set(['ns', 'keySeparator', 'nsSeparator', 'defaultValue']);

/**
 * The grid's t: a text without interpolation (a select field's option
 * label, yes / no) worked out once per language, not once per cell drawn —
 * every row of a column asks for the same few. Texts that interpolate (a
 * row's name) go to i18next each time.
 */
export function rememberingT(t: CellT): CellT {
  const known = new Map<string, string>();
  const remembering = (key: string, options?: Record<string, unknown>) => {
    if (options) {
      for (const option in options) if (!PLAIN_OPTIONS.has(option)) return t(key as never, options as never);
    }
    const id = options
      ? `${String(options.ns)}\u0000${String(options.keySeparator)}\u0000${String(options.nsSeparator)}\u0000${String(options.defaultValue)}\u0000${key}`
      : key;
    let text = known.get(id);
    if (text === undefined) {
      text = String(t(key as never, options as never));
      known.set(id, text);
    }
    return text;
  };
  return remembering as unknown as CellT;
}
