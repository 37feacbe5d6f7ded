import { deals } from '@data-platform/shared/entities/deals';
import type { AggregatesResponse } from '@data-platform/shared/query/aggregates';
import { describe, expect, it } from 'vitest';
import {
  arrangeColumns,
  boardHref,
  boardStages,
  type Card,
  cardOf,
  columnFilter,
  columnOf,
  columnTotals,
  isMove,
  listHref,
  type Moved,
  neighbourStage,
  type Stage,
  settledMoves,
} from './board-logic.ts';

const stages = boardStages(deals.fields.stage.options);

const card = (id: number, stage: Stage, version = 1): Card => ({
  id,
  version,
  name: `Deal ${id}`,
  stage,
  company: null,
  moreCompanies: 0,
  fund: null,
  amount: null,
  owner: null,
});

describe('the deal board', () => {
  it('has a column per stage in the picklist order, then one for deals without a stage', () => {
    expect(stages).toEqual([...(deals.fields.stage.options ?? []), null]);
    expect(columnOf(stages, 'Closing')).toBe('Closing');
    // A stage the picklist no longer has, or none, shows under "no stage".
    expect(columnOf(stages, 'Retired stage')).toBeNull();
    expect(columnOf(stages, null)).toBeNull();
    expect(columnFilter('Term sheet')).toEqual(['filter[stage][eq]', 'Term sheet']);
    expect(columnFilter(null)).toEqual(['filter[stage][isNull]', '']);
  });

  it('shows on a card the first company and how many more, the fund, the amount and the owner', () => {
    const row = {
      id: 7,
      version: 3,
      name: 'Nova B',
      stage: 'Due diligence',
      amount: { amount: '1500000.50', currency: 'EUR' },
      fund: { id: 2, name: 'Fund II' },
      owner: { id: 1, fullName: 'Ada Admin' },
      companies: [
        { id: 4, name: 'Acme' },
        { id: 5, name: 'Beta' },
        { id: 6, name: 'Gamma' },
      ],
    };
    expect(cardOf(row, stages)).toEqual({
      id: 7,
      version: 3,
      name: 'Nova B',
      stage: 'Due diligence',
      company: 'Acme',
      moreCompanies: 2,
      fund: 'Fund II',
      amount: { amount: 1500000.5, currency: 'EUR' },
      owner: 'Ada Admin',
    });
    expect(
      cardOf({ id: 8, version: 1, name: 'Bare', stage: null, fund: null, owner: null, companies: [] }, stages),
    ).toEqual({ ...card(8, null), name: 'Bare' });
  });

  it('totals each column from the grouped aggregates, per currency, never across currencies', () => {
    const answer: AggregatesResponse = {
      count: 6,
      groupBy: 'stage',
      fields: {},
      groups: [
        {
          value: 'Sourced',
          count: 3,
          fields: {
            amount: {
              kind: 'money',
              count: 2,
              currencies: [
                { currency: 'EUR', count: 1, sum: '2000000', avg: null, min: null, max: null },
                { currency: 'USD', count: 1, sum: '300000.25', avg: null, min: null, max: null },
              ],
            },
          },
        },
        { value: 'Retired stage', count: 1, fields: { amount: { kind: 'money', count: 0, currencies: [] } } },
        {
          value: null,
          count: 2,
          fields: {
            amount: {
              kind: 'money',
              count: 1,
              currencies: [{ currency: 'EUR', count: 1, sum: '49.5', avg: null, min: null, max: null }],
            },
          },
        },
      ],
    };
    const totals = columnTotals(stages, answer);
    expect(totals.get('Sourced')).toEqual({
      count: 3,
      amounts: [
        { currency: 'EUR', amount: 2_000_000 },
        { currency: 'USD', amount: 300_000.25 },
      ],
    });
    expect(totals.get('Closing')).toEqual({ count: 0, amounts: [] });
    // The retired option's deal counts with those without a stage.
    expect(totals.get(null)).toEqual({ count: 3, amounts: [{ currency: 'EUR', amount: 49.5 }] });
    expect(columnTotals(stages, undefined).get('Sourced')).toEqual({ count: 0, amounts: [] });
  });

  it('moves to the previous or next column by keys, not past either end', () => {
    expect(neighbourStage(stages, 'Sourced', 1)).toBe('First meeting');
    expect(neighbourStage(stages, 'First meeting', -1)).toBe('Sourced');
    expect(neighbourStage(stages, 'Sourced', -1)).toBeUndefined();
    expect(neighbourStage(stages, 'Monitoring', 1)).toBeNull();
    expect(neighbourStage(stages, null, 1)).toBeUndefined();
    expect(isMove(card(1, 'Sourced'), 'Sourced')).toBe(false);
    expect(isMove(card(1, 'Sourced'), null)).toBe(true);
  });

  it('shows a moved card first in its new column until the server rows show its new version', () => {
    const columns = new Map<Stage, Card[]>([
      ['Sourced', [card(1, 'Sourced'), card(2, 'Sourced')]],
      ['First meeting', [card(3, 'First meeting')]],
    ]);
    // Saving: the server still has it in Sourced, at the version the move claims.
    const saving = new Map<number, Moved>([[2, { card: card(2, 'First meeting', 1), saving: true }]]);
    let shown = arrangeColumns(stages, columns, saving);
    expect(shown.get('Sourced')?.map((c) => c.id)).toEqual([1]);
    expect(shown.get('First meeting')?.map((c) => c.id)).toEqual([2, 3]);
    expect(settledMoves(columns, saving)).toEqual([]);

    // Saved as version 2: still pinned while the rows read before the save show version 1.
    const saved = new Map<number, Moved>([[2, { card: card(2, 'First meeting', 2), saving: false }]]);
    expect(
      arrangeColumns(stages, columns, saved)
        .get('First meeting')
        ?.map((c) => c.id),
    ).toEqual([2, 3]);
    expect(settledMoves(columns, saved)).toEqual([]);

    // The rows read again show it in its new column at version 2: the server's order stands.
    const reread = new Map<Stage, Card[]>([
      ['Sourced', [card(1, 'Sourced')]],
      ['First meeting', [card(3, 'First meeting'), card(2, 'First meeting', 2)]],
    ]);
    expect(settledMoves(reread, saved)).toEqual([2]);
    shown = arrangeColumns(stages, reread, saved);
    expect(shown.get('First meeting')?.map((c) => c.id)).toEqual([3, 2]);
    expect(shown.get(null)).toEqual([]);
  });

  it('carries the view between the list and the board, not the columns or a preview', () => {
    const search = new URLSearchParams('shows=name,stage&filter[type][eq]=Seed&q=nova&sort=-amount&preview=4');
    expect(boardHref('/deals', '/deals', search)).toBe(
      '/deals/board?filter%5Btype%5D%5Beq%5D=Seed&q=nova&sort=-amount',
    );
    expect(boardHref('/deals', '/deals/views/hot-deals', new URLSearchParams())).toBe('/deals/board?view=hot-deals');
    expect(listHref('/deals', new URLSearchParams('view=hot-deals&q=nova'))).toBe('/deals/views/hot-deals?q=nova');
    expect(listHref('/deals', new URLSearchParams('filters=none'))).toBe('/deals?filters=none');
    // Not a slug: the list's root, never a path made of what the address says.
    expect(listHref('/deals', new URLSearchParams('view=../users'))).toBe('/deals');
  });
});
