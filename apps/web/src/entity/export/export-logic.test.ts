import { describe, expect, it } from 'vitest';
import { exportBody, isGoing, percentOf } from './export-logic.ts';

describe('export jobs in the web app', () => {
  it('sends the list parameters as the query string spells them, a repeated one as a list', () => {
    expect(
      exportBody('xlsx', [
        ['select', 'name,city'],
        ['filter[stage][in]', 'seed,growth'],
        ['filter[employees][gte]', '10'],
        ['filter[employees][gte]', '20'],
        ['sort', '-name'],
      ]),
    ).toEqual({
      select: 'name,city',
      'filter[stage][in]': 'seed,growth',
      'filter[employees][gte]': ['10', '20'],
      sort: '-name',
      format: 'xlsx',
    });
  });

  it('shows a percent of the total only while the rows written are within it', () => {
    expect(percentOf({ rowsWritten: 0, rowsTotal: null })).toBeNull();
    expect(percentOf({ rowsWritten: 333, rowsTotal: 1000 })).toBe(33);
    expect(percentOf({ rowsWritten: 0, rowsTotal: 0 })).toBe(100);
    // An estimate below the rows found: the bar moves without a percent.
    expect(percentOf({ rowsWritten: 1200, rowsTotal: 1000 })).toBeNull();
  });

  it('follows queued and running jobs only', () => {
    expect(
      ['queued', 'running', 'succeeded', 'failed', 'cancelled'].map((status) => isGoing({ status } as never)),
    ).toEqual([true, true, false, false, false]);
  });
});
