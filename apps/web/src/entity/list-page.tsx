import { allFields, isWritable, referenceRelationName } from '@data-platform/shared/entities/entity';
import { Alert, Button, Group, Loader, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconEdit, IconEye, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import type { RowSelectionState } from '@tanstack/react-table';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { useFormat } from '../i18n/format.ts';
import { stripLanguage } from '../i18n/languages.ts';
import { formatTotal } from '../i18n/totals.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { type FilterCondition, type Layout, setDefaultFilters, setDefaultShows } from '../store/layouts-slice.ts';
import { getAll, type ResourceArea, type Row, rowsChanged, rowsRemoved } from '../store/resource-slices.ts';
import { can, canExport, canImport, genericallyOffered } from './access.ts';
import { useFieldLabel } from './cell-value.tsx';
import { ColumnChooser } from './column-chooser.tsx';
import { type Column, columnsOf, listParams } from './columns.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import { useEntity } from './custom-fields.ts';
import { ExportMenu } from './export-menu.tsx';
import { ValueInput } from './filter-inputs.tsx';
import { ImportButton } from './import-modal.tsx';
import { ListFilters } from './list-filters.tsx';
import { ListGrid } from './list-grid.tsx';
import {
  apiValueOf,
  knownFieldsView,
  type ListView,
  nextSort,
  viewOf,
  viewOfLayout,
  viewParams,
} from './list-state.ts';
import { ListViews } from './list-views.tsx';
import { recordApi, resourceTag } from './record-api.ts';
import { deleteRecord, forEachRow, patchRecord } from './record-calls.ts';
import { editsInModal, recordPath } from './record-routes.ts';
import { describedEntity } from './resource-routes.ts';
import { RowActionButton, RowActionLink, RowActions } from './row-action.tsx';

const PAGE_SIZE = 100;
const SEARCH_DELAY_MS = 300;
/** Field types a bulk edit offers: one value typed in one input. */
const bulkTypes = new Set([
  'text',
  'email',
  'url',
  'phone',
  'integer',
  'decimal',
  'percent',
  'year',
  'date',
  'boolean',
  'select',
  'reference',
  'currency',
]);
const noLayouts: Layout[] = [];
const noSelection: RowSelectionState = {};
const noRows: Row[] = [];

/**
 * The view of the list at this address. On the root path (`/companies`) the
 * columns and filters are the layouts' defaults unless the address names
 * them; a saved view (`/companies/views/<slug>`) is what its address says,
 * else what was saved under that path.
 */
function useListView(rootPath: string, defaultShows: readonly string[]) {
  const dispatch = useAppDispatch();
  const { pathname } = useLocation();
  const [search, setSearch] = useSearchParams();
  const path = stripLanguage(pathname);
  const onRoot = path === rootPath;
  const layouts = useAppSelector((state) => state.layouts.layouts[rootPath]) ?? noLayouts;
  const savedShows = useAppSelector((state) => state.layouts.defaultShows[rootPath]);
  const savedFilters = useAppSelector((state) => state.layouts.defaultFilters[rootPath]);
  const current = onRoot ? undefined : layouts.find((layout) => layout.customPath === path);
  const searchText = search.toString();

  const view: ListView = useMemo(() => {
    const addressed = viewOf(new URLSearchParams(searchText));
    const base: ListView = current
      ? viewOfLayout(current, defaultShows)
      : {
          shows: (onRoot ? savedShows : undefined) ?? [...defaultShows],
          filters: (onRoot ? savedFilters : undefined) ?? [],
          sort: '',
          q: '',
        };
    return {
      shows: addressed.shows ?? base.shows,
      filters: addressed.filters ?? base.filters,
      sort: addressed.sort || base.sort,
      q: addressed.q || base.q,
    };
  }, [searchText, current, onRoot, savedShows, savedFilters, defaultShows]);

  const change = useCallback(
    (changes: Partial<ListView>) => {
      const next = { ...view, ...changes };
      if (!onRoot) {
        // A view's address carries all of it, so that it can be shared.
        setSearch(new URLSearchParams(viewParams(next)), { replace: true });
        return;
      }
      // The root path keeps columns and filters in the layouts (they survive a reload), sort and search in the address.
      if (changes.shows) dispatch(setDefaultShows({ rootPath, shows: changes.shows }));
      if (changes.filters) dispatch(setDefaultFilters({ rootPath, filters: changes.filters }));
      const params = new URLSearchParams(searchText);
      const addressed = viewOf(params);
      setSearch(
        new URLSearchParams(
          viewParams({
            shows: changes.shows ? undefined : addressed.shows,
            filters: changes.filters ? undefined : addressed.filters,
            sort: next.sort,
            q: next.q,
          }),
        ),
        { replace: true },
      );
    },
    [view, onRoot, setSearch, dispatch, rootPath, searchText],
  );

  return { view, change, current, onRoot };
}

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
}

/**
 * The list screen of any resource: a virtualized grid of the records with
 * server-side sort, filters by field type, search, Load More... by cursor,
 * chosen columns, saved views, and row and bulk actions the role allows.
 */
export function ListPage(props: ListPageProps) {
  const { t } = useTranslation();
  // Custom fields first: columns and saved views may name them.
  if (!useEntity(props.resource).ready) return <Loader size="sm" aria-label={t('list.loading')} />;
  return <LoadedListPage {...props} />;
}

function LoadedListPage({ resource, rootPath, createLabel, toolbar, header, rowActions }: ListPageProps) {
  const { t } = useTranslation(['common', 'entities', 'options']);
  const { entity } = useEntity(resource);
  const dispatch = useAppDispatch();
  const format = useFormat();
  const localized = useLocalizedPath();
  const label = useFieldLabel(resource);
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const token = useAppSelector((state) => state.auth.token);
  const area = useAppSelector((state) => state[resource]);
  const [search] = useSearchParams();
  const { view, change, current } = useListView(rootPath, entity.list.defaultShows);

  const columns = useMemo(() => columnsOf(entity, view.shows), [entity, view.shows]);
  const built = useMemo(
    () => listParams(columns, knownFieldsView(view, allFields(entity)), PAGE_SIZE),
    [columns, view, entity],
  );
  // The same parameters rebuilt are the same request: keyed by their text.
  const queryKey = JSON.stringify(built);
  const query = useMemo(() => JSON.parse(queryKey) as [string, string][], [queryKey]);

  const load = useCallback(() => dispatch(getAll({ resource, query })), [dispatch, resource, query]);
  useEffect(() => {
    void load();
  }, [load]);

  const loading = area.status === 'loading';
  const { nextCursor } = area;
  const loadMore = useCallback(() => {
    if (nextCursor && !loading) void dispatch(getAll({ resource, query, cursor: nextCursor }));
  }, [dispatch, resource, query, nextCursor, loading]);

  // Search as the user types, once they pause.
  const [searchText, setSearchText] = useState(view.q);
  useEffect(() => setSearchText(view.q), [view.q]);
  useEffect(() => {
    if (searchText === view.q) return;
    const timer = setTimeout(() => change({ q: searchText }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, view.q, change]);

  const mayCreate = can(user, resource, 'create');
  const mayUpdate = can(user, resource, 'update');
  // Edit pages and modals exist for the resources of the spec's route table.
  const mayEdit = mayUpdate && recordPath(resource, 0, 'edit') !== undefined;
  // Bulk edit writes through the generic update; resources with their own routes are edited one by one.
  const mayBulkEdit = mayUpdate && genericallyOffered(resource, 'update');
  const mayDelete = can(user, resource, 'delete');
  const mayExport = canExport(user, resource);
  const mayImport = canImport(user, resource);
  // What Export writes: the columns shown (references by name), with the list's filters, search and sort.
  const exportParams = useMemo(
    (): [string, string][] => [
      ['select', columns.map((column) => column.name).join(',')],
      ...query.filter(([key]) => key !== 'select' && key !== 'join' && key !== 'pageSize'),
    ],
    [columns, query],
  );
  const mayShow = recordPath(resource, 0, 'show') !== undefined;

  // A selection belongs to the rows of one query.
  const [selected, setSelected] = useState<{ key: string; rows: RowSelectionState }>({ key: '', rows: {} });
  // The same empty selection every render: a new one would have the grid and the memo below start over each time.
  const selection = selected.key === queryKey ? selected.rows : noSelection;
  const setSelection = useCallback((rows: RowSelectionState) => setSelected({ key: queryKey, rows }), [queryKey]);
  const selectedRows = useMemo(
    () => (Object.keys(selection).length === 0 ? noRows : area.items.filter((row) => selection[String(row.id)])),
    [area.items, selection],
  );

  const [deleting, setDeleting] = useState<Row[] | null>(null);
  const [working, setWorking] = useState(false);
  const [bulkEditing, setBulkEditing] = useState(false);

  const rowName = useCallback(
    (row: Row) => {
      const shown = row[entity.display];
      return shown === undefined || shown === null || shown === '' ? `#${row.id}` : String(shown);
    },
    [entity.display],
  );
  const columnLabel = useCallback((column: Column) => label(column.name, column.field), [label]);

  const editHref = useCallback(
    (id: number) => {
      if (!editsInModal(resource)) return localized(recordPath(resource, id, 'edit') ?? rootPath);
      const params = new URLSearchParams(search);
      params.set('edit', String(id));
      return `?${params.toString()}`;
    },
    [resource, search, localized, rootPath],
  );

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
              icon={IconEye}
            />
          ) : null}
          {mayEdit ? <RowActionLink to={editHref(row.id)} label={t('list.editRow', { name })} icon={IconEdit} /> : null}
          {rowActions?.(row)}
          {mayDelete ? (
            <RowActionButton
              label={t('list.deleteRow', { name })}
              icon={IconTrash}
              color="red"
              onClick={() => setDeleting([row])}
            />
          ) : null}
        </RowActions>
      );
    };
  }, [mayShow, mayEdit, mayDelete, rowActions, rowName, localized, editHref, resource, rootPath, t]);

  const confirmDelete = async () => {
    if (!deleting) return;
    setWorking(true);
    const outcome = await forEachRow(deleting, async (row) => {
      await deleteRecord(resource, row.id, token);
      return row.id;
    });
    setWorking(false);
    setDeleting(null);
    if (outcome.done.length > 0) {
      dispatch(rowsRemoved({ resource, ids: outcome.done }));
      dispatch(recordApi.util.invalidateTags([resourceTag(resource)]));
    }
    setSelection({});
    if (outcome.failed.length === 0) {
      toast.success(
        deleting.length === 1
          ? t('list.deleted', { name: rowName(deleting[0] as Row) })
          : t('list.deletedMany', { count: outcome.done.length }),
      );
    } else {
      toast.error(
        t('list.partialFailure', {
          done: outcome.done.length,
          total: deleting.length,
          message: outcome.failed[0]?.message ?? '',
        }),
      );
    }
  };

  const createHref = useMemo(() => {
    const params = new URLSearchParams(search);
    params.set('create', '1');
    return `?${params.toString()}`;
  }, [search]);

  const total =
    area.total === null
      ? null
      : area.totalExact
        ? t('list.records', { count: area.total, formatted: format.number(area.total) })
        : t('list.recordsAbout', { total: formatTotal(area.total, false, format, t) });
  const plural = t(`entities:resources.${resource}.other`);
  const selectedCount = selectedRows.length;

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center" wrap="wrap">
        <Group gap="sm" align="baseline">
          <Title order={1} size="h2">
            {current ? `${plural} – ${current.name}` : plural}
          </Title>
          {total !== null ? (
            <Text c="dimmed" size="sm" data-testid="list-total" aria-live="polite">
              {total}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs">
          <ListViews rootPath={rootPath} view={view} current={current} defaultShows={entity.list.defaultShows} />
          <ColumnChooser entity={entity} shows={view.shows} onChange={(shows) => change({ shows })} />
          {mayImport ? <ImportButton resource={resource} onImported={() => void load()} /> : null}
          {mayExport ? <ExportMenu resource={resource} params={exportParams} /> : null}
          {mayCreate ? (
            <Button component={Link} to={createHref} size="xs" leftSection={<IconPlus size={14} aria-hidden />}>
              {createLabel ?? t('actions.create')}
            </Button>
          ) : null}
          {toolbar}
        </Group>
      </Group>
      {header}
      <Group gap="xs" align="center" wrap="wrap">
        <TextInput
          type="search"
          size="xs"
          w={260}
          leftSection={<IconSearch size={14} aria-hidden />}
          placeholder={t('list.search')}
          aria-label={t('list.search')}
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
        />
        <ListFilters
          entity={entity}
          filters={view.filters}
          onChange={(filters: FilterCondition[]) => change({ filters })}
        />
      </Group>
      {selectedCount > 0 ? (
        <Group gap="xs" role="toolbar" aria-label={t('list.bulkActions')} data-testid="bulk-bar">
          <Text size="sm">{t('list.selected', { count: selectedCount })}</Text>
          {mayBulkEdit ? (
            <Button size="xs" variant="default" onClick={() => setBulkEditing(true)}>
              {t('list.bulkEdit')}
            </Button>
          ) : null}
          {mayDelete ? (
            <Button size="xs" color="red" variant="light" onClick={() => setDeleting(selectedRows)}>
              {t('list.bulkDelete')}
            </Button>
          ) : null}
          <Button size="xs" variant="subtle" onClick={() => setSelection({})}>
            {t('list.clearSelection')}
          </Button>
        </Group>
      ) : null}
      {area.status === 'failed' ? (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{area.error}</Text>
            <Button size="xs" variant="light" onClick={() => void load()}>
              {t('actions.retry')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      <ListGrid
        rows={area.items}
        columns={columns}
        label={columnLabel}
        sort={view.sort}
        onSort={(field, add) => change({ sort: nextSort(view.sort, field, add) })}
        selection={mayBulkEdit || mayDelete ? selection : null}
        onSelectionChange={setSelection}
        actions={actions}
        total={area.total}
        onEndReached={loadMore}
        rowName={rowName}
        busy={loading}
        caption={plural}
      />
      {area.status === 'loaded' && area.items.length === 0 ? <Text c="dimmed">{t('list.empty')}</Text> : null}
      <Group justify="center" mih={36}>
        {loading ? <Loader size="sm" aria-label={t('list.loading')} /> : null}
        {nextCursor && !loading ? (
          <Button variant="default" onClick={loadMore}>
            {t('actions.loadMore')}
          </Button>
        ) : null}
        {!nextCursor && !loading && area.items.length > 0 ? (
          <Text c="dimmed" size="sm">
            {t('list.shownAll', { count: area.items.length, formatted: format.number(area.items.length) })}
          </Text>
        ) : null}
      </Group>
      <ConfirmDelete
        opened={deleting !== null}
        title={t('list.confirmDeleteTitle')}
        working={working}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        {deleting?.length === 1
          ? t('list.confirmDelete', { name: rowName(deleting[0] as Row), context: resource })
          : t('list.confirmDeleteMany', { count: deleting?.length ?? 0, context: resource })}
      </ConfirmDelete>
      {bulkEditing ? (
        <BulkEdit
          resource={resource}
          rows={selectedRows}
          onClose={() => setBulkEditing(false)}
          onDone={() => setSelection({})}
        />
      ) : null}
    </Stack>
  );
}

/** Sets one field to one value on every selected row, each with its own version; reports the rows that failed. */
function BulkEdit({
  resource,
  rows,
  onClose,
  onDone,
}: {
  resource: ResourceArea;
  rows: Row[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const token = useAppSelector((state) => state.auth.token);
  const { entity } = useEntity(resource);
  const label = useFieldLabel(resource);
  const editable = Object.entries(entity.fields).filter(
    ([, field]) => isWritable(field) && !field.immutable && bulkTypes.has(field.type),
  );
  const [name, setName] = useState<string | null>(null);
  const [value, setValue] = useState<string | undefined>();
  const [valueName, setValueName] = useState<string | undefined>();
  const [working, setWorking] = useState(false);
  const field = name ? allFields(entity)[name] : undefined;

  const apply = async () => {
    if (!name || !field) return;
    setWorking(true);
    const changes = { [name]: apiValueOf(field, value) };
    const outcome = await forEachRow(rows, async (row) => {
      const updated = await patchRecord(resource, row, changes, token);
      const merged: Row = { id: row.id, version: updated.version, [name]: updated[name] };
      if (field.type === 'reference' && field.to) {
        const target = describedEntity(field.to);
        merged[referenceRelationName(name)] = value ? { id: Number(value), [target.display]: valueName } : null;
      }
      return merged;
    });
    setWorking(false);
    if (outcome.done.length > 0) {
      dispatch(rowsChanged({ resource, rows: outcome.done }));
      dispatch(recordApi.util.invalidateTags([resourceTag(resource)]));
    }
    if (outcome.failed.length === 0) toast.success(t('list.updatedMany', { count: outcome.done.length }));
    else
      toast.error(
        t('list.partialFailure', {
          done: outcome.done.length,
          total: rows.length,
          message: outcome.failed[0]?.message ?? '',
        }),
      );
    onDone();
    onClose();
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t('actions.close') }}
      opened
      onClose={working ? () => undefined : onClose}
      title={t('list.bulkEditTitle', { count: rows.length })}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
      >
        <Stack>
          <Select
            label={t('list.bulkField')}
            data={editable.map(([n, f]) => ({ value: n, label: label(n, f) }))}
            value={name}
            onChange={(next) => {
              setName(next);
              setValue(undefined);
            }}
            searchable
            comboboxProps={{ withinPortal: false }}
          />
          {field ? (
            <ValueInput
              field={field}
              label={t('list.bulkValue')}
              value={value}
              onChange={(next, shown) => {
                setValue(next);
                setValueName(shown);
              }}
            />
          ) : null}
          <Text size="xs" c="dimmed">
            {t('list.bulkEmptyClears')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={working}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" disabled={!name} loading={working}>
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
