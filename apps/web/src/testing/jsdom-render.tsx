import { MantineProvider } from '@mantine/core';
import i18next, { type i18n as I18n, type Resource } from 'i18next';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * For a component test under jsdom (`// @vitest-environment jsdom`): registers
 * the suite's hooks (what React and Mantine ask of a browser jsdom is not,
 * English texts of `resources` (`common` the default namespace, as in the app), a fresh container for each test) and
 * returns `render`, which draws a node inside Mantine and i18next and
 * returns its container.
 */
export function jsdomRender(resources: Resource): { render: (node: ReactNode) => HTMLDivElement; i18n: I18n } {
  const i18n = i18next.createInstance();
  let container: HTMLDivElement;
  let root: Root;
  beforeAll(async () => {
    // React reads this to know that updates are wrapped in act().
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    // Mantine asks the colour scheme of a browser jsdom is not.
    window.matchMedia ??= ((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
    // Mantine's scroll area watches its size, which jsdom does not lay out.
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
    await i18n
      .use(initReactI18next)
      .init({ lng: 'en', resources, defaultNS: 'common', interpolation: { escapeValue: false } });
  });
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });
  const render = (node: ReactNode) => {
    act(() =>
      root.render(
        <MantineProvider>
          <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
        </MantineProvider>,
      ),
    );
    return container;
  };
  return { render, i18n };
}
