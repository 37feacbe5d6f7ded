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
  type KeyboardEvent,
  lazy,
  type MouseEvent,
  memo,
  type ReactNode,
  type RefObject,
  Suspense,
  type SyntheticEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { type Formatters, useFormat } from '../i18n/format.ts';
import { stripLanguage } from '../i18n/languages.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { Row } from '../store/resource-slices.ts';
import { type CellT, cellContent, type LocalName } from './cell-value.tsx';
import type { Column } from './columns.ts';
import { type CellPosition, movedCell } from './grid-keyboard.ts';
import { rememberingT } from './grid-text.ts';
import classes from './list-grid.module.css';
import { sortKeys } from './list-state.ts';
import { localizesNames, useLocalizedNames } from './localized-names.tsx';
import { recordPath } from './record-routes.ts';
import { resourceRoutes } from './resource-routes.ts';

// The editor of a cell, its form and field widgets are fetched when a cell is first edited.
const CellEditor = lazy(async () => ({ default: (await import('./cell-editor.tsx')).CellEditor }));

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
  /** The id of the row the preview panel shows, if any: that row is marked. */
  previewId?: number | null;
  /**
   * Opens the preview of a row (a click on it, Enter on it) or closes it
   * (null: Escape). Without it, Enter opens the record's page.
   */
  onPreview?: (row: Row | null) => void;
  /** The columns whose cells the user may edit in place (double click, Enter or F2 on the cell). */
  editable?: ReadonlySet<string> | null;
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
  const { t: translate } = useTranslation(['common', 'options']);
  const t = useMemo(() => rememberingT(translate), [translate]);
  const format = useFormat();
  // Countries named in the interface's language once for the grid, not by a component (store and language hooks)
  // in each country cell of each row drawn.
  const localized = useMemo(() => columns.find((column) => localizesNames(column.field.to))?.field.to, [columns]);
  const localName = useLocalizedNames(localized).name;
  const scrollRef = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const resource = props.resource ?? resourceAt(pathname);
  const display = props.display ?? (resource ? findEntity(resource)?.display : undefined);
  const recordHref = useRecordHref(resource);
  const navigate = useNavigate();
  const { onPreview } = props;
  /** Enter on a row: its preview, or its page where the list has no preview. */
  const open = useCallback(
    (row: Row) => {
      if (onPreview) onPreview(row);
      else {
        const href = recordHref?.(row);
        if (href) void navigate(href);
      }
    },
    [onPreview, recordHref, navigate],
  );
  /** A row's link (its name, its actions) followed in the app. */
  const follow = useCallback((href: string) => void navigate(href), [navigate]);

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

  // Whether the columns are wider than the grid: only then are the row actions held at its right edge (sticky).
  // A sticky cell is a layer of its own in every row drawn, work each frame for nothing while all columns fit.
  const [wide, setWide] = useState(false);
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    const table = scroller?.firstElementChild;
    if (!scroller || !table) return;
    const measure = () => setWide(scroller.scrollWidth > scroller.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    observer.observe(table);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={scrollRef} className={classes.scroller} data-testid="list-grid" data-wide={wide || undefined}>
      <table
        // The grid pattern (ARIA): one tab stop, arrows between the cells; its table keeps the rows' and cells' roles.
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table is the grid role's own element.
        role="grid"
        className={classes.table}
        style={tableStyle}
        aria-label={props.caption}
        aria-rowcount={total === null ? -1 : total + 1}
        aria-busy={busy}
      >
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
          localName={localName}
          onEndReached={props.onEndReached}
          resource={resource}
          previewId={props.previewId ?? null}
          onPreview={onPreview}
          onOpen={open}
          editable={props.editable ?? null}
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
  /** Opens an address of the app: where a plain click on a row's link (its name, an action) leads. */
  follow: (href: string) => void;
  t: CellT;
  format: Formatters;
  localName: LocalName;
  onEndReached: () => void;
  resource: string | undefined;
  previewId: number | null;
  onPreview: ((row: Row | null) => void) | undefined;
  onOpen: (row: Row) => void;
  editable: ReadonlySet<string> | null;
}

/**
 * The rows in view, and a few either side. Its own component so that
 * scrolling renders it alone, not the table and its header.
 */
const GridBody = memo(function GridBody({
  scrollRef,
  rows,
  selection,
  onEndReached,
  resource,
  previewId,
  onPreview,
  onOpen,
  editable,
  follow,
  ...shared
}: GridBodyProps) {
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    // The sticky header covers the first row's height: a row brought into view by the keys is placed below it.
    scrollPaddingStart: ROW_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (rows.length > 0 && last >= rows.length - LOAD_AHEAD) onEndReached();
  }, [last, rows.length, onEndReached]);

  const { columns, display, rowName } = shared;
  const body = useRef<HTMLTableSectionElement>(null);
  /** The cells before the columns' (the checkbox) and how many a row has. */
  const before = selection !== null ? 1 : 0;
  const cellCount = before + columns.length + (shared.actions ? 1 : 0);
  // The cell that is the grid's tab stop, and whether it is to take the focus once drawn (moved by the keys).
  const [active, setActive] = useState<CellPosition>({ row: 0, col: before });
  const activeRef = useRef(active);
  activeRef.current = active;
  const wantFocus = useRef(false);
  const [editing, setEditing] = useState<{ id: number; column: string } | null>(null);
  const activeRow = Math.min(active.row, rows.length - 1);

  // The active cell takes the focus once its row is drawn: at once when in view, after the scroll when not.
  useLayoutEffect(() => {
    if (!wantFocus.current) return;
    const cell = body.current?.querySelector<HTMLElement>(
      `tr[aria-rowindex="${activeRow + 2}"] > :nth-child(${active.col + 1})`,
    );
    if (!cell) return;
    wantFocus.current = false;
    if (!cell.contains(document.activeElement)) cell.focus();
  });

  // The preview closed (Escape in it, its close button): the focus goes back to its row.
  const previewed = useRef(previewId);
  useEffect(() => {
    const was = previewed.current;
    previewed.current = previewId;
    if (was === null || previewId !== null) return;
    const inGrid = body.current?.contains(document.activeElement);
    if (inGrid) return;
    wantFocus.current = true;
    setActive((current) => ({ ...current }));
  }, [previewId]);

  const moveTo = useCallback(
    (next: CellPosition) => {
      wantFocus.current = true;
      setActive({ ...next });
      virtualizer.scrollToIndex(next.row);
    },
    [virtualizer],
  );
  const columnAt = (col: number): Column | undefined => columns[col - before];
  const startEdit = (at: CellPosition): boolean => {
    const row = rows[at.row];
    const column = columnAt(at.col);
    if (!row || !column || !editable?.has(column.name)) return false;
    setActive({ ...at });
    setEditing({ id: row.id, column: column.name });
    return true;
  };
  const closeEditor = useCallback(() => {
    wantFocus.current = true;
    setEditing(null);
    setActive((current) => ({ ...current }));
  }, []);
  const editor = useCallback(
    (row: Row, column: Column) =>
      resource ? (
        <Suspense fallback={null}>
          <CellEditor resource={resource} row={row} column={column} rowName={rowName} onClose={closeEditor} />
        </Suspense>
      ) : null,
    [resource, rowName, closeEditor],
  );

  /** The body cell an event happened in, and where it is; none in the cell editor or outside the rows (a portal). */
  const cellOf = (target: EventTarget | null): { cell: HTMLTableCellElement; at: CellPosition } | null => {
    if (!(target instanceof Element) || !body.current?.contains(target) || target.closest('[data-cell-editor]'))
      return null;
    const cell = target.closest('td');
    const row = cell?.parentElement;
    if (!cell || !row) return null;
    return { cell, at: { row: Number(row.getAttribute('aria-rowindex')) - 2, col: cell.cellIndex } };
  };
  const interactive = (target: EventTarget | null) =>
    target instanceof Element && target.closest('a, button, input, label, select, textarea') !== null;

  // One handler of each kind for the whole body, not one per cell: a row drawn costs no more for them.
  const onClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const found = cellOf(event.target);
    if (!found) return;
    const { at } = found;
    if (interactive(event.target)) {
      setActive({ ...at });
      // A plain click on a link of a row (its name, an action) opens it in the app; a middle or modified click is
      // the browser's (a new tab). Followed here, not by a handler and a router hook on each link of each row.
      const link = (event.target as Element).closest('a[href]');
      if (!link || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      follow(link.getAttribute('href') ?? '/');
      return;
    }
    wantFocus.current = true;
    setActive({ ...at });
    // A click on a value opens its row's preview; not one that ends selecting text, nor on the checkbox or actions.
    const row = rows[at.row];
    if (!onPreview || !row || !columnAt(at.col) || String(window.getSelection() ?? '') !== '') return;
    onPreview(row);
  };
  const onDoubleClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const found = cellOf(event.target);
    if (found && !interactive(event.target)) startEdit(found.at);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const found = cellOf(event.target);
    if (!found) return;
    const { at, cell } = found;
    if (event.key === 'Escape' && previewId !== null && onPreview) {
      event.preventDefault();
      onPreview(null);
      return;
    }
    // Keys in a link or a checkbox of a cell are theirs.
    if (event.target !== cell || event.altKey) return;
    const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const moved = movedCell(event.key, event.ctrlKey || event.metaKey, at, {
      rows: rows.length,
      cols: cellCount,
      pageRows,
    });
    if (moved) {
      event.preventDefault();
      moveTo(moved);
      // An open preview follows the row the user moves to.
      const next = rows[moved.row];
      if (onPreview && previewId !== null && next && next.id !== previewId) onPreview(next);
      return;
    }
    const row = rows[at.row];
    if (!row) return;
    if (event.key === 'F2') {
      event.preventDefault();
      startEdit(at);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      // Enter edits a value in place; on the name, or a value not to be edited, it opens the row.
      const column = columnAt(at.col);
      if (!(column && column.name !== display && startEdit(at))) onOpen(row);
    }
  };
  const onFocus = (event: SyntheticEvent<HTMLTableSectionElement>) => {
    showClippedText(event);
    const found = cellOf(event.target);
    if (!found || event.target !== found.cell) return;
    const current = activeRef.current;
    if (current.row !== found.at.row || current.col !== found.at.col) setActive(found.at);
  };

  return (
    // The rows flow down from the first one's place (a padding above it) rather than each being moved by a
    // transform of its own: without a style attribute, rows share computed styles, and a frame's style work is a
    // third of what it was (grid benchmark).
    <tbody
      ref={body}
      className={classes.body}
      style={{ height: virtualizer.getTotalSize(), paddingTop: items[0]?.start ?? 0 }}
      onMouseOver={showClippedText}
      onFocus={onFocus}
      onClick={onClick}
      onDoubleClick={onDoubleClick}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => {
        const row = rows[item.index] as Row;
        return (
          <GridRow
            key={row.id}
            row={row}
            index={item.index}
            selected={selection ? Boolean(selection[row.id]) : null}
            activeCell={item.index === activeRow ? active.col : null}
            editing={editing?.id === row.id ? editing.column : null}
            editor={editor}
            previewed={row.id === previewId}
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

type RowShared = Omit<
  GridBodyProps,
  | 'scrollRef'
  | 'rows'
  | 'selection'
  | 'onEndReached'
  | 'resource'
  | 'previewId'
  | 'onPreview'
  | 'onOpen'
  | 'editable'
  | 'follow'
>;

interface GridRowProps extends RowShared {
  row: Row;
  index: number;
  /** Null without a selection column. */
  selected: boolean | null;
  /** The index of the row's cell that takes the focus (the grid's one tab stop), on the active row only. */
  activeCell: number | null;
  /** The column whose cell is being edited, on that row only. */
  editing: string | null;
  /** The editor drawn in the cell being edited. */
  editor: (row: Row, column: Column) => ReactNode;
  previewed: boolean;
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
  t,
  format,
  localName,
  activeCell,
  editing,
  editor,
  previewed,
}: GridRowProps) {
  const href = recordHref?.(row);
  const before = selected !== null ? 1 : 0;
  // The grid's one tab stop; the other cells take the focus from the keys (grid-keyboard.ts), not from Tab.
  const stop = (cell: number) => (cell === activeCell ? 0 : undefined);
  return (
    <tr
      className={classes.row}
      data-selected={selected || undefined}
      data-previewed={previewed || undefined}
      aria-rowindex={index + 2}
    >
      {selected !== null ? (
        <td className={classes.cell} tabIndex={stop(0)}>
          <input
            type="checkbox"
            aria-label={t('list.selectRow', { name: rowName(row) })}
            checked={selected}
            onChange={(event) => onSelect(row, event.currentTarget.checked)}
          />
        </td>
      ) : null}
      {columns.map((column, i) =>
        column.name === editing ? (
          <td key={column.name} className={classes.cell} data-editing tabIndex={stop(before + i)}>
            <div className={classes.value}>{cellContent(row, column, t, format, localName)}</div>
            {editor(row, column)}
          </td>
        ) : href && column.name === display && !column.reference ? (
          <td key={column.name} className={classes.cell} tabIndex={stop(before + i)}>
            <a href={href} className={`${classes.value} ${classes.name}`}>
              {cellContent(row, column, t, format, localName) || rowName(row)}
            </a>
          </td>
        ) : (
          <td key={column.name} className={classes.cell} tabIndex={stop(before + i)}>
            <div className={classes.value}>{cellContent(row, column, t, format, localName)}</div>
          </td>
        ),
      )}
      {actions ? (
        <td className={`${classes.cell} ${classes.end}`} tabIndex={stop(before + columns.length)}>
          {actions(row)}
        </td>
      ) : null}
    </tr>
  );
});
