import { lazy } from 'react';
import type { RecordHistoryParts } from '../../entity/show-page.tsx';
import { loadFeatureNamespaces } from '../../i18n/i18n.ts';

/** The history's parts of a record's page, each loaded with its texts when the page first shows it. */
export const historyParts: RecordHistoryParts = {
  Timeline: lazy(async () => {
    const [loaded] = await Promise.all([import('./history-timeline.tsx'), loadFeatureNamespaces('history')]);
    return loaded;
  }),
  Deleted: lazy(async () => {
    const [loaded] = await Promise.all([import('./deleted-record.tsx'), loadFeatureNamespaces('history')]);
    return loaded;
  }),
};

/** The retention period's control on the users screen (administrators), loaded with its texts. */
export const RetentionSetting = lazy(async () => {
  const [loaded] = await Promise.all([import('./retention-setting.tsx'), loadFeatureNamespaces('history')]);
  return loaded;
});
