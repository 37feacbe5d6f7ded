import { Menu, useMantineColorScheme } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { type Language, languageOfPath, languages, stripLanguage, withLanguage } from '../i18n/languages.ts';
import { type ThemeMode, themeModes, toColorScheme, toThemeMode } from './theme.ts';

const themeIcons: Record<ThemeMode, typeof IconSun> = { light: IconSun, dark: IconMoon, system: IconDeviceDesktop };
const check = <IconCheck size={16} aria-hidden />;

/** Theme choices for a Mantine menu: light, dark, system; the current one is marked. */
export function ThemeMenuItems() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = toThemeMode(colorScheme);
  return (
    <>
      <Menu.Label>{t('userMenu.theme')}</Menu.Label>
      {themeModes.map((mode) => {
        const Icon = themeIcons[mode];
        return (
          <Menu.Item
            key={mode}
            leftSection={<Icon size={16} aria-hidden />}
            rightSection={mode === current ? check : null}
            aria-current={mode === current ? 'true' : undefined}
            data-testid={`theme-${mode}`}
            onClick={() => setColorScheme(toColorScheme(mode))}
          >
            {t(`theme.${mode}`)}
          </Menu.Item>
        );
      })}
    </>
  );
}

/**
 * Language choices for a Mantine menu. On an address with a language prefix
 * the prefix changes too, so that the address keeps naming what is shown.
 */
export function LanguageMenuItems() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const choose = (language: Language) => {
    void i18n.changeLanguage(language);
    if (languageOfPath(location.pathname)) {
      void navigate(`${withLanguage(stripLanguage(location.pathname), language)}${location.search}`);
    }
  };
  return (
    <>
      <Menu.Label>{t('userMenu.language')}</Menu.Label>
      {languages.map((language) => (
        <Menu.Item
          key={language}
          lang={language}
          leftSection={<IconLanguage size={16} aria-hidden />}
          rightSection={language === i18n.resolvedLanguage ? check : null}
          aria-current={language === i18n.resolvedLanguage ? 'true' : undefined}
          data-testid={`language-${language}`}
          onClick={() => choose(language)}
        >
          {t(`languages.${language}`)}
        </Menu.Item>
      ))}
    </>
  );
}
