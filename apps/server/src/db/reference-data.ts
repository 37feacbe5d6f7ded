import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Loads countries with their states (country-state-city) and ISO 4217
 * currencies (currency-codes) into an empty database. Runs after every
 * migration; does nothing once they are there.
 */
export async function loadReferenceData(database: Database): Promise<void> {
  const [{ loaded }] = (await database.rows<{ loaded: boolean }>(
    sql`select exists (select 1 from countries) and exists (select 1 from currencies) as loaded`,
  )) as [{ loaded: boolean }];
  if (loaded) return;

  // Imported here: the data sets are large and needed only on the first start.
  const [{ Country, State }, isoCountries, currencyCodes] = await Promise.all([
    import('country-state-city'),
    import('i18n-iso-countries'),
    import('currency-codes'),
  ]);
  const countries = Country.getAllCountries().map((c) => ({
    name: c.name,
    iso2: c.isoCode,
    iso3: isoCountries.default.alpha2ToAlpha3(c.isoCode) ?? null,
    phone_code: c.phonecode.startsWith('+') ? c.phonecode : `+${c.phonecode}`,
    emoji: c.flag,
    currency: c.currency || null,
  }));
  const states = State.getAllStates().map((s) => ({ name: s.name, code: s.isoCode, country: s.countryCode }));
  const currencies = currencyCodes.default.data.map((c) => ({ code: c.code, name: c.currency, minor_units: c.digits }));

  await database.db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into currencies (code, name, minor_units)
      select code, name, minor_units from json_to_recordset(${JSON.stringify(currencies)}::json)
        as r(code text, name text, minor_units int)
      on conflict do nothing`);
    await tx.execute(sql`
      insert into countries (name, iso2, iso3, phone_code, emoji, currency)
      select name, iso2, iso3, phone_code, emoji, currency from json_to_recordset(${JSON.stringify(countries)}::json)
        as r(name text, iso2 text, iso3 text, phone_code text, emoji text, currency text)
      on conflict do nothing`);
    await tx.execute(sql`
      insert into states (country_id, name, code)
      select c.id, r.name, r.code from json_to_recordset(${JSON.stringify(states)}::json)
        as r(name text, code text, country text)
      join countries c on c.iso2 = r.country
      where not exists (select 1 from states s where s.country_id = c.id and s.name = r.name)`);
  });
}
