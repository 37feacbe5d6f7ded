import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';

export function BackToSignIn() {
  const { t } = useTranslation();
  const localized = useLocalizedPath();
  return (
    <Anchor component={Link} to={localized('/sign-in')} size="sm">
      {t('actions.backToSignIn')}
    </Anchor>
  );
}
