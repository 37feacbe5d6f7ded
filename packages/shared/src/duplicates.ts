import { z } from 'zod';
import { allFields, type EntityDescription, isWritable } from './entities/entity.ts';
import { entityList } from './entities/registry.ts';

/**
 * Likely duplicates and merging two records into one (decision 0032), for
 * every entity whose description says `duplicates: true`.
 */

/** The entities whose duplicates are listed and merged, in registry order. */
export const duplicateEntities: readonly EntityDescription[] = entityList.filter(
  (entity) => entity.duplicates && (entity.dedupKeys?.length ?? 0) > 0,
);

/** Pairs per page unless `limit` says otherwise, and the most a page holds. */
export const DUPLICATES_PAGE_SIZE = 20;
export const MAX_DUPLICATES_PAGE_SIZE = 50;

export const duplicatesQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_DUPLICATES_PAGE_SIZE)
    .default(DUPLICATES_PAGE_SIZE)
    .describe(`Pairs per page at most (1 to ${MAX_DUPLICATES_PAGE_SIZE}).`),
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, { error: 'This cursor is not valid; start again from the first page' })
    .optional()
    .describe("The previous page's `nextCursor`."),
});
export type DuplicatesQuery = z.infer<typeof duplicatesQuerySchema>;

/** Why two records look like the same thing: the same value of a key field, or names spelled alike. */
export const duplicateReasonSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sameValue'), field: z.string(), value: z.string() }),
  z.object({
    kind: z.literal('similarName'),
    field: z.string(),
    /** pg_trgm similarity of the two names, 0 to 1 (1: the same name, ignoring case). */
    score: z.number(),
  }),
]);
export type DuplicateReason = z.infer<typeof duplicateReasonSchema>;

/** One record of a pair, with every field the reader may read (what the merge dialog compares). */
export const duplicateRecordSchema = z
  .object({ id: z.number(), version: z.number(), name: z.string() })
  .extend({ values: z.record(z.string(), z.unknown()) });
export type DuplicateRecord = z.infer<typeof duplicateRecordSchema>;

export const duplicatePairSchema = z.object({
  /** The older record (the lower id) first. */
  records: z.tuple([duplicateRecordSchema, duplicateRecordSchema]),
  reasons: z.array(duplicateReasonSchema).min(1),
});
export type DuplicatePair = z.infer<typeof duplicatePairSchema>;

export const duplicatesPageSchema = z.object({
  data: z.array(duplicatePairSchema),
  /**
   * Pass as `cursor` for the next page; null when every record has been
   * looked at. A page may hold fewer pairs than `limit` (even none) and still
   * have a next one: each page looks at a bounded number of records.
   */
  nextCursor: z.string().nullable(),
});
export type DuplicatesPage = z.infer<typeof duplicatesPageSchema>;

const recordId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** "Not duplicates": the pair is no longer listed. */
export const dismissPairSchema = z.strictObject({
  ids: z
    .tuple([recordId, recordId])
    .refine(([a, b]) => a !== b, { error: 'Name two different records' })
    .describe('The two records that are not the same thing.'),
});
export type DismissPair = z.infer<typeof dismissPairSchema>;

/** Fields every row has that say who wrote it when, not what it is: not picked in a merge. */
export const bookkeepingFields: ReadonlySet<string> = new Set([
  'id',
  'createdAt',
  'updatedAt',
  'createdById',
  'updatedById',
  'version',
]);

/** The fields a merge picks a value for: the writable fields of the description (with its custom fields). */
export function mergeableFields(entity: EntityDescription): string[] {
  return Object.entries(allFields(entity))
    .filter(([name, field]) => !bookkeepingFields.has(name) && isWritable(field))
    .map(([name]) => name);
}

/** Whose value a merged record keeps for a field. */
export const mergePicks = ['survivor', 'merged'] as const;
export type MergePick = (typeof mergePicks)[number];

/**
 * `POST /{resource}/merge`: `picks` names, per writable field, whose value the
 * survivor keeps (the survivor's own when a field is not named). The fields
 * are checked against the entity's description with its custom fields by the
 * server; the web app builds the same schema from the description it has.
 */
export function mergeBodySchema(fields: readonly string[]) {
  const pick = z.enum(mergePicks);
  return z
    .strictObject({
      survivorId: recordId.describe('The record that stays.'),
      mergedId: recordId.describe('The record merged into it, then deleted.'),
      survivorVersion: z.number().int().min(1).describe("The survivor's version as the caller saw it."),
      mergedVersion: z.number().int().min(1).describe("The merged record's version as the caller saw it."),
      picks: z
        .strictObject(Object.fromEntries(fields.map((name) => [name, pick.optional()])))
        .default({})
        .describe("Per field, whose value the survivor keeps: 'survivor' (the default) or 'merged'."),
    })
    .refine((body) => body.survivorId !== body.mergedId, {
      error: 'A record cannot be merged into itself',
      path: ['mergedId'],
    });
}
export type MergeBody = z.infer<ReturnType<typeof mergeBodySchema>>;

export const mergeResultSchema = z.object({
  /** The survivor as the API answers it after the merge. */
  record: z.record(z.string(), z.unknown()),
  /** How many rows of other entities (links, notes, files, tasks, references) now point at the survivor. */
  moved: z.number(),
  /** Links the two records both had, whose copy on the merged record was dropped. */
  dropped: z.number(),
});
export type MergeResult = z.infer<typeof mergeResultSchema>;
