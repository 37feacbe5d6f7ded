import type { Money } from '@data-platform/shared/fields/types/money';
import type { AggregatesResponse } from '@data-platform/shared/query/aggregates';
import { isViewSlug } from '@data-platform/shared/saved-view-slug';
import type { Row } from '../../store/resource-slices.ts';
import { BOARD_FIELD } from './pipeline-field.ts';

/**
 * The deal board's rules, apart from the screen: which columns it has, what a
 * card shows, what each column asks the list API for, the totals per column,
 * and where a card shows while its move is saved.
 */

/** A column's stage; `null` is the column of the deals without one (last). */
export type Stage = string | null;

export { BOARD_FIELD };
/** The money field the columns total, per currency. */
export const AMOUNT_FIELD = 'amount';

/** The columns: the picklist's options in their order, then the deals without a stage. */
export function boardStages(options: readonly string[] | undefined): Stage[] {
  return [...(options ?? []), null];
}

/** The column a stage is shown in: an option the picklist no longer has goes with "no stage". */
export function columnOf(stages: readonly Stage[], stage: unknown): Stage {
  return typeof stage === 'string' && stages.includes(stage) ? stage : null;
}

/** What a card shows of a deal, and the version its move claims to change. */
export interface Card {
  id: number;
  version: number;
  name: string;
  stage: Stage;
  /** The first company by name; `moreCompanies` others besides it. */
  company: string | null;
  moreCompanies: number;
  fund: string | null;
  amount: Money | null;
  owner: string | null;
}

/**
 * The list parameters of a card: only what it shows, the fund, owner and
 * companies named by joins in the same statement (never all fields of 5,000 deals).
 */
export const CARD_PARAMS: readonly [string, string][] = [
  ['select', `name,${BOARD_FIELD},${AMOUNT_FIELD},fundId,ownerId,version`],
  ['join', 'fund(name),owner(fullName),companies(name)'],
];

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const named = (value: unknown, field: string): string | null =>
  typeof value === 'object' && value !== null ? text((value as Record<string, unknown>)[field]) : null;

function moneyOf(value: unknown): Money | null {
  if (typeof value !== 'object' || value === null) return null;
  const { amount, currency } = value as Record<string, unknown>;
  const number = typeof amount === 'string' ? Number(amount) : amount;
  return typeof number === 'number' && Number.isFinite(number) && typeof currency === 'string'
    ? { amount: number, currency }
    : null;
}

/** A card from a row of the list API read with CARD_PARAMS. */
export function cardOf(row: Row, stages: readonly Stage[]): Card {
  const companies = Array.isArray(row.companies) ? row.companies : [];
  const names = companies.map((company) => named(company, 'name')).filter((name) => name !== null);
  return {
    id: row.id,
    version: Number(row.version),
    name: text(row.name) ?? `#${row.id}`,
    stage: columnOf(stages, row[BOARD_FIELD]),
    company: names[0] ?? null,
    moreCompanies: Math.max(0, names.length - 1),
    fund: named(row.fund, 'name'),
    amount: moneyOf(row[AMOUNT_FIELD]),
    owner: named(row.owner, 'fullName'),
  };
}

/** The condition a column adds to the board's filters. */
export function columnFilter(stage: Stage): [string, string] {
  return stage === null ? [`filter[${BOARD_FIELD}][isNull]`, ''] : [`filter[${BOARD_FIELD}][eq]`, stage];
}

/** A column's count and its amounts, one sum per currency. */
export interface ColumnTotals {
  count: number;
  amounts: Money[];
}

const noTotals: ColumnTotals = { count: 0, amounts: [] };

/** Each column's totals from `GET /deals/aggregates?groupBy=stage&fields=amount`; a column the answer lacks has none. */
export function columnTotals(
  stages: readonly Stage[],
  answer: AggregatesResponse | undefined,
): Map<Stage, ColumnTotals> {
  const totals = new Map<Stage, ColumnTotals>(stages.map((stage) => [stage, noTotals]));
  for (const group of answer?.groups ?? []) {
    const stage = columnOf(stages, group.value);
    const field = group.fields[AMOUNT_FIELD];
    const amounts =
      field?.kind === 'money'
        ? field.currencies.flatMap((c) =>
            c.currency !== null && c.sum !== null ? [{ currency: c.currency, amount: Number(c.sum) }] : [],
          )
        : [];
    // An option dropped from the picklist adds its deals to "no stage".
    const before = totals.get(stage) ?? noTotals;
    totals.set(stage, { count: before.count + group.count, amounts: addAmounts(before.amounts, amounts) });
  }
  return totals;
}

function addAmounts(a: readonly Money[], b: readonly Money[]): Money[] {
  const sums = new Map(a.map((m) => [m.currency, m.amount]));
  for (const m of b) sums.set(m.currency, (sums.get(m.currency) ?? 0) + m.amount);
  return [...sums].map(([currency, amount]) => ({ currency, amount }));
}

/** The stage before or after `stage` among the columns, or undefined at either end. */
export function neighbourStage(stages: readonly Stage[], stage: Stage, step: -1 | 1): Stage | undefined {
  const index = stages.indexOf(stage);
  if (index < 0) return undefined;
  const next = index + step;
  return next >= 0 && next < stages.length ? stages[next] : undefined;
}

/**
 * A card moved on this screen: shown in its new column, first, while the
 * move is saved (`saving`), and after, until the server's rows show it there
 * with at least the version the move produced (a reader of the column's
 * pages may not have read that far: it then stays first in its new column).
 */
export interface Moved {
  card: Card;
  saving: boolean;
}

/** The version a card shows, whichever column it is in. */
function serverVersions(columns: ReadonlyMap<Stage, readonly Card[]>): Map<number, number> {
  const versions = new Map<number, number>();
  for (const cards of columns.values()) for (const card of cards) versions.set(card.id, card.version);
  return versions;
}

/** The moves the server's rows have caught up with (they show the moved version or a later one). */
export function settledMoves(
  columns: ReadonlyMap<Stage, readonly Card[]>,
  moved: ReadonlyMap<number, Moved>,
): number[] {
  const versions = serverVersions(columns);
  return [...moved]
    .filter(([id, move]) => !move.saving && (versions.get(id) ?? Number.NEGATIVE_INFINITY) >= move.card.version)
    .map(([id]) => id);
}

/**
 * The cards of each column as shown: the server's, without the cards moved
 * here and not yet settled, which come first in their new column.
 */
export function arrangeColumns(
  stages: readonly Stage[],
  columns: ReadonlyMap<Stage, readonly Card[]>,
  moved: ReadonlyMap<number, Moved>,
): Map<Stage, Card[]> {
  const settled = new Set(settledMoves(columns, moved));
  const pinned = [...moved].filter(([id]) => !settled.has(id)).map(([, move]) => move.card);
  const pinnedIds = new Set(pinned.map((card) => card.id));
  return new Map(
    stages.map((stage) => [
      stage,
      [
        ...pinned.filter((card) => card.stage === stage),
        ...(columns.get(stage) ?? []).filter((card) => !pinnedIds.has(card.id)),
      ],
    ]),
  );
}

/** Whether a move changes anything: a card dropped back on its own column is not saved. */
export function isMove(card: Card, to: Stage): boolean {
  return card.stage !== to;
}

/** The address parts a view carries between the list and the board (not the list's columns, preview or dialogs). */
const viewKeys = (key: string) => key === 'q' || key === 'sort' || key === 'filters' || key.startsWith('filter[');

/**
 * The board's address from the list's: `/deals?q=x` → `/deals/board?q=x`,
 * a saved view `/deals/views/hot?...` → `/deals/board?view=hot&...`.
 */
export function boardHref(rootPath: string, listPath: string, search: URLSearchParams): string {
  const params = new URLSearchParams();
  const prefix = `${rootPath}/views/`;
  if (listPath.startsWith(prefix)) params.set('view', listPath.slice(prefix.length));
  for (const [key, value] of search) if (viewKeys(key)) params.append(key, value);
  const query = params.toString();
  return `${rootPath}/board${query ? `?${query}` : ''}`;
}

/** The list's address from the board's: the saved view's own path when one is open. */
export function listHref(rootPath: string, search: URLSearchParams): string {
  const slug = search.get('view');
  const view = slug !== null && isViewSlug(slug) ? slug : null;
  const params = new URLSearchParams();
  for (const [key, value] of search) if (viewKeys(key)) params.append(key, value);
  const query = params.toString();
  return `${view ? `${rootPath}/views/${view}` : rootPath}${query ? `?${query}` : ''}`;
}
