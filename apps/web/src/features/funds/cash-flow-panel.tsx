import { findEntity } from '@data-platform/shared/entities/registry';
import { ActionIcon, Button, Card, Group, Title } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { columnsOf, listParams } from '../../entity/columns.ts';
import { LoadMore } from '../../entity/load-more.tsx';
import { PanelTable } from '../../entity/panel-table.tsx';
import { useListInfiniteQuery } from '../../entity/record-api.ts';
import { useMay } from '../../entity/record-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import type { Row } from '../../store/resource-slices.ts';

const CreateModal = lazy(async () => ({ default: (await import('../../entity/create-modal.tsx')).CreateModal }));
const EditModal = lazy(async () => ({ default: (await import('../../entity/edit-page.tsx')).EditModal }));

const RESOURCE = 'fundCashFlows';
/** The funds relation the flows are read under (`GET /funds/{id}/cashFlows`). */
const RELATION = 'cashFlows';
const PAGE_SIZE = 200;

/**
 * A fund's cash flows by date, with Add (the generic create form, the fund
 * already set) and Edit (the generic edit form) on the page: the columns,
 * labels, values and forms all derive from the fundCashFlows description.
 * Writing a flow reads the fund's metrics again (they are in the funds area,
 * which shows the flows).
 */
export function CashFlowPanel({
  fundId,
  currency,
  until,
  title: heading,
  editable = true,
}: {
  fundId: number;
  /** The fund's currency: a new flow's amount starts in it. */
  currency?: string | null;
  /** Only the flows on or before this date (YYYY-MM-DD): those a computed performance record counted. */
  until?: string;
  title?: string;
  editable?: boolean;
}) {
  const { t } = useTranslation(['funds', 'common', 'entities']);
  const entity = findEntity(RESOURCE);
  const may = useMay(RESOURCE);
  const label = useFieldLabel(RESOURCE);
  const format = useFormat();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | undefined>();
  const columns = useMemo(
    () =>
      entity
        ? columnsOf(
            entity,
            entity.list.defaultShows.filter((name) => name !== 'fundId'),
          )
        : [],
    [entity],
  );
  const params = useMemo(
    () =>
      listParams(
        columns,
        { filters: until ? [{ field: 'date', op: 'lte', value: until }] : [], sort: 'date' },
        PAGE_SIZE,
      ),
    [columns, until],
  );
  const skip = !entity || !may('read');
  const pages = useListInfiniteQuery({ resource: 'funds', under: `${fundId}/${RELATION}`, params }, { skip });
  // The fund is set, and the amount is in the fund's currency until the user picks another.
  const presets = useMemo(
    (): Row => ({ id: 0, fundId, ...(currency ? { amount: { currency } } : {}) }) as Row,
    [fundId, currency],
  );
  if (skip) return null;
  const rows = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const title = heading ?? t(`entities:resources.${RESOURCE}.other`);
  const mayEdit = editable && may('update');

  return (
    <Card withBorder component="section" aria-labelledby="cash-flows-title" data-testid="cash-flows">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="cash-flows-title">
          {title}
        </Title>
        {editable && may('create') ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => setAdding(true)}
          >
            {t('cashFlows.add')}
          </Button>
        ) : null}
      </Group>
      <PanelTable
        title={title}
        none={t('cashFlows.none')}
        fetching={pages.isFetching}
        rows={rows}
        columns={columns}
        label={label}
        actions={
          mayEdit
            ? {
                label: t('cashFlows.actions'),
                cell: (row) => (
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('cashFlows.edit', {
                      date: typeof row.date === 'string' ? format.date(row.date) : String(row.id),
                    })}
                    onClick={() => setEditing(row.id)}
                  >
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                ),
              }
            : undefined
        }
      />
      <LoadMore pages={pages} mt="xs" />
      <Suspense fallback={null}>
        {adding ? (
          <CreateModal
            resource={RESOURCE}
            presets={presets}
            onClose={() => setAdding(false)}
            onCreated={() => setAdding(false)}
          />
        ) : null}
        {editing !== undefined ? (
          <EditModal key={editing} resource={RESOURCE} id={editing} onClose={() => setEditing(undefined)} />
        ) : null}
      </Suspense>
    </Card>
  );
}
