import { type Menu, useMantineColorScheme } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { type Language, languageOfPath, languages, stripLanguage, withLanguage } from '../i18n/languages.ts';
import { type ThemeMode, themeModes, toColorScheme, toThemeMode } from './theme.ts';

const themeIcons: Record<ThemeMode, typeof IconSun> = { light: IconSun, dark: IconMoon, system: IconDeviceDesktop };
const check = <IconCheck size={16} aria-hidden />;

/** The Menu the items go in, given by the menu that loaded it (menus load on first use, issue #11). */
type MenuParts = { menu: typeof Menu };

/** Theme choices for a Mantine menu: light, dark, system; the current one is marked. */
export function ThemeMenuItems({ menu }: MenuParts) {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const current = toThemeMode(colorScheme);
  return (
    <>
      <menu.Label>{t('userMenu.theme')}</menu.Label>
      {themeModes.map((mode) => {
        const Icon = themeIcons[mode];
        return (
          <menu.Item
            key={mode}
            leftSection={<Icon size={16} aria-hidden />}
            rightSection={mode === current ? check : null}
            aria-current={mode === current ? 'true' : undefined}
            data-testid={`theme-${mode}`}
            onClick={() => setColorScheme(toColorScheme(mode))}
          >
            {t(`theme.${mode}`)}
          </menu.Item>
        );
      })}
    </>
  );
}

/**
 * Language choices for a Mantine menu. On an address with a language prefix
 * the prefix changes too, so that the address keeps naming what is shown.
 */
export function LanguageMenuItems({ menu }: MenuParts) {
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
      <menu.Label>{t('userMenu.language')}</menu.Label>
      {languages.map((language) => (
        <menu.Item
          key={language}
          lang={language}
          leftSection={<IconLanguage size={16} aria-hidden />}
          rightSection={language === i18n.resolvedLanguage ? check : null}
          aria-current={language === i18n.resolvedLanguage ? 'true' : undefined}
          data-testid={`language-${language}`}
          onClick={() => choose(language)}
        >
          {t(`languages.${language}`)}
        </menu.Item>
      ))}
    </>
  );
}
