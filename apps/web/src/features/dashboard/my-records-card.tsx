import type { MyRecordCount } from '@data-platform/shared/summaries';
import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { filterSearch, listPathOf } from '../../entity/resource-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { formatTotal } from '../../i18n/totals.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';

/**
 * How many records of each owned type name the signed-in user as owner (the
 * summaries' `mine`; "about 12K" when estimated), each a link to its list
 * filtered on the owner.
 */
export function MyRecordsCard({ mine }: { mine: MyRecordCount[] }) {
  const { t } = useTranslation(['dashboard', 'common', 'entities']);
  const format = useFormat();
  const localized = useLocalizedPath();
  const title = t('myRecords');
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid="my-records">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {mine.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('noMyRecords')}
        </Text>
      ) : (
        <Stack gap="xs">
          {mine.map(({ resource, field, userId, total, totalExact }) => {
            const list = listPathOf(resource);
            const label = t(`entities:resources.${resource}.other`);
            const figure = (
              <Group key={resource} justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm">{label}</Text>
                <Text size="sm" fw={600}>
                  {formatTotal(total, totalExact, format, t)}
                </Text>
              </Group>
            );
            return list ? (
              <Anchor
                key={resource}
                component={Link}
                to={localized(`${list}${filterSearch(field, 'eq', String(userId))}`)}
                underline="hover"
                c="inherit"
              >
                {figure}
              </Anchor>
            ) : (
              <div key={resource}>{figure}</div>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
