import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Row } from '../store/resource-slices.ts';
import { LoadMore } from './load-more.tsx';
import { PANEL_PAGE_SIZE, useListInfiniteQuery } from './record-api.ts';
import { useMay } from './record-routes.ts';
import { localToday, MarkDoneButton, TASKS, TaskDue, TaskTitle } from './task-parts.tsx';

// The form and its field widgets load when the user first adds a task, not with the record's page.
const CreateModal = lazy(async () => ({ default: (await import('./create-modal.tsx')).CreateModal }));

type Status = 'Open' | 'Done';

/** One page-by-page list of the record's tasks of one status: open ones soonest due first, done ones latest due first. */
function useTasksOf(resource: string, id: number, status: Status, skip: boolean) {
  const params = useMemo<[string, string][]>(
    () => [
      ['filter[entity][eq]', resource],
      ['filter[recordId][eq]', String(id)],
      ['filter[status][eq]', status],
      ['select', 'title,dueDate,status,version,ownerId'],
      ['join', 'owner(fullName)'],
      ['sort', status === 'Open' ? 'dueDate' : '-dueDate'],
      ['pageSize', PANEL_PAGE_SIZE],
    ],
    [resource, id, status],
  );
  return useListInfiniteQuery({ resource: TASKS, params }, { skip });
}

function TaskRow({ task, today, open, mayUpdate }: { task: Row; today: string; open: boolean; mayUpdate: boolean }) {
  const { t } = useTranslation(['record']);
  const owner = (task.owner as { fullName?: string } | null)?.fullName;
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="task">
      <div>
        <TaskTitle task={task} />
        <TaskDue task={task} today={today} open={open} />
        <Text size="xs" c="dimmed">
          {owner ? t('tasks.owner', { name: owner }) : t('tasks.noOwner')}
        </Text>
      </div>
      {open && mayUpdate ? <MarkDoneButton task={task} /> : null}
    </Group>
  );
}

/**
 * The tasks about a record: its open tasks soonest due first (overdue ones
 * marked), each with its owner and a way to mark it done, then its done
 * tasks; "Add task" opens the task form already about this record.
 */
export function TasksPanel({ resource, id }: { resource: string; id: number }) {
  const { t } = useTranslation(['record', 'common']);
  const may = useMay(TASKS);
  const readable = may('read');
  const open = useTasksOf(resource, id, 'Open', !readable);
  const done = useTasksOf(resource, id, 'Done', !readable);
  const [adding, setAdding] = useState(false);
  const presets = useMemo<Row>(() => ({ id: 0, entity: resource, recordId: id, status: 'Open' }), [resource, id]);
  if (!readable) return null;
  const today = localToday();
  const mayUpdate = may('update');
  const sections = [
    { key: 'open', open: true, pages: open, rows: open.data?.pages.flatMap((page) => page.data) ?? [] },
    { key: 'done', open: false, pages: done, rows: done.data?.pages.flatMap((page) => page.data) ?? [] },
  ];
  const none = sections.every((section) => section.rows.length === 0 && section.pages.isSuccess);

  return (
    <Card withBorder component="section" aria-label={t('tasks.title')} data-testid="tasks-panel">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('tasks.title')}
        </Title>
        {may('create') ? (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => setAdding(true)}
          >
            {t('tasks.add')}
          </Button>
        ) : null}
      </Group>
      {none ? (
        <Text c="dimmed" size="sm">
          {t('tasks.none')}
        </Text>
      ) : (
        <Stack gap="md">
          {sections.map((section) =>
            section.rows.length > 0 ? (
              <Stack key={section.key} gap="sm" data-testid={`${section.key}-tasks`}>
                <Title order={3} size="h6" c="dimmed">
                  {t(`tasks.${section.key}`)}
                </Title>
                {section.rows.map((task) => (
                  <TaskRow key={task.id} task={task} today={today} open={section.open} mayUpdate={mayUpdate} />
                ))}
                <LoadMore pages={section.pages} />
              </Stack>
            ) : null,
          )}
        </Stack>
      )}
      {adding ? (
        <Suspense fallback={null}>
          {/* Already about this record and open; after creating, the page stays and the task shows here. */}
          <CreateModal
            resource={TASKS}
            presets={presets}
            onClose={() => setAdding(false)}
            onCreated={() => setAdding(false)}
          />
        </Suspense>
      ) : null}
    </Card>
  );
}
