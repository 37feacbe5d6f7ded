import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { describeError } from './describe-error.ts';
import { useInsideMain } from './main-landmark.ts';

/** The error element of the router: a heading and a paragraph, and a way back. */
export function ErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation(['errors', 'common']);
  const localized = useLocalizedPath();
  const { heading, text } = describeError(error);
  // Under the shell, the shell's main holds this page: one main landmark only.
  const insideMain = useInsideMain();

  useEffect(() => {
    if (heading === 'oopsHeading') console.error(error);
  }, [error, heading]);

  return (
    <Container size="sm" py={64} component={insideMain ? 'div' : 'main'} id={insideMain ? undefined : 'main'}>
      <Stack gap="md">
        <Title order={1}>{t(heading)}</Title>
        <Text size="lg" data-testid="error-text">
          {'literal' in text ? text.literal : t(text.key)}
        </Text>
        <Anchor component={Link} to={localized('/')}>
          {t('common:actions.backHome')}
        </Anchor>
      </Stack>
    </Container>
  );
}
