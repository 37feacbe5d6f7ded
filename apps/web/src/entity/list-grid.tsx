import { findEntity } from '@data-platform/shared/entities/registry';
import { fieldTypeModule, isSortable } from '@data-platform/shared/fields/field-types';
import {
  createColumnHelper,
  type RowSelectionState,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type MouseEvent,
  memo,
  type ReactNode,
  type RefObject,
  type SyntheticEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { type Formatters, useFormat } from '../i18n/format.ts';
import { stripLanguage } from '../i18n/languages.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { Row } from '../store/resource-slices.ts';
import { type CellT, cellContent } from './cell-value.tsx';
import type { Column } from './columns.ts';
import classes from './list-grid.module.css';
import { sortKeys } from './list-state.ts';
import { recordPath } from './record-routes.ts';
import { resourceRoutes } from './resource-routes.ts';

const features = tableFeatures({ rowSortingFeature });
const helper = createColumnHelper<typeof features, Row>();
/** The table models the columns and their sort; the rows are drawn from the loaded data itself. */
const noRows: Row[] = [];

export const ROW_HEIGHT = 40;
const SELECT_WIDTH = 44;
const ACTIONS_WIDTH = 120;
/** Rows from the end at which the next page is asked for. */
const LOAD_AHEAD = 20;
/**
 * Rows rendered beyond each edge of the view. Few: a jump of a whole view renders them all anew, and 12 a side
 * took such frames from 17 to 27 ms (grid benchmark at 2,000 px a frame).
 */
const OVERSCAN = 4;

/** Width of the column of the entity's display field (its name): the widest of text. */
const DISPLAY_WIDTH = 260;
const DISPLAY_MIN_WIDTH = 200;
const MIN_WIDTH = 96;

/** A column's width: the display field's wide, others as their type's widget says (dates narrow, links wide). */
function widthOf(column: Column, display: string | undefined): number {
  if (column.name === display && !column.reference) return DISPLAY_WIDTH;
  return fieldTypeModule(column.field.type).widget.width;
}

/**
 * A column's narrowest width: the columns share the grid's width in the
 * proportions of their widths, down to these, so that a list's default
 * columns and its row actions fit a 1440 px screen; narrower, the grid
 * scrolls sideways with the row actions kept at its right edge.
 */
function minWidthOf(column: Column, display: string | undefined): number {
  if (column.name === display && !column.reference) return DISPLAY_MIN_WIDTH;
  return Math.max(MIN_WIDTH, Math.round(widthOf(column, display) * 0.6));
}

/** The list screen a path is in (`/companies`, `/companies/views/biggest`, `/fr/companies`): its resource. */
function resourceAt(pathname: string): string | undefined {
  const path = stripLanguage(pathname);
  return resourceRoutes.find((route) => path === route.path || path.startsWith(`${route.path}/views/`))?.resource;
}

/** Where a row's name leads: its show page, in the interface's language. */
function useRecordHref(resource: string | undefined): ((row: Row) => string | undefined) | null {
  const localized = useLocalizedPath();
  return useMemo(() => {
    if (!resource || !recordPath(resource, 0, 'show')) return null;
    return (row: Row) => {
      const path = recordPath(resource, row.id, 'show');
      return path ? localized(path) : undefined;
    };
  }, [resource, localized]);
}

export interface ListGridProps {
  rows: Row[];
  columns: Column[];
  /** Label of each column's header. */
  label: (column: Column) => string;
  sort: string;
  onSort: (field: string, add: boolean) => void;
  /** Null when the user may not act on several rows: no selection column then. */
  selection: RowSelectionState | null;
  onSelectionChange: (selection: RowSelectionState) => void;
  /** The actions of a row (show, edit, delete), or null for none. */
  actions: ((row: Row) => ReactNode) | null;
  /** How many rows the list has in all (for assistive technology), when known. */
  total: number | null;
  /** Asked for when the user nears the last loaded row. */
  onEndReached: () => void;
  /** A name for the row in its checkbox label. */
  rowName: (row: Row) => string;
  busy: boolean;
  caption: string;
  /** The entity's display field (its name): its column is drawn widest, each of its cells a link to the record. */
  display?: string;
  /** The resource listed; by default the one of the list screen the grid is on. */
  resource?: string;
}

/**
 * The list's grid: TanStack Table for the columns and their sort, TanStack
 * Virtual so that only the rows in view are in the page, however many are
 * loaded. The rows are not given to the table: its model of a row is five
 * objects, 500,000 for 100,000 loaded rows, that every garbage collection
 * must walk while the grid scrolls, for nothing the grid needs.
 */
export function ListGrid(props: ListGridProps) {
  const { rows, columns, label, sort, onSort, selection, onSelectionChange, actions, total, busy } = props;
  const { t } = useTranslation(['common', 'options']);
  const format = useFormat();
  const scrollRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const resource = props.resource ?? resourceAt(pathname);
  const display = props.display ?? (resource ? findEntity(resource)?.display : undefined);
  const recordHref = useRecordHref(resource);
  const navigate = useNavigate();
  /** A plain click on a name opens the record in the app; a middle or modified click is the browser's. */
  const follow = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      void navigate(event.currentTarget.getAttribute('href') ?? '/');
    },
    [navigate],
  );

  const columnDefs = useMemo(
    () =>
      columns.map((column) =>
        helper.display({
          id: column.name,
          header: () => label(column),
          enableSorting: isSortable(column.field),
        }),
      ),
    [columns, label],
  );
  const sorting: SortingState = useMemo(() => sortKeys(sort).map(({ field, desc }) => ({ id: field, desc })), [sort]);
  const state = useMemo(() => ({ sorting }), [sorting]);
  const table = useTable({ features, columns: columnDefs, data: noRows, state, manualSorting: true });

  const selecting = selection !== null;
  const acting = actions !== null;
  const tableStyle = useMemo(() => {
    const fixed = [...(selecting ? [SELECT_WIDTH] : []), ...(acting ? [ACTIONS_WIDTH] : [])];
    const minimum =
      fixed.reduce((sum, w) => sum + w, 0) + columns.reduce((sum, column) => sum + minWidthOf(column, display), 0);
    const tracks = [
      ...(selecting ? [`${SELECT_WIDTH}px`] : []),
      ...columns.map((column) => `minmax(${minWidthOf(column, display)}px, ${widthOf(column, display)}fr)`),
      ...(acting ? [`${ACTIONS_WIDTH}px`] : []),
    ];
    // The columns' widths are set once, on the table, for every row's grid: a width on each cell, like any
    // style attribute, would keep Chromium from sharing one computed style between the cells of a column.
    return { width: `max(100%, ${minimum}px)`, '--grid-columns': tracks.join(' ') } as CSSProperties;
  }, [columns, display, selecting, acting]);
  const someSelected = selection !== null && Object.values(selection).some(Boolean);
  const allSelected = useMemo(
    () => someSelected && rows.length > 0 && rows.every((row) => selection?.[row.id]),
    [someSelected, rows, selection],
  );
  const selectAll = (value: boolean) => {
    const next = { ...selection };
    for (const row of rows) {
      if (value) next[row.id] = true;
      else delete next[row.id];
    }
    onSelectionChange(next);
  };
  const selectRow = useCallback(
    (row: Row, value: boolean) => {
      const next = { ...selection };
      if (value) next[row.id] = true;
      else delete next[row.id];
      onSelectionChange(next);
    },
    [selection, onSelectionChange],
  );

  return (
    <div ref={scrollRef} className={classes.scroller} data-testid="list-grid">
      <table
        className={classes.table}
        style={tableStyle}
        aria-rowcount={total === null ? -1 : total + 1}
        aria-busy={busy}
      >
        <caption className={classes.caption}>{props.caption}</caption>
        <thead className={classes.head}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className={classes.row} aria-rowindex={1}>
              {selection ? (
                <th scope="col" className={classes.cell}>
                  <input
                    type="checkbox"
                    aria-label={t('list.selectAll')}
                    checked={allSelected}
                    ref={(input) => {
                      if (input) input.indeterminate = someSelected && !allSelected;
                    }}
                    onChange={(event) => selectAll(event.currentTarget.checked)}
                  />
                </th>
              ) : null}
              {group.headers.map((header, index) => {
                const column = columns[index] as Column;
                const sorted = header.column.getIsSorted();
                const sortIndex = header.column.getSortIndex();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={classes.cell}
                    aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  >
                    {header.column.columnDef.enableSorting ? (
                      <button
                        type="button"
                        className={classes.sortButton}
                        title={t('list.sortHint')}
                        onClick={(event) => onSort(column.name, event.shiftKey)}
                      >
                        <table.FlexRender header={header} />
                        <span aria-hidden className={classes.sortMark}>
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                          {sorted && sorting.length > 1 ? sortIndex + 1 : ''}
                        </span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
              {actions ? (
                <th scope="col" className={`${classes.cell} ${classes.end}`}>
                  <span className={classes.visuallyHidden}>{t('list.actions')}</span>
                </th>
              ) : null}
            </tr>
          ))}
        </thead>
        <GridBody
          scrollRef={scrollRef}
          rows={rows}
          columns={columns}
          selection={selection}
          onSelect={selectRow}
          actions={actions}
          rowName={props.rowName}
          display={display}
          recordHref={recordHref}
          follow={follow}
          t={t}
          format={format}
          onEndReached={props.onEndReached}
        />
      </table>
    </div>
  );
}

interface GridBodyProps {
  scrollRef: RefObject<HTMLDivElement | null>;
  rows: Row[];
  columns: Column[];
  selection: RowSelectionState | null;
  onSelect: (row: Row, value: boolean) => void;
  actions: ((row: Row) => ReactNode) | null;
  rowName: (row: Row) => string;
  /** The display field, whose cells link to their record when `recordHref` says where. */
  display: string | undefined;
  recordHref: ((row: Row) => string | undefined) | null;
  follow: (event: MouseEvent<HTMLAnchorElement>) => void;
  t: CellT;
  format: Formatters;
  onEndReached: () => void;
}

/**
 * The rows in view, and a few either side. Its own component so that
 * scrolling renders it alone, not the table and its header.
 */
const GridBody = memo(function GridBody({ scrollRef, rows, selection, onEndReached, ...shared }: GridBodyProps) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (rows.length > 0 && last >= rows.length - LOAD_AHEAD) onEndReached();
  }, [last, rows.length, onEndReached]);

  return (
    // The rows flow down from the first one's place (a padding above it) rather than each being moved by a
    // transform of its own: without a style attribute, rows share computed styles, and a frame's style work is a
    // third of what it was (grid benchmark).
    <tbody
      className={classes.body}
      style={{ height: virtualizer.getTotalSize(), paddingTop: items[0]?.start ?? 0 }}
      onMouseOver={showClippedText}
      onFocus={showClippedText}
    >
      {items.map((item) => {
        const row = rows[item.index] as Row;
        return (
          <GridRow
            key={row.id}
            row={row}
            index={item.index}
            selected={selection ? Boolean(selection[row.id]) : null}
            {...shared}
          />
        );
      })}
    </tbody>
  );
});

/**
 * A value cut short by its column shows in full as the cell's tooltip: set
 * when the pointer or the focus reaches it, rather than on every cell drawn.
 */
function showClippedText(event: SyntheticEvent<HTMLElement>) {
  const value = (event.target as HTMLElement).closest?.(`.${classes.value}`);
  if (!(value instanceof HTMLElement)) return;
  if (value.scrollWidth > value.clientWidth) value.title = value.textContent ?? '';
  else value.removeAttribute('title');
}

interface GridRowProps extends Omit<GridBodyProps, 'scrollRef' | 'rows' | 'selection' | 'onEndReached'> {
  row: Row;
  index: number;
  /** Null without a selection column. */
  selected: boolean | null;
}

/** One row; rendered again only when its data, place or selection, the columns or the language change. */
const GridRow = memo(function GridRow({
  row,
  index,
  columns,
  selected,
  onSelect,
  actions,
  rowName,
  display,
  recordHref,
  follow,
  t,
  format,
}: GridRowProps) {
  const href = recordHref?.(row);
  return (
    <tr className={classes.row} data-selected={selected || undefined} aria-rowindex={index + 2}>
      {selected !== null ? (
        <td className={classes.cell}>
          <input
            type="checkbox"
            aria-label={t('list.selectRow', { name: rowName(row) })}
            checked={selected}
            onChange={(event) => onSelect(row, event.currentTarget.checked)}
          />
        </td>
      ) : null}
      {columns.map((column) =>
        href && column.name === display && !column.reference ? (
          <td key={column.name} className={classes.cell}>
            <a href={href} className={`${classes.value} ${classes.name}`} onClick={follow}>
              {cellContent(row, column, t, format) || rowName(row)}
            </a>
          </td>
        ) : (
          <td key={column.name} className={classes.cell}>
            <div className={classes.value}>{cellContent(row, column, t, format)}</div>
          </td>
        ),
      )}
      {actions ? <td className={`${classes.cell} ${classes.end}`}>{actions(row)}</td> : null}
    </tr>
  );
});
