import {
  createColumnHelper,
  type Row as GridRowModel,
  type RowSelectionState,
  rowSelectionFeature,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from '../store/resource-slices.ts';
import { CellValue } from './cell-value.tsx';
import type { Column } from './columns.ts';
import classes from './list-grid.module.css';
import { sortKeys } from './list-state.ts';

const features = tableFeatures({ rowSortingFeature, rowSelectionFeature });
const helper = createColumnHelper<typeof features, Row>();

const getRowId = (row: Row) => String(row.id);
const noSelection: RowSelectionState = {};

export const ROW_HEIGHT = 40;
const SELECT_WIDTH = 44;
const ACTIONS_WIDTH = 120;
/** Rows from the end at which the next page is asked for. */
const LOAD_AHEAD = 20;

/** A column's width by its field type: dates and numbers are narrow, names wide. */
function widthOf(column: Column): number {
  switch (column.field.type) {
    case 'boolean':
    case 'year':
    case 'percent':
    case 'currency':
      return 110;
    case 'integer':
    case 'decimal':
    case 'date':
      return 140;
    case 'money':
    case 'amount':
    case 'datetime':
    case 'select':
      return 170;
    case 'longText':
    case 'url':
    case 'email':
      return 240;
    default:
      return column.name === 'name' ? 260 : 200;
  }
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
}

/**
 * The list's grid: TanStack Table for the model (columns, sort and selection
 * state), TanStack Virtual so that only the rows in view are in the page,
 * however many are loaded.
 */
export function ListGrid(props: ListGridProps) {
  const { rows, columns, label, sort, onSort, selection, onSelectionChange, actions, total, busy } = props;
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);

  const columnDefs = useMemo(
    () =>
      columns.map((column) =>
        helper.display({
          id: column.name,
          header: () => label(column),
          cell: ({ row }) => <CellValue row={row.original} column={column} />,
          enableSorting: Boolean(column.field.sortable) && !column.reference,
        }),
      ),
    [columns, label],
  );
  const sorting: SortingState = useMemo(() => sortKeys(sort).map(({ field, desc }) => ({ id: field, desc })), [sort]);

  // Options kept stable between renders: a new one would have the table rebuild its model of every loaded row.
  const state = useMemo(() => ({ sorting, rowSelection: selection ?? noSelection }), [sorting, selection]);
  const onRowSelectionChange = useCallback(
    (updater: RowSelectionState | ((old: RowSelectionState) => RowSelectionState)) =>
      onSelectionChange(typeof updater === 'function' ? updater(selection ?? noSelection) : updater),
    [onSelectionChange, selection],
  );
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows,
    getRowId,
    state,
    manualSorting: true,
    enableRowSelection: selection !== null,
    onRowSelectionChange,
  });

  const modelRows = table.getRowModel().rows;
  const virtualizer = useVirtualizer({
    count: modelRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  const { onEndReached } = props;
  useEffect(() => {
    if (modelRows.length > 0 && last >= modelRows.length - LOAD_AHEAD) onEndReached();
  }, [last, modelRows.length, onEndReached]);

  const widths = useMemo(() => columns.map(widthOf), [columns]);
  const width = widths.reduce((sum, w) => sum + w, 0) + (selection ? SELECT_WIDTH : 0) + (actions ? ACTIONS_WIDTH : 0);
  const allSelected = table.getIsAllRowsSelected();
  const someSelected = table.getIsSomeRowsSelected();

  return (
    <div ref={scrollRef} className={classes.scroller} data-testid="list-grid">
      <table
        className={classes.table}
        style={{ width }}
        aria-rowcount={total === null ? -1 : total + 1}
        aria-busy={busy}
      >
        <caption className={classes.caption}>{props.caption}</caption>
        <thead className={classes.head}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className={classes.row} aria-rowindex={1}>
              {selection ? (
                <th scope="col" className={classes.cell} style={{ width: SELECT_WIDTH }}>
                  <input
                    type="checkbox"
                    aria-label={t('list.selectAll')}
                    checked={allSelected}
                    ref={(input) => {
                      if (input) input.indeterminate = someSelected && !allSelected;
                    }}
                    onChange={(event) => table.toggleAllRowsSelected(event.currentTarget.checked)}
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
                    style={{ width: widths[index] }}
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
                <th scope="col" className={classes.cell} style={{ width: ACTIONS_WIDTH }}>
                  <span className={classes.visuallyHidden}>{t('list.actions')}</span>
                </th>
              ) : null}
            </tr>
          ))}
        </thead>
        <tbody className={classes.body} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = modelRows[item.index] as GridRowModel<typeof features, Row>;
            return (
              <GridRow
                key={row.id}
                row={row}
                index={item.index}
                start={item.start}
                widths={widths}
                selected={selection ? Boolean(selection[row.id]) : null}
                actions={actions}
                rowName={props.rowName}
                columnDefs={columnDefs}
              />
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

interface GridRowProps {
  row: GridRowModel<typeof features, Row>;
  index: number;
  start: number;
  widths: number[];
  selected: boolean | null;
  actions: ((row: Row) => ReactNode) | null;
  rowName: (row: Row) => string;
  /** Only to render again when the columns change. */
  columnDefs: unknown;
}

/** One row; rendered again only when its data, place, selection or the columns change. */
const GridRow = memo(function GridRow({ row, index, start, widths, selected, actions, rowName }: GridRowProps) {
  const { t } = useTranslation();
  return (
    <tr
      className={classes.row}
      data-selected={selected || undefined}
      aria-rowindex={index + 2}
      style={{ transform: `translateY(${start}px)` }}
    >
      {selected !== null ? (
        <td className={classes.cell} style={{ width: SELECT_WIDTH }}>
          <input
            type="checkbox"
            aria-label={t('list.selectRow', { name: rowName(row.original) })}
            checked={selected}
            onChange={(event) => row.toggleSelected(event.currentTarget.checked)}
          />
        </td>
      ) : null}
      {row.getAllCells().map((cell, i) => (
        <td key={cell.id} className={classes.cell} style={{ width: widths[i] }}>
          <div className={classes.value}>
            <CellRender cell={cell} />
          </div>
        </td>
      ))}
      {actions ? (
        <td className={classes.cell} style={{ width: ACTIONS_WIDTH }}>
          {actions(row.original)}
        </td>
      ) : null}
    </tr>
  );
});

type GridCell = ReturnType<GridRowModel<typeof features, Row>['getAllCells']>[number];

function CellRender({ cell }: { cell: GridCell }) {
  const render = cell.column.columnDef.cell;
  return typeof render === 'function' ? <>{render(cell.getContext())}</> : null;
}
