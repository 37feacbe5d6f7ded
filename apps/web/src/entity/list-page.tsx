import { Alert, Anchor, Badge, Button, Group, Loader, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormat } from '../i18n/format.ts';
import { formatTotal } from '../i18n/totals.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { getAll, type ResourceArea } from '../store/resource-slices.ts';
import { CellValue, useFieldLabel } from './cell-value.tsx';
import { columnsOf, filtersOf, listParams } from './columns.ts';
import { describedEntity } from './resource-routes.ts';

/**
 * The first page of a resource's records in a table, then Load More... by
 * cursor. Columns are the layout's shown fields, or the description's defaults;
 * filters come from the address (`?filter[stage][eq]=Seed`), or the layout's defaults.
 */
export function ListPage({ resource, rootPath }: { resource: ResourceArea; rootPath: string }) {
  const { t } = useTranslation(['common', 'entities', 'options']);
  const entity = describedEntity(resource);
  const dispatch = useAppDispatch();
  const format = useFormat();
  const localized = useLocalizedPath();
  const label = useFieldLabel(resource);
  const [search] = useSearchParams();
  const shows = useAppSelector((state) => state.layouts.defaultShows[rootPath]);
  const defaultFilters = useAppSelector((state) => state.layouts.defaultFilters[rootPath]);
  const area = useAppSelector((state) => state[resource]);

  const columns = useMemo(() => columnsOf(entity, shows ?? entity.list.defaultShows), [entity, shows]);
  const searchText = search.toString();
  const filters = useMemo(() => {
    const fromAddress = filtersOf(new URLSearchParams(searchText));
    return fromAddress.length > 0 ? fromAddress : (defaultFilters ?? []);
  }, [searchText, defaultFilters]);
  const sort = new URLSearchParams(searchText).get('sort') ?? undefined;
  const query = useMemo(() => listParams(columns, filters, sort), [columns, filters, sort]);

  useEffect(() => {
    void dispatch(getAll({ resource, query }));
  }, [dispatch, resource, query]);

  const loading = area.status === 'loading';
  const fields = entity.fields;
  const filterText = filters.map(({ field, op, value }) => {
    const fieldLabel = label(field, fields[field]);
    const shown =
      value !== undefined && fields[field]?.options
        ? t(value, { ns: 'options', keySeparator: false, nsSeparator: false })
        : value;
    return shown === undefined
      ? t('list.filterNoValue', { field: fieldLabel, op: t(`ops.${op}`) })
      : t('list.filter', { field: fieldLabel, op: t(`ops.${op}`), value: shown });
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="baseline">
        <Title order={1} size="h2">
          {t(`entities:resources.${resource}.other`)}
        </Title>
        {area.total !== null ? (
          <Text c="dimmed" size="sm" data-testid="list-total">
            {area.totalExact
              ? t('list.records', { count: area.total, formatted: format.number(area.total) })
              : t('list.recordsAbout', { total: formatTotal(area.total, false, format, t) })}
          </Text>
        ) : null}
      </Group>
      {filterText.length > 0 ? (
        <Group gap="xs" aria-label={t('list.filters')}>
          {filterText.map((text) => (
            <Badge key={text} variant="light" tt="none" size="lg">
              {text}
            </Badge>
          ))}
          <Anchor component={Link} to={localized(rootPath)} size="sm">
            {t('actions.clearFilters')}
          </Anchor>
        </Group>
      ) : null}
      {area.status === 'failed' ? (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{area.error}</Text>
            <Button size="xs" variant="light" onClick={() => void dispatch(getAll({ resource, query }))}>
              {t('actions.retry')}
            </Button>
          </Group>
        </Alert>
      ) : null}
      <ScrollArea type="auto" offsetScrollbars>
        <Table striped highlightOnHover verticalSpacing="xs" miw={640} aria-busy={loading}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.name} scope="col">
                  {label(column.name, column.field)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {area.items.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map((column) => (
                  <Table.Td key={column.name}>
                    <CellValue row={row} column={column} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {loading ? (
        <Group justify="center">
          <Loader size="sm" aria-label={t('list.loading')} />
        </Group>
      ) : null}
      {area.status === 'loaded' && area.items.length === 0 ? <Text c="dimmed">{t('list.empty')}</Text> : null}
      {area.nextCursor && !loading ? (
        <Group justify="center">
          <Button
            variant="default"
            onClick={() => void dispatch(getAll({ resource, query, cursor: area.nextCursor ?? undefined }))}
          >
            {t('actions.loadMore')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
