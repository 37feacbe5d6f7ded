import { Button, Group, type MantineSpacing } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The part of a page-by-page query that "Load More..." reads. */
interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * "Load More..." under a panel's rows while the server has more pages,
 * busy while the next one comes; nothing once every row is shown.
 */
export function LoadMore({ pages, mt }: { pages: MorePages; mt?: MantineSpacing }) {
  const { t } = useTranslation('common');
  if (!pages.hasNextPage) return null;
  return (
    <Group justify="center" mt={mt}>
      <Button variant="default" size="xs" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
        {t('actions.loadMore')}
      </Button>
    </Group>
  );
}
