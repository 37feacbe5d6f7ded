import { Button } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListPage } from '../../entity/list-page.tsx';
import { listPathOf } from '../../entity/resource-routes.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';

/** `/custom-data`: the custom fields of every record type, and the way to their groups. */
export function CustomDataPage() {
  const { t } = useTranslation('entities');
  const localized = useLocalizedPath();
  return (
    <ListPage
      resource="entityFieldTypes"
      rootPath="/custom-data"
      toolbar={
        <Button
          component={Link}
          to={localized(listPathOf('customFieldGroups') ?? '/')}
          size="xs"
          variant="default"
          leftSection={<IconFolders size={14} aria-hidden />}
        >
          {t('resources.customFieldGroups.other')}
        </Button>
      }
    />
  );
}
