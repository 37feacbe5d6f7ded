import { ActionIcon, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFormat } from '../i18n/format.ts';
import type { Row } from '../store/resource-slices.ts';
import { LoadMore } from './load-more.tsx';
import { MarkdownBody } from './markdown-body.tsx';
import {
  PANEL_PAGE_SIZE,
  useCreateRecordMutation,
  useDeleteRecordMutation,
  useListInfiniteQuery,
  useUpdateRecordMutation,
} from './record-api.ts';
import { useMay } from './record-routes.ts';

const NOTES = 'notes';

/** A record's notes, newest first: add, edit and delete markdown notes. */
export function NotesPanel({ resource, id }: { resource: string; id: number }) {
  const { t } = useTranslation(['record', 'common']);
  const may = useMay(NOTES);
  const format = useFormat();
  const params = useMemo<[string, string][]>(
    () => [
      ['filter[entity][eq]', resource],
      ['filter[recordId][eq]', String(id)],
      ['select', 'body,createdAt,version,createdById'],
      ['join', 'createdBy(fullName)'],
      ['sort', '-createdAt'],
      ['pageSize', PANEL_PAGE_SIZE],
    ],
    [resource, id],
  );
  const pages = useListInfiniteQuery({ resource: NOTES, params }, { skip: !may('read') });
  const [create, creating] = useCreateRecordMutation(NOTES);
  const [draft, setDraft] = useState('');
  const [editing, setEditing] = useState<{ id: number; body: string } | null>(null);
  const [update, updating] = useUpdateRecordMutation(NOTES);
  const [remove] = useDeleteRecordMutation(NOTES);
  if (!may('read')) return null;
  const notes = pages.data?.pages.flatMap((page) => page.data) ?? [];

  const add = async () => {
    const result = await create({ entity: resource, recordId: id, body: draft });
    if ('error' in result) return;
    setDraft('');
    toast.success(t('notes.added'));
  };
  const save = async (note: Row) => {
    if (!editing) return;
    const result = await update({
      id: note.id,
      version: Number(note.version),
      body: { body: editing.body },
    });
    if ('error' in result) return;
    setEditing(null);
    toast.success(t('notes.saved'));
  };

  return (
    <Card withBorder component="section" aria-label={t('notes.title')}>
      <Title order={2} size="h4" mb="xs">
        {t('notes.title')}
      </Title>
      <Stack gap="sm">
        {may('create') ? (
          <Stack gap="xs">
            <Textarea
              label={t('notes.new')}
              description={t('notes.markdown')}
              autosize
              minRows={2}
              value={draft}
              onChange={(e) => setDraft(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button size="xs" disabled={!draft.trim()} loading={creating.isLoading} onClick={() => void add()}>
                {t('notes.add')}
              </Button>
            </Group>
          </Stack>
        ) : null}
        {notes.length === 0 && !pages.isFetching ? (
          <Text c="dimmed" size="sm">
            {t('notes.none')}
          </Text>
        ) : null}
        {notes.map((note) => (
          <Card key={note.id} withBorder padding="sm" component="article" data-testid="note">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed">
                {t('notes.by', {
                  name: (note.createdBy as { fullName?: string } | null)?.fullName ?? '—',
                  at: format.dateTime(String(note.createdAt)),
                })}
              </Text>
              <Group gap={4} wrap="nowrap">
                {may('update') ? (
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('notes.edit')}
                    onClick={() => setEditing({ id: note.id, body: String(note.body ?? '') })}
                  >
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                ) : null}
                {may('delete') ? (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('notes.delete')}
                    onClick={() =>
                      void remove(note.id).then((result) => {
                        if (!('error' in result)) toast.success(t('notes.deleted'));
                      })
                    }
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                ) : null}
              </Group>
            </Group>
            {editing?.id === note.id ? (
              <Stack gap="xs" mt="xs">
                <Textarea
                  label={t('notes.edit')}
                  autosize
                  minRows={2}
                  value={editing.body}
                  onChange={(e) => setEditing({ id: note.id, body: e.currentTarget.value })}
                />
                <Group justify="flex-end" gap="xs">
                  <Button size="xs" variant="default" onClick={() => setEditing(null)}>
                    {t('common:actions.cancel')}
                  </Button>
                  <Button
                    size="xs"
                    disabled={!editing.body.trim()}
                    loading={updating.isLoading}
                    onClick={() => void save(note)}
                  >
                    {t('common:actions.save')}
                  </Button>
                </Group>
              </Stack>
            ) : (
              <MarkdownBody text={String(note.body ?? '')} />
            )}
          </Card>
        ))}
        <LoadMore pages={pages} />
      </Stack>
    </Card>
  );
}
