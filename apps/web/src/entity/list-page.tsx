import { allFields } from '@data-platform/shared/entities/entity';
import { recordName, recordNameJoins } from '@data-platform/shared/entities/record-name';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { RowSelectionState } from '@tanstack/react-table';
import { lazy, type ReactNode, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useFormat } from '../i18n/format.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useAppSelector } from '../store/hooks.ts';
import type { BulkRow } from '../store/resource-api.ts';
import type { ResourceArea, Row } from '../store/resource-slices.ts';
import { can, canExport, canImport, genericallyOffered } from './access.ts';
import { BulkActions, BulkFailures, useBulkReport } from './bulk-actions.tsx';
import { useFieldLabel } from './cell-value.tsx';
import { type Column, columnsOf, listParams } from './columns.ts';
import { useEntity } from './custom-fields.ts';
import { useListShortcuts } from './grid-keyboard.ts';
import { useListData } from './list-data.ts';
import { ListGrid } from './list-grid.tsx';
import { knownFieldsView, nextSort } from './list-state.ts';
import { ListToolbar } from './list-toolbar.tsx';
import { ListTotals } from './list-totals.tsx';
import classes from './record-preview.module.css';
import { editsInModal, recordPath } from './record-routes.ts';
import { formFields } from './record-values.ts';
import { RowActionButton, RowActionLink, RowActions } from './row-action.tsx';
import { useListView } from './use-list-view.ts';
import { ViewStatusScreen } from './view-not-found.tsx';

// The preview panel (the show page's parts, notes) is fetched when a row is first previewed.
const RecordPreview = lazy(async () => ({ default: (await import('./record-preview.tsx')).RecordPreview }));

const PAGE_SIZE = 100;
/**
 * The total the toolbar shows: "N records" counted while the planner expects
 * few, "about N records" from its estimate above, never a count of a big list.
 * Asked on the first page only: pages by cursor carry no count.
 */
const COUNT: [string, string] = ['count', 'estimated'];
const noSelection: RowSelectionState = {};
const noRows: BulkRow[] = [];

/** What a screen built on the list adds to it (the users list: invitations, access requests, Manage roles). */
export interface ListPageProps {
  resource: ResourceArea;
  rootPath: string;
  /** The Create button's text, where creating is named otherwise ("Send invitation"). */
  createLabel?: string;
  /** More buttons in the header, after Create. */
  toolbar?: ReactNode;
  /** Shown above the search and filters. */
  header?: ReactNode;
  /** More actions of a row, before delete. */
  rowActions?: (row: Row) => ReactNode;
  /** Whether a row offers Delete, where the role's right is not enough (nobody deletes their own user). */
  mayDeleteRow?: (row: Row) => boolean;
}

/**
 * The list screen of any resource: a virtualized grid of the records with
 * server-side sort, filters by field type, search, Load More... by cursor,
 * chosen columns, saved views, and row and bulk actions the role allows.
 */
export function ListPage(props: ListPageProps) {
  const { t } = useTranslation();
  // Custom fields first: columns and saved views may name them.
  if (!useEntity(props.resource).ready) return <Loader size="sm" role="status" aria-label={t('list.loading')} />;
  // One resource per mounted list: its data area's hooks stay the same while it lives.
  return <LoadedListPage key={props.resource} {...props} />;
}

function LoadedListPage({ resource, rootPath, createLabel, toolbar, header, rowActions, mayDeleteRow }: ListPageProps) {
  const { t } = useTranslation(['common', 'entities', 'options']);
  const { entity } = useEntity(resource);
  const format = useFormat();
  const localized = useLocalizedPath();
  const label = useFieldLabel(resource);
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const root = useRef<HTMLDivElement>(null);
  const { view, change, current, status } = useListView(rootPath, entity.list.defaultShows);

  const columns = useMemo(() => columnsOf(entity, view.shows), [entity, view.shows]);
  const built = useMemo(
    (): [string, string][] => [
      ...listParams(columns, knownFieldsView(view, allFields(entity)), PAGE_SIZE, recordNameJoins(entity)),
      COUNT,
    ],
    [columns, view, entity],
  );
  // The same parameters rebuilt are the same request: keyed by their text.
  const queryKey = JSON.stringify(built);
  const query = useMemo(() => JSON.parse(queryKey) as [string, string][], [queryKey]);
  const list = useListData(resource, query);

  const mayUpdate = can(user, resource, 'update');
  // Edit pages and modals exist for the resources of the spec's route table.
  const mayEdit = mayUpdate && recordPath(resource, 0, 'edit') !== undefined;
  // Bulk edit writes through the generic update; resources with their own routes are edited one by one.
  const mayBulkEdit = mayUpdate && genericallyOffered(resource, 'update');
  const mayDelete = can(user, resource, 'delete');
  const mayShow = recordPath(resource, 0, 'show') !== undefined;
  const mayCreate = can(user, resource, 'create');
  // Values edited in their cells: the fields a form may change, through the generic update (as bulk edit).
  const editable = useMemo(
    () => (mayBulkEdit ? new Set(formFields(entity, 'edit').map(([name]) => name)) : null),
    [mayBulkEdit, entity],
  );
  // What Export writes: the columns shown (references by name), with the list's filters, search and sort.
  const exportParams = useMemo(
    (): [string, string][] => [
      ['select', columns.map((column) => column.name).join(',')],
      ...query.filter(([key]) => key !== 'select' && key !== 'join' && key !== 'pageSize' && key !== 'count'),
    ],
    [columns, query],
  );

  // Named as everywhere else: a fund's quarter is "Fund II · 2025-12-31" where the fund is joined.
  const rowName = useCallback((row: Row) => recordName(entity, row), [entity]);
  const bulkRow = useCallback(
    (row: Row): BulkRow => ({ id: row.id, name: rowName(row), version: row.version }),
    [rowName],
  );
  const columnLabel = useCallback((column: Column) => label(column.name, column.field), [label]);

  // A selection belongs to the rows of one query.
  const [selected, setSelected] = useState<{ key: string; rows: RowSelectionState }>({ key: '', rows: {} });
  // The same empty selection every render: a new one would have the grid and the memo below start over each time.
  const selection = selected.key === queryKey ? selected.rows : noSelection;
  const setSelection = useCallback((rows: RowSelectionState) => setSelected({ key: queryKey, rows }), [queryKey]);
  const selectedRows = useMemo(
    () =>
      Object.keys(selection).length === 0 ? noRows : list.rows.filter((row) => selection[String(row.id)]).map(bulkRow),
    [list.rows, selection, bulkRow],
  );
  const [deleting, setDeleting] = useState<readonly BulkRow[] | null>(null);
  const bulkReport = useBulkReport();

  const editHref = useCallback(
    (id: number) => {
      if (!editsInModal(resource)) return localized(recordPath(resource, id, 'edit') ?? rootPath);
      const params = new URLSearchParams(search);
      params.set('edit', String(id));
      return `?${params.toString()}`;
    },
    [resource, search, localized, rootPath],
  );

  // The record previewed beside the list (`?preview=<id>`): Back and reload keep it, like `?edit=<id>`.
  const previewParam = Number(search.get('preview'));
  const previewId = mayShow && Number.isSafeInteger(previewParam) && previewParam > 0 ? previewParam : null;
  const preview = useCallback(
    (row: Row | null) =>
      setSearch(
        (currentSearch) => {
          const next = new URLSearchParams(currentSearch);
          if (row) next.set('preview', String(row.id));
          else next.delete('preview');
          return next;
        },
        // Opening one is a step Back undoes; moving to another row's, or closing it, is not.
        { replace: row === null || search.has('preview') },
      ),
    [setSearch, search],
  );
  const closePreview = useCallback(() => preview(null), [preview]);
  const create = useCallback(() => {
    const params = new URLSearchParams(search);
    params.set('create', '1');
    void navigate(`?${params.toString()}`);
  }, [search, navigate]);
  useListShortcuts(root, mayCreate ? create : null);

  const actions = useMemo(() => {
    if (!mayShow && !mayEdit && !mayDelete && !rowActions) return null;
    return (row: Row) => {
      const name = rowName(row);
      return (
        <RowActions>
          {mayShow ? (
            <RowActionLink
              to={localized(recordPath(resource, row.id, 'show') ?? rootPath)}
              label={t('list.showRow', { name })}
              icon="show"
            />
          ) : null}
          {mayEdit ? <RowActionLink to={editHref(row.id)} label={t('list.editRow', { name })} icon="edit" /> : null}
          {rowActions?.(row)}
          {mayDelete && (mayDeleteRow?.(row) ?? true) ? (
            <RowActionButton
              label={t('list.deleteRow', { name })}
              icon="delete"
              color="red"
              onClick={() => setDeleting([bulkRow(row)])}
            />
          ) : null}
        </RowActions>
      );
    };
  }, [
    mayShow,
    mayEdit,
    mayDelete,
    mayDeleteRow,
    rowActions,
    rowName,
    bulkRow,
    localized,
    editHref,
    resource,
    rootPath,
    t,
  ]);

  const plural = t(`entities:resources.${resource}.other`);
  // A saved view's address whose view is being read, or is not there: said, not replaced by the default list.
  if (status !== 'ready') return <ViewStatusScreen status={status} rootPath={rootPath} plural={plural} />;
  return (
    <Stack gap="sm" ref={root}>
      <ListToolbar
        entity={entity}
        rootPath={rootPath}
        view={view}
        current={current}
        total={list.total === null ? null : { value: list.total, exact: list.totalExact }}
        may={{
          create: mayCreate,
          import: canImport(user, resource),
          export: canExport(user, resource),
        }}
        exportParams={exportParams}
        createLabel={createLabel}
        toolbar={toolbar}
        header={header}
        onChange={change}
      />
      <BulkActions
        resource={resource}
        selected={selectedRows}
        deleting={deleting}
        mayEdit={mayBulkEdit}
        mayDelete={mayDelete}
        onDelete={setDeleting}
        onCancelDelete={() => setDeleting(null)}
        onDone={bulkReport.show}
        onClear={() => setSelection({})}
      />
      <BulkFailures report={bulkReport.report} onClose={bulkReport.dismiss} />
      {list.error !== null ? (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{list.error}</Text>
            <Button size="xs" variant="light" onClick={list.retry}>
              {t('actions.retry')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <div className={classes.grid}>
          <ListGrid
            rows={list.rows}
            columns={columns}
            label={columnLabel}
            sort={view.sort}
            onSort={(field, add) => change({ sort: nextSort(view.sort, field, add) })}
            selection={mayBulkEdit || mayDelete ? selection : null}
            onSelectionChange={setSelection}
            actions={actions}
            total={list.total}
            onEndReached={list.loadMore}
            rowName={rowName}
            resource={resource}
            display={entity.display}
            busy={list.loading}
            caption={plural}
            previewId={previewId}
            onPreview={mayShow ? preview : undefined}
            editable={editable}
          />
        </div>
        {previewId !== null ? (
          <Suspense fallback={null}>
            <RecordPreview
              key={previewId}
              resource={resource}
              id={previewId}
              editHref={editHref(previewId)}
              onClose={closePreview}
            />
          </Suspense>
        ) : null}
      </Group>
      {list.loaded && list.rows.length === 0 ? <Text c="dimmed">{t('list.empty')}</Text> : null}
      <Group justify="center" mih={36}>
        {list.loading ? <Loader size="sm" role="status" aria-label={t('list.loading')} /> : null}
        {list.hasMore && !list.loading ? (
          <Button variant="default" onClick={list.loadMore}>
            {t('actions.loadMore')}
          </Button>
        ) : null}
        {!list.hasMore && !list.loading && list.rows.length > 0 ? (
          <Text c="dimmed" size="sm">
            {t('list.shownAll', { count: list.rows.length, formatted: format.number(list.rows.length) })}
          </Text>
        ) : null}
      </Group>
      <ListTotals resource={resource} query={query} columns={columns} />
    </Stack>
  );
}
