import { withCustomFields } from '@data-platform/shared/entities/custom-fields';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { entities } from '@data-platform/shared/entities/registry';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { nameLiteral, rowJson } from './sql-fragments.ts';

const dialect = new PgDialect();
const companies = entities.companies as EntityDescription;
const textOf = (entity: EntityDescription, names: string[]) => dialect.sqlToQuery(rowJson(entity, 't', names));

describe('a row as JSON', () => {
  it('binds nothing: field names are literals, so that the statement is the same text on every request', () => {
    const { sql, params } = textOf(companies, ['id', 'name', 'totalRaised']);
    expect(params).toEqual([]);
    expect(sql).toContain(`'name'::text, "t"."name"`);
    expect(textOf(companies, ['id', 'name', 'totalRaised']).sql).toBe(sql);
    expect(textOf(companies, ['id', 'name']).sql).not.toBe(sql);
  });

  it("reads a description's custom fields: a new definition gives a new description, and a new text", () => {
    const before = textOf(companies, Object.keys(companies.fields)).sql;
    const described = withCustomFields(companies, [
      { id: 7, key: 'cf7', entity: 'companies', name: 'Source', type: 'text', position: 1 },
    ] as Parameters<typeof withCustomFields>[1]);
    const { sql, params } = textOf(described, [...Object.keys(companies.fields), 'cf7']);
    expect(params).toEqual([]);
    expect(sql).toContain(`'cf7'::text, "t"."custom" -> 'cf7'`);
    expect(textOf(companies, Object.keys(companies.fields)).sql).toBe(before);
  });

  it('takes as a literal only a name of the shape descriptions give', () => {
    expect(dialect.sqlToQuery(nameLiteral('cf12')).sql).toBe(`'cf12'`);
    for (const bad of ["x'); drop table companies; --", 'a b', '', '1st', 'é']) {
      expect(() => nameLiteral(bad)).toThrow(/Not a name/);
    }
  });
});
