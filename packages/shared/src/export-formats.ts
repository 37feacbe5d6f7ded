/**
 * The formats a list is exported as, streamed (`GET /{resource}/export`) or
 * by a job (`/api/v1/exports`). No zod here: the web list's export menu
 * imports this on its first screen, whose JavaScript has a budget (the
 * `web-bundle` journey); the schemas that check a format are in export-jobs.ts.
 */
export const exportFormats = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof exportFormats)[number];
