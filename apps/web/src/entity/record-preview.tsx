import { recordName } from '@data-platform/shared/entities/record-name';
import { attachableEntities } from '@data-platform/shared/entities/registry';
import { Alert, Anchor, Button, CloseButton, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useEntity } from './custom-fields.ts';
import { isTyping } from './grid-keyboard.ts';
import { NotesPanel } from './notes-panel.tsx';
import { useRecordQuery } from './record-api.ts';
import classes from './record-preview.module.css';
import { recordPath, useMay } from './record-routes.ts';
import { RecordDetails, useShownJoins } from './show-page.tsx';

export interface RecordPreviewProps {
  resource: string;
  id: number;
  /** Where Edit leads (the edit page, or the edit modal over the list). */
  editHref: string;
  onClose: () => void;
}

/**
 * A record previewed beside its list (`?preview=<id>`): its fields as its
 * page shows them, Edit, a link to its page, and its notes. Escape or the
 * close button closes it; the list stays usable beside it.
 */
export function RecordPreview({ resource, id, editHref, onClose }: RecordPreviewProps) {
  const { t } = useTranslation(['grid', 'common', 'entities']);
  const { entity, ready } = useEntity(resource);
  const join = useShownJoins(resource);
  const localized = useLocalizedPath();
  const may = useMay(resource);
  const { data: loaded, error, isLoading } = useRecordQuery({ resource, id, join });
  const record = error ? undefined : loaded;
  const name = record ? recordName(entity, record) : '';
  const showPath = recordPath(resource, id, 'show');

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Not while the user writes a note: Escape there must not throw the draft away.
    if (event.key !== 'Escape' || event.defaultPrevented || isTyping(event.target)) return;
    event.preventDefault();
    onClose();
  };

  return (
    <aside
      className={classes.panel}
      aria-label={t('grid:preview.label', { name })}
      data-testid="record-preview"
      onKeyDown={onKeyDown}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Text c="dimmed" size="sm">
              {t(`entities:resources.${resource}.one`)}
            </Text>
            <Title order={2} size="h3">
              {name}
            </Title>
          </div>
          <CloseButton aria-label={t('grid:preview.close')} onClick={onClose} />
        </Group>
        {isLoading || !ready ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
        {!isLoading && ready && !record ? (
          <Alert color="red" role="alert">
            {t('grid:preview.missing')}
          </Alert>
        ) : null}
        {record ? (
          <>
            <Group gap="xs">
              {may('update') ? (
                <Button component={Link} to={editHref} size="xs" leftSection={<IconPencil size={14} aria-hidden />}>
                  {t('common:actions.edit')}
                </Button>
              ) : null}
              {showPath ? (
                <Anchor component={Link} to={localized(showPath)} size="sm">
                  {t('grid:preview.openPage')}
                </Anchor>
              ) : null}
            </Group>
            <RecordDetails resource={resource} record={record} />
            {attachableEntities.includes(resource) ? <NotesPanel resource={resource} id={id} /> : null}
          </>
        ) : null}
      </Stack>
    </aside>
  );
}
