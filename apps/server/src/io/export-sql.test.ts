import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { inlineParams } from './export-sql.ts';

describe('inlineParams (the text of an export COPY)', () => {
  it('writes numbers, booleans and nulls in as literals, skipping quoted text', () => {
    const statement = inlineParams(sql`select '$1' as a, ${5} as b, ${-2.5} as c, ${true} as d, ${null} as e`);
    expect(statement).toBe(`select '$1' as a, '5' as b, '-2.5' as c, true as d, NULL as e`);
  });

  it('refuses text, so that no value someone typed goes into SQL text', () => {
    expect(inlineParams(sql`select * from t where name = ${"x'; drop table t; --"}`)).toBeUndefined();
    expect(inlineParams(sql`select * from t where n = ${Number.NaN}`)).toBeUndefined();
    expect(inlineParams(sql`select * from t where d = ${new Date(0)}`)).toBeUndefined();
  });
});
