import { isCustomizable } from '@data-platform/shared/entities/custom-fields';
import { recordName, recordNameJoins } from '@data-platform/shared/entities/record-name';
import { attachableEntities } from '@data-platform/shared/entities/registry';
import { Alert, Anchor, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { type ComponentType, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { useFormat } from '../i18n/format.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useCustomFieldGroupsQuery } from '../store/custom-fields-area.ts';
import { isApiFailure } from '../store/http.ts';
import type { Row } from '../store/resource-slices.ts';
import { useFieldLabel } from './cell-value.tsx';
import { ConfirmDelete } from './confirm-delete.tsx';
import { useEntity } from './custom-fields.ts';
import { DetailList } from './detail-list.tsx';
import { FieldValue } from './field-value.tsx';
import { FilesPanel } from './files-panel.tsx';
import { NotesPanel } from './notes-panel.tsx';
import { useDeleteRecordMutation, useRecordQuery } from './record-api.ts';
import { recordPath, useMay } from './record-routes.ts';
import { referenceJoins } from './record-values.ts';
import { RelationPanel } from './relation-panel.tsx';
import { listPathOf } from './resource-routes.ts';
import { TasksPanel } from './tasks-panel.tsx';

/** The joins a record's page reads it with: the names of what it references, and what names the record itself. */
export function useShownJoins(resource: string): string[] {
  const { entity } = useEntity(resource);
  return useMemo(() => [...new Set([...referenceJoins(entity), ...recordNameJoins(entity)])], [entity]);
}

/**
 * Every field of a record as its page shows them: built-in fields and custom
 * fields without a group, with who created and last updated it, then a
 * section per custom field group in its order. The show page and the list's
 * preview panel both draw a record with it.
 */
export function RecordDetails({ resource, record }: { resource: string; record: Row }) {
  const { t } = useTranslation(['record']);
  const { entity } = useEntity(resource);
  const { data: groups } = useCustomFieldGroupsQuery(undefined, { skip: !isCustomizable(entity) });
  const label = useFieldLabel(resource);
  const format = useFormat();
  const fields = Object.entries(entity.fields);
  // Built-in fields and custom fields without a group first, then a section per group in its order.
  const sections = (groups ?? [])
    .filter((group) => group.entity === resource)
    .map((group) => ({ group, fields: fields.filter(([, field]) => field.custom?.groupId === group.id) }))
    .filter((section) => section.fields.length > 0);
  const grouped = new Set(sections.flatMap((section) => section.fields.map(([fieldName]) => fieldName)));
  const details = (shown: typeof fields) =>
    shown.map(([fieldName, field]) => ({
      name: fieldName,
      label: label(fieldName, field),
      value: <FieldValue row={record} name={fieldName} field={field} />,
    }));
  const who = (relation: string) => (record[relation] as { fullName?: string } | null)?.fullName;
  return (
    <>
      <Card withBorder component="section" aria-label={t('show.details')}>
        <DetailList details={details(fields.filter(([fieldName]) => !grouped.has(fieldName)))} />
        <Text size="xs" c="dimmed" mt="md">
          {t('show.created', { at: format.dateTime(String(record.createdAt)), by: who('createdBy') ?? '—' })}
          {' · '}
          {t('show.updated', { at: format.dateTime(String(record.updatedAt)), by: who('updatedBy') ?? '—' })}
        </Text>
      </Card>
      {sections.map(({ group, fields: shown }) => (
        <Card key={group.id} withBorder component="section" aria-labelledby={`group-${group.id}`}>
          <Title order={2} size="h4" mb="sm" id={`group-${group.id}`}>
            {group.name}
          </Title>
          <DetailList details={details(shown)} />
        </Card>
      ))}
    </>
  );
}

/**
 * What a resource's page shows beyond the generic parts (a fund's analytics):
 * drawn after the record's details, in place of the relation panels it names.
 */
export interface RecordSection {
  Component: ComponentType<{ id: number; record: Row }>;
  /** Relations the section shows itself: their generic panels are left out. */
  relations?: readonly string[];
}

/**
 * A record's history on its page (features/history, handed in by the router:
 * entity/ does not import features/): the activity timeline, and on the page
 * of a deleted record its restore.
 */
export interface RecordHistoryParts {
  Timeline: ComponentType<{ resource: string; id: number; version: number }>;
  Deleted: ComponentType<{ resource: string; id: number }>;
}

/** `/companies/7/show`: every field of the record, then its related records, tasks, notes, files and activity timeline. */
export function ShowPage({
  resource,
  section,
  history,
}: {
  resource: string;
  section?: RecordSection;
  history?: RecordHistoryParts;
}) {
  const { t } = useTranslation(['record', 'common', 'entities']);
  const { entity, ready } = useEntity(resource);
  const id = Number(useParams().id);
  const localized = useLocalizedPath();
  const navigate = useNavigate();
  const may = useMay(resource);
  const [confirming, { open: confirm, close: cancel }] = useDisclosure(false);
  const join = useShownJoins(resource);
  // Once deleted, the record is no longer read: reading it again would answer "not found" over the list it left for.
  const [deleted, setDeleted] = useState(false);
  const {
    data: loaded,
    error,
    isLoading,
  } = useRecordQuery({ resource, id, join }, { skip: !Number.isSafeInteger(id) || deleted });
  const [remove, removing] = useDeleteRecordMutation(resource);
  const listPath = localized(listPathOf(resource) ?? '/');

  if (isLoading || !ready || deleted) return <Loader size="sm" role="status" aria-label={t('common:list.loading')} />;
  // A record read before and gone since (back to its page after a delete) is not shown from the cache.
  const record = error ? undefined : loaded;
  if (!record) {
    return (
      <Alert color="red" role="alert" title={t('show.missingTitle')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{isApiFailure(error) ? error.message : t('show.missing')}</Text>
          <Anchor component={Link} to={listPath} size="sm">
            {t('show.backToList', { what: t(`entities:resources.${resource}.other`) })}
          </Anchor>
          {history && attachableEntities.includes(resource) && Number.isSafeInteger(id) ? (
            <Suspense fallback={null}>
              <history.Deleted resource={resource} id={id} />
            </Suspense>
          ) : null}
        </Stack>
      </Alert>
    );
  }

  const name = recordName(entity, record);
  const onDelete = async () => {
    setDeleted(true);
    const result = await remove(id);
    if ('error' in result) {
      setDeleted(false);
      return;
    }
    cancel();
    toast.success(t('show.deleted', { name }));
    // The deleted record's page leaves the history: Back goes where the user was before it.
    navigate(listPath, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Text c="dimmed" size="sm">
            {t(`entities:resources.${resource}.one`)}
          </Text>
          <Title order={1} size="h2">
            {name}
          </Title>
        </div>
        <Group gap="xs">
          {may('update') ? (
            <Button
              component={Link}
              to={localized(recordPath(resource, id, 'edit') ?? '/')}
              leftSection={<IconPencil size={16} aria-hidden />}
            >
              {t('common:actions.edit')}
            </Button>
          ) : null}
          {may('delete') ? (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={confirm}>
              {t('common:actions.delete')}
            </Button>
          ) : null}
        </Group>
      </Group>

      <RecordDetails resource={resource} record={record} />
      {section ? <section.Component id={id} record={record} /> : null}

      {Object.entries(entity.relations ?? {})
        .filter(([relation]) => !section?.relations?.includes(relation))
        .map(([relation, description]) => (
          <RelationPanel key={relation} resource={resource} id={id} relation={relation} description={description} />
        ))}
      {attachableEntities.includes(resource) ? (
        <>
          <TasksPanel resource={resource} id={id} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            <NotesPanel resource={resource} id={id} />
            <FilesPanel resource={resource} id={id} />
          </SimpleGrid>
          {history ? (
            <Suspense fallback={<Loader size="sm" role="status" aria-label={t('common:list.loading')} />}>
              <history.Timeline resource={resource} id={id} version={Number(record.version)} />
            </Suspense>
          ) : null}
        </>
      ) : null}

      <ConfirmDelete
        opened={confirming}
        title={t('show.deleteTitle', { name })}
        working={removing.isLoading}
        onConfirm={() => void onDelete()}
        onCancel={cancel}
      >
        {t('show.deleteText')}
      </ConfirmDelete>
    </Stack>
  );
}
