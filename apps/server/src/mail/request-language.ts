/**
 * The first of `offered` an Accept-Language header asks for, by its weights
 * (`fr-CA;q=0.9, en;q=0.8` → `fr`); undefined when it names none.
 */
export function languageOfHeader<L extends string>(header: string | undefined, offered: readonly L[]): L | undefined {
  if (!header) return undefined;
  const asked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0] ?? '', weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return asked.map((entry) => entry.base).find((base): base is L => (offered as readonly string[]).includes(base));
}
