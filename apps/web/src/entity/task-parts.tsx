import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../i18n/format.ts';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { Row } from '../store/resource-slices.ts';
import { useUpdateRecordMutation } from './record-api.ts';
import { recordPath } from './record-routes.ts';

// What the home page's "My open tasks" card and a record page's Tasks panel show alike (texts in the
// dashboard namespace, the card's first).

export const TASKS = 'tasks';

/** Today as a calendar date where the user is (`2026-01-31`), to compare with due dates. */
export function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A task's due date (`2026-01-31`), if it has one. */
export function dueDateOf(task: Row): string | undefined {
  return typeof task.dueDate === 'string' ? task.dueDate : undefined;
}

/** The task's title, a link to its page. */
export function TaskTitle({ task }: { task: Row }) {
  const localized = useLocalizedPath();
  const title = String(task.title ?? '');
  const taskPath = recordPath(TASKS, task.id, 'show');
  return taskPath ? (
    <Anchor component={Link} to={localized(taskPath)} size="sm" fw={600}>
      {title}
    </Anchor>
  ) : (
    <Text size="sm" fw={600}>
      {title}
    </Text>
  );
}

/** "Due 15 Jan 2020", in red with an Overdue badge when an open task's date has passed. */
export function TaskDue({ task, today, open = true }: { task: Row; today: string; open?: boolean }) {
  const { t } = useTranslation(['dashboard']);
  const format = useFormat();
  const due = dueDateOf(task);
  const overdue = open && due !== undefined && due < today;
  return (
    <Group gap="xs">
      <Text size="xs" c={overdue ? 'red' : 'dimmed'}>
        {due ? t('dueOn', { date: format.date(due) }) : t('noDueDate')}
      </Text>
      {overdue ? (
        <Badge color="red" size="xs" variant="light">
          {t('overdue')}
        </Badge>
      ) : null}
    </Group>
  );
}

/** Marks an open task done; the lists showing tasks are read again (the store invalidates them). */
export function MarkDoneButton({ task }: { task: Row }) {
  const { t } = useTranslation(['dashboard']);
  const [update, { isLoading }] = useUpdateRecordMutation(TASKS);
  return (
    <Button
      size="compact-xs"
      variant="light"
      loading={isLoading}
      aria-label={t('markDoneOf', { title: String(task.title ?? '') })}
      onClick={() => void update({ id: task.id, version: Number(task.version), body: { status: 'Done' } })}
    >
      {t('markDone')}
    </Button>
  );
}
