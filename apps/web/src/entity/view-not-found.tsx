import { Button, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import type { ListViewStatus } from './use-list-view.ts';

/**
 * What a list shows instead of its rows while the saved view its address
 * names is read, or when no view the user may see is saved there: a clear
 * "not found" with the way back to the list, never the default list silently.
 */
export function ViewStatusScreen({
  status,
  rootPath,
  plural,
}: {
  status: Exclude<ListViewStatus, 'ready'>;
  rootPath: string;
  plural: string;
}) {
  const { t } = useTranslation();
  const localized = useLocalizedPath();
  if (status === 'loading') return <Loader size="sm" role="status" aria-label={t('views.loading')} />;
  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        {plural}
      </Title>
      <Paper withBorder p="md" role="alert">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            {t('views.notFoundTitle')}
          </Title>
          <Text size="sm">{t('views.notFoundText')}</Text>
          <Button
            component={Link}
            to={localized(rootPath)}
            variant="default"
            size="xs"
            leftSection={<IconArrowLeft size={14} aria-hidden />}
          >
            {t('views.backToList', { list: plural })}
          </Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
