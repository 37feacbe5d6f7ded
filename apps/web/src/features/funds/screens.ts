import type { RecordSection } from '../../entity/show-page.tsx';
import { loadFeatureNamespaces } from '../../i18n/i18n.ts';

/**
 * The funds screens, each module fetched when its route is first visited. The
 * router imports this small module alone (one dynamic import with no
 * dependencies to preload): a dynamic import of each page from the router
 * would list every chunk the page needs in the router's code, which the
 * sign-in screen fetches (its 200 KB budget, issue #11).
 */
export const fundScreens = {
  listPage: async () => (await withTexts(import('./funds-list-page.tsx'))).FundsListPage,
  comparisonPage: async () => (await withTexts(import('./fund-comparison-page.tsx'))).FundComparisonPage,
  fundSection: async (): Promise<RecordSection> => ({
    Component: (await withTexts(import('./fund-analytics-section.tsx'))).FundAnalyticsSection,
    // The section draws the fund's cash flows itself, with add and edit.
    relations: ['cashFlows'],
  }),
  performanceSection: async (): Promise<RecordSection> => ({
    Component: (await withTexts(import('./performance-source-section.tsx'))).PerformanceSourceSection,
  }),
};

/** A funds screen's module once the `funds` texts are there too. */
async function withTexts<T>(module: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([module, loadFeatureNamespaces('funds')]);
  return loaded;
}
