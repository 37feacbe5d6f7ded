import type { RelationDescription } from '@data-platform/shared/entities/entity';
import { findEntity } from '@data-platform/shared/entities/registry';
import { ActionIcon, Anchor, Button, Card, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { type Formatters, useFormat } from '../i18n/format.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { Row } from '../store/resource-slices.ts';
import { CellValue, useFieldLabel } from './cell-value.tsx';
import { type Column, columnsOf, listParams } from './columns.ts';
import { FieldControl, siblingsOf } from './field-control.tsx';
import { useFirstFieldFocus } from './first-field-focus.ts';
import { LoadMore } from './load-more.tsx';
import { keepEnterInOpenList } from './open-list-enter.ts';
import { PanelTable } from './panel-table.tsx';
import {
  PANEL_PAGE_SIZE,
  useCreateRecordMutation,
  useDeleteRecordMutation,
  useListInfiniteQuery,
} from './record-api.ts';
import { showServerErrors, useRecordForm } from './record-form.tsx';
import { recordPath, useMay } from './record-routes.ts';
import { formFields } from './record-values.ts';
import { type RelationTotals, useRelationTotalsQuery } from './relation-totals-api.ts';

/** The name of a related record, a link to its show page when it has one. */
function RelatedName({ resource, row, column }: { resource: string; row: Row; column: Column }) {
  const localized = useLocalizedPath();
  const path = recordPath(resource, row.id, 'show');
  const shown = <CellValue row={row} column={column} />;
  return path ? (
    <Anchor component={Link} to={localized(path)}>
      {shown}
    </Anchor>
  ) : (
    shown
  );
}

/**
 * A column's total: money per currency, one line each (never added across
 * currencies), or the number; nothing for a column the server does not total.
 */
function TotalCell({
  sums,
  money,
  format,
}: {
  sums: RelationTotals['sums'][string] | undefined;
  money: boolean;
  format: Formatters;
}) {
  if (!sums) return <Table.Td />;
  const entries = Object.entries(sums).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Table.Td data-testid="relation-total">
      {entries.map(([currency, amount]) => (
        <div key={currency}>{money ? format.money({ amount, currency }) : format.number(amount)}</div>
      ))}
    </Table.Td>
  );
}

/**
 * The records related to one record through a relation of its description:
 * through a link collection (with add, remove and the link's own fields such
 * as role and commitment), or owned through a foreign key (read only, with the
 * columns its list shows first: a fund's performance by quarter with its
 * figures). Each column has its heading; the first names the record and links
 * to it, and a footer totals every related row (not only the loaded ones,
 * so the server counts and sums them: see relation-totals-api.ts): how many,
 * and money per currency.
 */
export function RelationPanel({
  resource,
  id,
  relation,
  description,
}: {
  resource: string;
  id: number;
  relation: string;
  description: RelationDescription;
}) {
  const { t } = useTranslation(['record', 'common', 'entities']);
  const via = description.kind === 'manyToMany' ? findEntity(description.via) : undefined;
  const targetName = description.kind === 'hasMany' ? description.to : via?.fields[description.target]?.to;
  const target = targetName ? findEntity(targetName) : undefined;
  const mayTarget = useMay(targetName ?? '');
  const mayLink = useMay(via?.name ?? '');
  const linkLabel = useFieldLabel(via?.name ?? '');
  const targetLabel = useFieldLabel(targetName ?? '');
  // Owned rows show the target list's default columns but the owner (it is this record), named by `display` first.
  const columns = useMemo(() => {
    if (!target) return [];
    const shown =
      description.kind === 'hasMany'
        ? target.list.defaultShows.filter((name) => name !== description.foreignKey && name !== target.display)
        : [];
    return columnsOf(target, [target.display, ...shown]);
  }, [target, description]);
  const params = useMemo<[string, string][]>(
    () =>
      target
        ? listParams(
            columns,
            { filters: [], sort: description.kind === 'hasMany' ? target.list.defaultSort : target.display },
            Number(PANEL_PAGE_SIZE),
          )
        : [],
    [target, columns, description.kind],
  );
  const skip = !target || !mayTarget('read');
  // The related rows are read under the record (`contacts/7/companies`), in the record's own area.
  const pages = useListInfiniteQuery({ resource, under: `${id}/${relation}`, params }, { skip });
  const totals = useRelationTotalsQuery(resource, { id, relation }, { skip });
  const format = useFormat();
  const [adding, { open, close }] = useDisclosure(false);
  if (skip || !target || !targetName) return null;

  const rows = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const linkFields =
    via && description.kind === 'manyToMany'
      ? formFields(via, 'create').filter(([name]) => name !== description.from && name !== description.target)
      : [];
  const title = t(`entities:resources.${targetName}.other`);
  const canChange = via !== undefined && mayLink('create');

  return (
    <Card withBorder component="section" aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        {canChange ? (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={open}>
            {t('relations.add', { what: t(`entities:resources.${targetName}.one`) })}
          </Button>
        ) : null}
      </Group>
      <PanelTable
        title={title}
        none={t('relations.none')}
        fetching={pages.isFetching}
        rows={rows}
        rowKey={(row) => `${row.id}:${(row.link as Row | undefined)?.id ?? ''}`}
        columns={columns}
        label={targetLabel}
        name={(row, column) => <RelatedName resource={targetName} row={row} column={column} />}
        more={{
          heads: linkFields.map(([name, field]) => (
            <Table.Th key={`link:${name}`} scope="col">
              {linkLabel(name, field)}
            </Table.Th>
          )),
          cells: (row) => {
            const link = row.link as Row | undefined;
            return linkFields.map(([name, field]) => (
              <Table.Td key={name}>
                {link ? (
                  <Text size="sm" c="dimmed" span>
                    <CellValue row={link} column={{ name, field }} />
                  </Text>
                ) : null}
              </Table.Td>
            ));
          },
        }}
        actions={
          via && mayLink('delete')
            ? {
                label: t('relations.actions'),
                cell: (row) => {
                  const link = row.link as Row | undefined;
                  return link ? (
                    <UnlinkButton via={via.name} linkId={link.id} name={String(row[target.display] ?? row.id)} />
                  ) : null;
                },
              }
            : undefined
        }
        footer={
          totals.data ? (
            <Table.Tfoot fw={600}>
              <Table.Tr>
                {columns.map((column, index) =>
                  index === 0 ? (
                    <Table.Th key={column.name} scope="row" data-testid="relation-count">
                      {t('relations.total', { count: totals.data?.count ?? 0 })}
                    </Table.Th>
                  ) : (
                    <TotalCell
                      key={column.name}
                      sums={totals.data?.sums[column.name]}
                      money={column.field.type === 'money'}
                      format={format}
                    />
                  ),
                )}
                {linkFields.map(([name, field]) => (
                  <TotalCell key={name} sums={totals.data?.sums[name]} money={field.type === 'money'} format={format} />
                ))}
                {via && mayLink('delete') ? <Table.Td /> : null}
              </Table.Tr>
            </Table.Tfoot>
          ) : null
        }
      />
      <LoadMore pages={pages} mt="xs" />
      {canChange && via && description.kind === 'manyToMany' ? (
        <Modal
          closeButtonProps={{ 'aria-label': t('record:dialog.close') }}
          opened={adding}
          onClose={close}
          title={t('relations.add', { what: t(`entities:resources.${targetName}.one`) })}
        >
          {adding ? (
            <AddLinkForm
              via={via.name}
              from={description.from}
              id={id}
              fields={[...formFields(via, 'create').filter(([name]) => name === description.target), ...linkFields]}
              label={linkLabel}
              onDone={close}
            />
          ) : null}
        </Modal>
      ) : null}
    </Card>
  );
}

/** Removes one link of a link collection (the linked record stays). */
function UnlinkButton({ via, linkId, name }: { via: string; linkId: number; name: string }) {
  const { t } = useTranslation('record');
  const [unlink] = useDeleteRecordMutation(via);
  return (
    <ActionIcon
      variant="subtle"
      color="red"
      aria-label={t('relations.remove', { name })}
      onClick={() =>
        void unlink(linkId).then((result) => {
          if (!('error' in result)) toast.success(t('relations.removed'));
        })
      }
    >
      <IconX size={16} aria-hidden />
    </ActionIcon>
  );
}

/** Picks the record to link (searched by `q`) and fills the link's own fields (role, commitment). */
function AddLinkForm({
  via,
  from,
  id,
  fields,
  label,
  onDone,
}: {
  via: string;
  from: string;
  id: number;
  fields: ReturnType<typeof formFields>;
  label: ReturnType<typeof useFieldLabel>;
  onDone: () => void;
}) {
  const { t } = useTranslation(['record', 'common']);
  const record = useMemo(() => ({ id: 0, [from]: id }), [from, id]);
  const form = useRecordForm(via, 'create', record);
  const [create, creating] = useCreateRecordMutation(via);
  const siblings = siblingsOf(fields);
  const first = useRef<HTMLDivElement>(null);
  useFirstFieldFocus(first);
  const onSubmit = form.handleSubmit(async (body) => {
    const result = await create(body);
    if ('error' in result) {
      if (result.error && 'status' in result.error) showServerErrors(form, result.error);
      return;
    }
    toast.success(t('relations.added'));
    onDone();
  });
  return (
    <form onKeyDown={keepEnterInOpenList} onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack ref={first}>
        {fields.map(([name, field]) => (
          <FieldControl
            key={name}
            name={name}
            field={field}
            label={label(name, field)}
            control={form.control}
            siblings={siblings}
          />
        ))}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={creating.isLoading}>
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
