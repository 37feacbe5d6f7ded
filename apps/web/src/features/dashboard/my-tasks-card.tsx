import { findEntity } from '@data-platform/shared/entities/registry';
import { Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ReferenceName } from '../../entity/field-widgets/reference-name.tsx';
import { useListInfiniteQuery } from '../../entity/record-api.ts';
import { useMay } from '../../entity/record-routes.ts';
import { localToday, MarkDoneButton, TASKS, TaskDue, TaskTitle } from '../../entity/task-parts.tsx';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppSelector } from '../../store/hooks.ts';
import type { Row } from '../../store/resource-slices.ts';
import { recordLink } from './record-link.ts';

/** The card lists this many of the soonest due; the tasks list has them all. */
const SHOWN = '10';

function TaskItem({ task, today, mayUpdate }: { task: Row; today: string; mayUpdate: boolean }) {
  const { t } = useTranslation(['dashboard', 'entities']);
  const localized = useLocalizedPath();
  const entity = String(task.entity ?? '');
  const recordId = Number(task.recordId);
  const aboutPath = findEntity(entity) ? recordLink(entity, recordId) : undefined;
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="my-task">
      <div>
        <TaskTitle task={task} />
        <TaskDue task={task} today={today} />
        <Text size="xs" c="dimmed">
          {t(`entities:resources.${entity}.one`, { defaultValue: entity })}
          {': '}
          {aboutPath ? (
            <Anchor component={Link} to={localized(aboutPath)} size="xs">
              <ReferenceName resource={entity} id={String(recordId)} />
            </Anchor>
          ) : (
            <ReferenceName resource={entity} id={String(recordId)} />
          )}
        </Text>
      </div>
      {mayUpdate ? <MarkDoneButton task={task} /> : null}
    </Group>
  );
}

/**
 * The signed-in user's open tasks, soonest due first (overdue ones marked),
 * each a link to the task and to the record it is about, each with a way to
 * mark it done: it then leaves the card (the tasks lists are read again).
 */
export function MyTasksCard() {
  const { t } = useTranslation(['dashboard']);
  const may = useMay(TASKS);
  const userId = useAppSelector((state) => state.auth.currentUser?.user.id);
  const ownerField = findEntity(TASKS)?.ownedBy ?? 'ownerId';
  const readable = may('read') && userId !== undefined;
  const list = useListInfiniteQuery(
    {
      resource: TASKS,
      params: [
        ['select', 'title,dueDate,entity,recordId,version'],
        [`filter[${ownerField}][eq]`, String(userId)],
        ['filter[status][eq]', 'Open'],
        ['sort', 'dueDate'],
        ['pageSize', SHOWN],
      ],
    },
    { skip: !readable },
  );
  if (!readable) return null;
  const tasks = list.data?.pages[0]?.data ?? [];
  const today = localToday();
  const title = t('myOpenTasks');
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid="my-open-tasks">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {list.isFetching ? <Loader size="xs" role="status" aria-label={t('common:list.loading')} /> : null}
      </Group>
      {list.isSuccess && tasks.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('noOpenTasks')}
        </Text>
      ) : (
        <Stack gap="sm">
          {tasks.map((task) => (
            <TaskItem key={task.id} task={task} today={today} mayUpdate={may('update')} />
          ))}
        </Stack>
      )}
    </Card>
  );
}
