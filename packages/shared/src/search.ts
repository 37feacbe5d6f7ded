import { z } from 'zod';
import type { EntityDescription } from './entities/entity.ts';
import { attachableEntities, findEntity } from './entities/registry.ts';

/**
 * The record types global search looks through, in sidebar order: the
 * business records (those notes and files belong to) whose display field is
 * searched, then colleagues (users), whom every signed-in user names. Each
 * reader gets only those of them their own lists would show.
 */
export const searchTypes: readonly string[] = [...attachableEntities, 'users'].filter((name) => {
  const entity = findEntity(name) as EntityDescription;
  return entity.fields[entity.display]?.searchable === true;
});

/** Shortest and longest search text: one character finds names that start with it; more is a paste gone wrong. */
export const MIN_SEARCH_LENGTH = 1;
export const MAX_SEARCH_LENGTH = 100;
/** Results per record type unless `limit` says otherwise, and the most a type answers. */
export const SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 20;

const typeList = z
  .string()
  .max(500)
  .transform((text) => [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ])
  .refine((types) => types.length > 0, { error: 'Name at least one record type' })
  .refine((types) => types.every((t) => searchTypes.includes(t)), {
    error: `Record types are among ${searchTypes.join(', ')}`,
  });

export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'Type what to search for' })
    .trim()
    .min(MIN_SEARCH_LENGTH, { error: 'Type what to search for' })
    .max(MAX_SEARCH_LENGTH, { error: `At most ${MAX_SEARCH_LENGTH} characters` })
    // Control characters are never typed; the searched text's field separator is one of them.
    .regex(/^[^\p{Cc}]*$/u, { error: 'Control characters cannot be searched for' })
    .describe(
      `What to search for (${MIN_SEARCH_LENGTH} to ${MAX_SEARCH_LENGTH} characters), case-insensitively and literally.`,
    ),
  types: typeList
    .optional()
    .describe(`Comma-separated record types to search (${searchTypes.join(', ')}); all the user may read when absent.`),
  limit: z.coerce
    .number({ error: `A whole number from 1 to ${MAX_SEARCH_LIMIT}` })
    .int({ error: `A whole number from 1 to ${MAX_SEARCH_LIMIT}` })
    .min(1, { error: `A whole number from 1 to ${MAX_SEARCH_LIMIT}` })
    .max(MAX_SEARCH_LIMIT, { error: `A whole number from 1 to ${MAX_SEARCH_LIMIT}` })
    .default(SEARCH_LIMIT)
    .describe(`Results per record type (1 to ${MAX_SEARCH_LIMIT}, default ${SEARCH_LIMIT}).`),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** How a record matched, best first. */
export const searchMatches = ['exact', 'prefix', 'contains', 'similar'] as const;
export type SearchMatch = (typeof searchMatches)[number];

export const searchHitSchema = z.object({
  id: z.number(),
  /** The record's display name. */
  name: z.string(),
  /**
   * What else the record matched on, when not its name (a legal name, a
   * domain, an email, a city, a custom field's value); null for a name match.
   */
  matched: z.string().nullable(),
  match: z.enum(searchMatches),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchGroupSchema = z.object({
  /** The record type (the entity's resource name). */
  type: z.string(),
  /** Its records, best first: the name equal to the text, names starting with it, other matches, similar spellings. */
  hits: z.array(searchHitSchema),
});
export type SearchGroup = z.infer<typeof searchGroupSchema>;

export const searchResultSchema = z.object({
  /** One group per record type searched that has results, in sidebar order. */
  groups: z.array(searchGroupSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
