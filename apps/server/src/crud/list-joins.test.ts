import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, adminClient, errorOf, factories, type Row } from '../testing/factories.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Joins (references, hasMany, manyToMany with their link) and relation lists, over HTTP. */

let server: TestServer;
let api: ApiClient;
const country: Record<string, number> = {};
const r: Record<string, Row> = {};

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  const make = factories(api);
  const found = await api.list('/api/v1/countries', { 'filter[iso2][in]': 'US,FR', select: 'iso2' });
  for (const row of found.body.data) country[row.iso2 as string] = row.id;

  r.acme = await make.company({ name: 'Acme', hqCountryId: country.US, city: 'Boston' });
  r.bolt = await make.company({ name: 'Bolt' });
  r.ada = await make.contact({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
  r.grace = await make.contact({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
  r.alan = await make.contact({ firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' });
  r.adaAcme = await make.link('contactCompanies', { contactId: r.ada.id, companyId: r.acme.id, role: 'CEO' });
  r.graceAcme = await make.link('contactCompanies', {
    contactId: r.grace.id,
    companyId: r.acme.id,
    role: 'Board member',
  });
  r.graceBolt = await make.link('contactCompanies', { contactId: r.grace.id, companyId: r.bolt.id });

  r.north = await make.firm({ name: 'Northwind', hqCountryId: country.FR });
  r.emptyFirm = await make.firm({ name: 'Empty Firm' });
  r.nw2 = await make.fund({ name: 'NW II', firmId: r.north.id, vintageYear: 2022 });
  r.nw1 = await make.fund({ name: 'NW I', firmId: r.north.id, vintageYear: 2018 });
  await make.fundPerformance(r.nw1.id, { asOfDate: '2024-06-30', paidIn: 10, distributed: 5 });
  await make.fundPerformance(r.nw1.id, { asOfDate: '2024-03-31', paidIn: 10, distributed: 2 });

  r.deal = await make.deal({ name: 'Deal One', fundId: r.nw1.id });
  r.investor = await make.investor({ name: 'Investor One' });
  await make.link('dealInvestors', {
    dealId: r.deal.id,
    investorId: r.investor.id,
    role: 'Lead',
    commitment: { amount: 5_000_000, currency: 'EUR' },
  });
  await make.link('dealCompanies', { dealId: r.deal.id, companyId: r.acme.id });
});

afterAll(async () => server?.close());

describe('the start-up call', () => {
  it('answers every country with only the selected fields and its states with id and name', async () => {
    const answer = await api.list(
      '/api/v1/countries?join=states(id,name)&page=1&pageSize=300&select=name,phoneCode,emoji,createdAt',
    );
    expect(answer.status).toBe(200);
    const { data, total, totalExact, nextCursor, page, pageSize } = answer.body;
    // It asks for no count, and nothing is counted.
    expect({ page, pageSize, total, totalExact, nextCursor }).toEqual({
      page: 1,
      pageSize: 300,
      total: null,
      totalExact: null,
      nextCursor: null,
    });
    // Every country and state of country-state-city 3.2.1 (the reference data loaded at start).
    expect(data).toHaveLength(250);
    let states = 0;
    for (const row of data) {
      expect(Object.keys(row).sort()).toEqual(['createdAt', 'emoji', 'id', 'name', 'phoneCode', 'states']);
      expect(row.phoneCode).toMatch(/^\+/);
      const list = row.states as Row[];
      for (const state of list) expect(Object.keys(state).sort()).toEqual(['id', 'name']);
      states += list.length;
    }
    const allStates = await api.list('/api/v1/states', { pageSize: 1, count: 'exact' });
    expect(states).toBe(allStates.body.total);
    expect(states).toBe(4963);

    const us = data.find((row) => row.id === country.US) as Row;
    expect(us.name).toBe('United States');
    const usStates = (us.states as Row[]).map((s) => s.name);
    expect(usStates).toEqual(expect.arrayContaining(['California', 'New York', 'Texas']));
    const listed = await api.list(`/api/v1/countries/${country.US}/states`, { select: 'name', pageSize: 1000 });
    expect(usStates).toEqual(listed.body.data.map((s) => s.name));
  });
});

describe('joins', () => {
  it('embeds a referenced record with the named fields, or null', async () => {
    const answer = await api.list('/api/v1/companies', { select: 'name', join: 'hqCountry(name,iso2)' });
    expect(answer.body.data).toEqual([
      { id: r.acme?.id, name: 'Acme', hqCountry: { id: country.US, name: 'United States', iso2: 'US' } },
      { id: r.bolt?.id, name: 'Bolt', hqCountry: null },
    ]);
  });

  it("embeds the target's display field when no fields are named", async () => {
    const answer = await api.get(`/api/v1/funds/${r.nw1?.id}`, { select: 'name', join: 'firm,createdBy(email)' });
    expect(answer.body).toEqual({
      id: r.nw1?.id,
      name: 'NW I',
      firm: { id: r.north?.id, name: 'Northwind' },
      createdBy: { id: expect.any(Number), email: 'admin@test.example' },
    });
  });

  it('embeds hasMany rows sorted by their display field, [] when there are none', async () => {
    const answer = await api.list('/api/v1/firms', { select: 'name', join: 'funds(name,vintageYear)', sort: 'name' });
    expect(answer.body.data).toEqual([
      { id: r.emptyFirm?.id, name: 'Empty Firm', funds: [] },
      {
        id: r.north?.id,
        name: 'Northwind',
        funds: [
          { id: r.nw1?.id, name: 'NW I', vintageYear: 2018 },
          { id: r.nw2?.id, name: 'NW II', vintageYear: 2022 },
        ],
      },
    ]);
    const performances = await api.get(`/api/v1/funds/${r.nw1?.id}`, { select: 'name', join: 'performances(dpi)' });
    expect(performances.body.performances).toEqual([
      { id: expect.any(Number), dpi: 0.2 },
      { id: expect.any(Number), dpi: 0.5 },
    ]);
  });

  it('embeds manyToMany rows with the link they come through', async () => {
    const answer = await api.list('/api/v1/companies', { select: 'name', join: 'contacts(fullName,email)' });
    expect(answer.body.data).toEqual([
      {
        id: r.acme?.id,
        name: 'Acme',
        contacts: [
          {
            id: r.ada?.id,
            fullName: 'Ada Lovelace',
            email: 'ada@example.com',
            link: { id: r.adaAcme?.id, role: 'CEO' },
          },
          {
            id: r.grace?.id,
            fullName: 'Grace Hopper',
            email: 'grace@example.com',
            link: { id: r.graceAcme?.id, role: 'Board member' },
          },
        ],
      },
      {
        id: r.bolt?.id,
        name: 'Bolt',
        contacts: [{ id: r.grace?.id, fullName: 'Grace Hopper', email: 'grace@example.com', link: expect.any(Object) }],
      },
    ]);
    const reverse = await api.get(`/api/v1/contacts/${r.alan?.id}`, { select: 'fullName', join: 'companies(name)' });
    expect(reverse.body).toEqual({ id: r.alan?.id, fullName: 'Alan Turing', companies: [] });
    const withMoney = await api.get(`/api/v1/deals/${r.deal?.id}`, { select: 'name', join: 'investors(name)' });
    expect(withMoney.body.investors).toEqual([
      {
        id: r.investor?.id,
        name: 'Investor One',
        link: { id: expect.any(Number), role: 'Lead', commitment: { amount: 5_000_000, currency: 'EUR' } },
      },
    ]);
  });

  it('embeds several relations at once, with filters on the root list', async () => {
    const answer = await api.list('/api/v1/companies', {
      select: 'name',
      join: 'hqCountry(iso2),contacts(lastName),deals(name,stage)',
      'filter[hqCountryId][notNull]': '',
    });
    expect(answer.body.data).toEqual([
      {
        id: r.acme?.id,
        name: 'Acme',
        hqCountry: { id: country.US, iso2: 'US' },
        contacts: [
          { id: r.ada?.id, lastName: 'Lovelace', link: expect.any(Object) },
          { id: r.grace?.id, lastName: 'Hopper', link: expect.any(Object) },
        ],
        deals: [{ id: r.deal?.id, name: 'Deal One', stage: null, link: expect.any(Object) }],
      },
    ]);
  });

  it('joins through POST /query too', async () => {
    const answer = await api.query('/api/v1/firms', {
      select: ['name'],
      join: ['hqCountry(name)', 'funds(name)'],
      where: { field: 'name', op: 'eq', value: 'Northwind' },
    });
    expect(answer.body.data).toEqual([
      {
        id: r.north?.id,
        name: 'Northwind',
        hqCountry: { id: country.FR, name: 'France' },
        funds: [
          { id: r.nw1?.id, name: 'NW I' },
          { id: r.nw2?.id, name: 'NW II' },
        ],
      },
    ]);
  });
});

describe('relation lists', () => {
  it('lists the records linked to one record, each with its link', async () => {
    const answer = await api.list(`/api/v1/companies/${r.acme?.id}/contacts`, { select: 'fullName', count: 'exact' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 2, totalExact: true, nextCursor: null });
    expect(answer.body.data).toEqual([
      {
        id: r.ada?.id,
        fullName: 'Ada Lovelace',
        link: { id: r.adaAcme?.id, version: 1, role: 'CEO' },
      },
      {
        id: r.grace?.id,
        fullName: 'Grace Hopper',
        link: { id: r.graceAcme?.id, version: 1, role: 'Board member' },
      },
    ]);
    const reverse = await api.list(`/api/v1/contacts/${r.grace?.id}/companies`, { select: 'name' });
    expect(reverse.body.data.map((c) => [c.name, (c.link as Row).role])).toEqual([
      ['Acme', 'Board member'],
      ['Bolt', null],
    ]);
  });

  it('takes the list parameters: filter, sort, q, paging and cursor', async () => {
    const base = `/api/v1/companies/${r.acme?.id}/contacts`;
    const filtered = await api.list(base, { select: 'fullName', 'filter[firstName][eq]': 'Grace' });
    expect(filtered.body.data.map((c) => c.fullName)).toEqual(['Grace Hopper']);
    const sorted = await api.list(base, { select: 'fullName', sort: '-fullName' });
    expect(sorted.body.data.map((c) => c.fullName)).toEqual(['Grace Hopper', 'Ada Lovelace']);
    const searched = await api.list(base, { select: 'fullName', q: 'lovelace' });
    expect(searched.body.data.map((c) => c.fullName)).toEqual(['Ada Lovelace']);
    const first = await api.list(base, { select: 'fullName', pageSize: 1, count: 'estimated' });
    expect(first.body).toMatchObject({ total: 2, data: [{ fullName: 'Ada Lovelace' }] });
    const next = await api.list(base, { select: 'fullName', pageSize: 1, cursor: first.body.nextCursor ?? '' });
    expect(next.body).toMatchObject({ data: [{ fullName: 'Grace Hopper' }], nextCursor: null });
    const joined = await api.list(base, { select: 'fullName', join: 'companies(name)', 'filter[id][eq]': r.ada?.id });
    expect(joined.body.data[0]?.companies).toEqual([{ id: r.acme?.id, name: 'Acme', link: expect.any(Object) }]);
  });

  it('lists hasMany relations', async () => {
    const funds = await api.list(`/api/v1/firms/${r.north?.id}/funds`, { select: 'name' });
    expect(funds.body.data.map((f) => f.name)).toEqual(['NW I', 'NW II']);
    const none = await api.list(`/api/v1/firms/${r.emptyFirm?.id}/funds`, { count: 'exact' });
    expect(none.body).toMatchObject({ data: [], total: 0 });
    const performances = await api.list(`/api/v1/funds/${r.nw1?.id}/performances`, { select: 'asOfDate' });
    expect(performances.body.data.map((p) => p.asOfDate)).toEqual(['2024-06-30', '2024-03-31']);
    const deals = await api.list(`/api/v1/funds/${r.nw1?.id}/deals`, { select: 'name' });
    expect(deals.body.data.map((d) => d.name)).toEqual(['Deal One']);
  });

  it('follows changes to the link: a new role, a removed link', async () => {
    const base = `/api/v1/contacts/${r.alan?.id}/companies`;
    const link = await factories(api).link('contactCompanies', { contactId: r.alan?.id, companyId: r.bolt?.id });
    const renamed = await api.patch(`/api/v1/contactCompanies/${link.id}`, { role: 'Advisor' }, link.version as number);
    expect(renamed.status).toBe(200);
    const listed = await api.list(base, { select: 'name' });
    expect(listed.body.data).toEqual([
      { id: r.bolt?.id, name: 'Bolt', link: { id: link.id, version: 2, role: 'Advisor' } },
    ]);
    expect((await api.delete(`/api/v1/contactCompanies/${link.id}`)).status).toBe(204);
    expect((await api.list(base, { count: 'estimated' })).body).toMatchObject({ data: [], total: 0, totalExact: true });
  });

  it('reads a related list in one statement, and the record it hangs on too only when the page is empty', async () => {
    const statementsOf = async (path: string): Promise<number> => {
      const spies = [vi.spyOn(server.database, 'rows'), vi.spyOn(server.database, 'textRows')];
      try {
        expect((await api.list(path, { select: 'id' })).status).toBe(200);
        return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    };
    expect(await statementsOf(`/api/v1/firms/${r.north?.id}/funds`)).toBe(1);
    expect(await statementsOf(`/api/v1/companies/${r.acme?.id}/contacts`)).toBe(1);
    expect(await statementsOf(`/api/v1/firms/${r.emptyFirm?.id}/funds`)).toBe(2);
  });

  it('answers 404 for a missing record and 400 for bad list parameters', async () => {
    const missing = await api.list('/api/v1/companies/999999/contacts');
    expect(missing.status).toBe(404);
    expect(errorOf(missing).code).toBe('not_found');
    const bad = await api.list(`/api/v1/companies/${r.acme?.id}/contacts`, { 'filter[nope][eq]': '1' });
    expect(bad.status).toBe(400);
    expect(errorOf(bad).fields).toEqual({ 'filter[nope][eq]': 'Unknown field nope' });
    const noRelation = await api.list(`/api/v1/companies/${r.acme?.id}/nothing`);
    expect(noRelation.status).toBe(404);
  });
});
