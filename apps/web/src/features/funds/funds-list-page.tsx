import { Button } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListPage } from '../../entity/list-page.tsx';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';

/** The funds list: the generic list, with a way to the comparison of funds in its header. */
export function FundsListPage() {
  const { t } = useTranslation('funds');
  const localized = useLocalizedPath();
  return (
    <ListPage
      resource="funds"
      rootPath="/funds"
      toolbar={
        <Button
          component={Link}
          to={localized('/funds/compare')}
          variant="default"
          leftSection={<IconChartBar size={16} aria-hidden />}
        >
          {t('compare.link')}
        </Button>
      }
    />
  );
}
