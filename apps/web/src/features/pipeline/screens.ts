import type { RecordSection } from '../../entity/show-page.tsx';
import { loadFeatureNamespaces } from '../../i18n/i18n.ts';

/**
 * The pipeline's screens, each module fetched when its route is first
 * visited, with the `pipeline` texts: the router imports this small module
 * alone (see features/funds/screens.ts for why).
 */
export const pipelineScreens = {
  dealsListPage: async () => (await withTexts(import('./deals-list-page.tsx'))).DealsListPage,
  boardPage: async () => (await withTexts(import('./board-page.tsx'))).BoardPage,
  /** A deal's time in its stage and its stage changes, on its page (from the record history). */
  stageSection: async (): Promise<RecordSection> => ({
    Component: (await withTexts(import('./stage-history-section.tsx'))).StageHistorySection,
  }),
};

async function withTexts<T>(module: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([module, loadFeatureNamespaces('pipeline')]);
  return loaded;
}
