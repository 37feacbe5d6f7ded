import { z } from 'zod';
import { filterOps } from './fields/field-types.ts';
import { MAX_VIEW_SLUG, slugOf, VIEW_SLUG_PATTERN } from './saved-view-slug.ts';

export { MAX_VIEW_SLUG, slugOf };

/**
 * Saved views of the lists, kept on the server per user (`/api/v1/views`):
 * what a layout of the web app holds, under a name and a slug that make its
 * address (`/companies/views/<slug>`). Field names are checked against the
 * entity (and its custom fields) by the server.
 */

export const MAX_VIEW_NAME = 100;
/** The largest body a view's write takes: a view is a few hundred bytes. */
export const MAX_VIEW_BODY_BYTES = 64 * 1024;

/** `<rootPath>/views/<slug>`: a lowercase path segment. */
export const viewSlugSchema = z
  .string()
  .min(1)
  .max(MAX_VIEW_SLUG)
  .regex(VIEW_SLUG_PATTERN, 'Expected lowercase letters, digits and dashes');

/** A list's root path (`/companies`). */
export const viewRootPathSchema = z
  .string()
  .max(100)
  .regex(/^\/[a-z0-9-]+$/, 'Expected a list path such as /companies');

/** One filter condition, as the list grammar writes it (`filter[field][op]=value`). */
export const viewFilterSchema = z.strictObject({
  field: z.string().min(1).max(100),
  op: z.enum(filterOps),
  value: z.string().max(10_000).optional(),
});

/** What a saved view holds: shown columns, filters, sort (`-revenue,name`) and search text. */
export const viewStateSchema = z.strictObject({
  shows: z.array(z.string().min(1).max(100)).max(200).optional(),
  filters: z.array(viewFilterSchema).max(50).optional(),
  sort: z.string().max(1000).optional(),
  q: z.string().max(200).optional(),
});
export type ViewState = z.infer<typeof viewStateSchema>;

const viewName = z.string().trim().min(1).max(MAX_VIEW_NAME);

export const createViewSchema = z.strictObject({
  rootPath: viewRootPathSchema,
  name: viewName,
  /** Made from the name when absent (unique among the owner's views of the list); 409 when given and taken. */
  slug: viewSlugSchema.optional(),
  shared: z.boolean().optional(),
  state: viewStateSchema,
});
export type CreateView = z.infer<typeof createViewSchema>;

export const updateViewSchema = z.strictObject({
  name: viewName.optional(),
  shared: z.boolean().optional(),
  state: viewStateSchema.optional(),
});
export type UpdateView = z.infer<typeof updateViewSchema>;

export const savedViewSchema = z.object({
  id: z.number(),
  rootPath: z.string(),
  slug: z.string(),
  name: z.string(),
  shared: z.boolean(),
  state: viewStateSchema,
  /** Whether the caller owns it (and may change or delete it). */
  mine: z.boolean(),
  ownerId: z.number(),
  /** The owner's name, for views shared by someone else. */
  ownerName: z.string().nullable(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewListSchema = z.object({ data: z.array(savedViewSchema) });
