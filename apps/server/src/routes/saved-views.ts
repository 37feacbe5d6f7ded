import { navigableEntities } from '@data-platform/shared/entities/registry';
import { parseListBody, QueryError } from '@data-platform/shared/query/list-query';
import {
  type CreateView,
  createViewSchema,
  MAX_VIEW_BODY_BYTES,
  type SavedView,
  savedViewListSchema,
  savedViewSchema,
  slugOf,
  type UpdateView,
  updateViewSchema,
  type ViewState,
  viewRootPathSchema,
  viewSlugSchema,
} from '@data-platform/shared/saved-views';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readableEntity, readerDescription } from '../access/reading.ts';
import type { Actor } from '../auth/actor.ts';
import type { Database } from '../db/client.ts';
import { conflict, DomainError, invalid, notFound, refused } from '../domain/errors.ts';
import { errorBodySchema } from '../http/errors.ts';
import { idParamsSchema, versionFromIfMatch } from '../http/record-params.ts';

/** The entity a list's root path shows (`/companies` → companies), from the descriptions' navigation. */
function entityAt(rootPath: string) {
  return navigableEntities.find((entity) => entity.navigation?.path === rootPath);
}

/** The root paths of the lists whose records the actor may read: where others' shared views are seen. */
function readableRootPaths(actor: Actor): string[] {
  return navigableEntities.flatMap((entity) =>
    entity.navigation && readableEntity(actor, entity.name) ? [entity.navigation.path] : [],
  );
}

/** Which views the actor sees: their own, and the shared ones of lists they may read. */
function visibleTo(actor: Actor): SQL {
  const paths = readableRootPaths(actor);
  const shared =
    paths.length === 0
      ? sql`false`
      : sql`(v.shared and v.root_path in (${sql.join(
          paths.map((path) => sql`${path}`),
          sql`, `,
        )}))`;
  return sql`(v.owner_id = ${actor.userId} or ${shared})`;
}

interface ViewRow {
  id: string | number;
  root_path: string;
  slug: string;
  name: string;
  shared: boolean;
  state: ViewState | string;
  owner_id: string | number;
  owner_name: string | null;
  version: number;
  created_at: string | Date;
  updated_at: string | Date;
}

const columns = sql`v.id, v.root_path, v.slug, v.name, v.shared, v.state, v.owner_id, u.full_name as owner_name,
  v.version, v.created_at, v.updated_at`;
const from = sql`saved_views v left join users u on u.id = v.owner_id`;

function viewOf(row: ViewRow, actor: Actor): SavedView {
  const ownerId = Number(row.owner_id);
  const mine = ownerId === actor.userId;
  const time = (value: string | Date) => (value instanceof Date ? value.toISOString() : String(value));
  return {
    id: Number(row.id),
    rootPath: row.root_path,
    slug: row.slug,
    name: row.name,
    shared: row.shared,
    state: typeof row.state === 'string' ? (JSON.parse(row.state) as ViewState) : row.state,
    mine,
    ownerId,
    ownerName: mine ? null : row.owner_name,
    version: row.version,
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  };
}

const viewNotFound = () => notFound('The saved view');

/** The views one user keeps of one list: the Views menu lists them all (and no more), and nobody fills the table. */
const MAX_VIEWS_PER_LIST = 500;

/**
 * A view's state checked against the list's entity as the actor reads it
 * (custom fields included): its columns, filters and sort may name only
 * fields the list grammar knows, with operators and values it accepts.
 */
async function checkState(database: Database, actor: Actor, rootPath: string, state: ViewState): Promise<void> {
  const entity = entityAt(rootPath);
  if (!entity) throw invalid({ rootPath: `No list at ${rootPath}` });
  if (!readableEntity(actor, entity.name)) throw viewNotFound();
  const description = await readerDescription(database, entity, actor);
  try {
    parseListBody(description, {
      select: state.shows?.join(',') ?? '',
      sort: state.sort ?? '',
      q: state.q ?? '',
      where: { and: (state.filters ?? []).map(({ field, op, value }) => ({ field, op, value: value ?? '' })) },
    });
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    const fields: Record<string, string> = {};
    for (const [key, message] of Object.entries(error.fields)) {
      const part = key === 'select' ? 'shows' : key.startsWith('where') ? 'filters' : key;
      fields[`state.${part}`] ??= message;
    }
    throw invalid(fields, `The view names fields or values the list does not accept: ${Object.values(fields)[0]}`);
  }
}

async function visibleView(database: Database, actor: Actor, id: number): Promise<SavedView> {
  const [row] = await database.rows<ViewRow>(
    sql`select ${columns} from ${from} where v.id = ${id} and ${visibleTo(actor)}`,
  );
  if (!row) throw viewNotFound();
  return viewOf(row, actor);
}

/** A view the actor owns, at the version they name: 404 unseen, 403 someone else's, 412 changed since. */
async function ownView(database: Database, actor: Actor, id: number, version: number | undefined) {
  const view = await visibleView(database, actor, id);
  if (!view.mine) throw refused('Only the owner of a saved view may change or delete it; save a copy instead');
  if (version !== undefined && version !== view.version) throw stale(view.version);
  return view;
}

const stale = (current: number) =>
  new DomainError('stale', 'version_conflict', `The saved view was changed since you read it (now version ${current})`);

/** The first of `slug`, `slug-2`, `slug-3`… the owner has no view of the list under. */
async function freeSlug(database: Database, ownerId: number, rootPath: string, base: string): Promise<string> {
  const taken = new Set(
    (
      await database.rows<{ slug: string }>(
        sql`select slug from saved_views where owner_id = ${ownerId} and root_path = ${rootPath}
          and (slug = ${base} or slug like ${`${base}-%`})`,
      )
    ).map((row) => row.slug),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

async function createView(database: Database, actor: Actor, input: CreateView): Promise<SavedView> {
  const ownerId = actor.userId;
  if (ownerId === null) throw viewNotFound();
  await checkState(database, actor, input.rootPath, input.state);
  const slug = input.slug ?? (await freeSlug(database, ownerId, input.rootPath, slugOf(input.name)));
  // One statement: the owner's views of the list counted, and the view written only below the limit.
  const [row] = await database.rows<{ id: string | number | null; held: number }>(
    sql`with held as (select count(*)::int as n from saved_views where owner_id = ${ownerId} and root_path = ${input.rootPath}),
      written as (insert into saved_views (owner_id, root_path, slug, name, shared, state)
        select ${ownerId}, ${input.rootPath}, ${slug}, ${input.name}, ${input.shared ?? false}, ${JSON.stringify(input.state)}::jsonb
        from held where held.n < ${MAX_VIEWS_PER_LIST}
        on conflict (owner_id, root_path, slug) do nothing returning id)
      select (select id from written) as id, (select n from held) as held`,
  );
  if (row?.id === null || row?.id === undefined) {
    if ((row?.held ?? 0) >= MAX_VIEWS_PER_LIST) {
      throw conflict(
        `You have ${MAX_VIEWS_PER_LIST} views of ${input.rootPath}, the most one list keeps; delete one first`,
        undefined,
        'view_limit',
      );
    }
    throw conflict(`You already have a view of ${input.rootPath} at ${slug}`, { slug: 'Taken' }, 'slug_taken');
  }
  return visibleView(database, actor, Number(row.id));
}

async function updateView(
  database: Database,
  actor: Actor,
  id: number,
  version: number,
  changes: UpdateView,
): Promise<SavedView> {
  const view = await ownView(database, actor, id, version);
  if (changes.state) await checkState(database, actor, view.rootPath, changes.state);
  const sets: SQL[] = [sql`version = version + 1`, sql`updated_at = now()`];
  if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
  if (changes.shared !== undefined) sets.push(sql`shared = ${changes.shared}`);
  if (changes.state !== undefined) sets.push(sql`state = ${JSON.stringify(changes.state)}::jsonb`);
  const [row] = await database.rows<{ id: string | number }>(
    sql`update saved_views set ${sql.join(sets, sql`, `)}
      where id = ${id} and owner_id = ${actor.userId} and version = ${version} returning id`,
  );
  // Changed or deleted between the read above and this write.
  if (!row) throw stale(version);
  return visibleView(database, actor, id);
}

async function deleteView(database: Database, actor: Actor, id: number, version: number | undefined): Promise<void> {
  await ownView(database, actor, id, version);
  const rows = await database.rows(
    sql`delete from saved_views where id = ${id} and owner_id = ${actor.userId}
      ${version === undefined ? sql`` : sql`and version = ${version}`} returning id`,
  );
  if (rows.length === 0 && version !== undefined) throw stale(version);
}

/** The list's views the actor sees: their own first, then the ones others share, each by name. */
async function listViews(database: Database, actor: Actor, rootPath: string): Promise<SavedView[]> {
  const entity = entityAt(rootPath);
  if (!entity || !readableEntity(actor, entity.name)) return [];
  const rows = await database.rows<ViewRow>(
    sql`select ${columns} from ${from} where v.root_path = ${rootPath} and ${visibleTo(actor)}
      order by (v.owner_id = ${actor.userId}) desc, lower(v.name), v.id limit ${2 * MAX_VIEWS_PER_LIST}`,
  );
  return rows.map((row) => viewOf(row, actor));
}

/** The view an address names: the actor's own under that slug, else the earliest one shared under it. */
async function viewAt(database: Database, actor: Actor, rootPath: string, slug: string): Promise<SavedView> {
  const entity = entityAt(rootPath);
  if (!entity || !readableEntity(actor, entity.name)) throw viewNotFound();
  const [row] = await database.rows<ViewRow>(
    sql`select ${columns} from ${from} where v.root_path = ${rootPath} and v.slug = ${slug} and ${visibleTo(actor)}
      order by (v.owner_id = ${actor.userId}) desc, v.id limit 1`,
  );
  if (!row) throw viewNotFound();
  return viewOf(row, actor);
}

const sharing =
  'A view belongs to the user who saved it. A shared view is seen by every signed-in user who may read the records of its list; only its owner changes or deletes it (403 for others, who may save a copy). A view the caller cannot see answers 404.';

/** Saved views of the lists, per user, with sharing to the team: `/api/v1/views`. */
export function registerSavedViewRoutes(app: FastifyInstance, database: Database): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Saved views'];
  const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
  const ifMatch = z.looseObject({ 'if-match': z.string().optional() });

  api.get('/api/v1/views', {
    schema: {
      tags,
      summary: "A list's saved views: the caller's own, then those shared with the team",
      description: sharing,
      querystring: z.strictObject({ rootPath: viewRootPathSchema }),
      response: { 200: savedViewListSchema, ...errors },
    },
    handler: async (request) => ({ data: await listViews(database, request.actor, request.query.rootPath) }),
  });

  api.get('/api/v1/views/at', {
    schema: {
      tags,
      summary: 'The saved view at an address (`/companies/views/<slug>`)',
      description: `The caller's own view under that slug, else one shared under it. ${sharing}`,
      querystring: z.strictObject({ rootPath: viewRootPathSchema, slug: viewSlugSchema }),
      response: { 200: savedViewSchema, ...errors },
    },
    handler: async (request, reply) => {
      const view = await viewAt(database, request.actor, request.query.rootPath, request.query.slug);
      return reply.header('etag', `"${view.version}"`).send(view);
    },
  });

  api.get('/api/v1/views/:id', {
    schema: {
      tags,
      summary: 'A saved view',
      description: sharing,
      params: idParamsSchema,
      response: { 200: savedViewSchema, ...errors },
    },
    handler: async (request, reply) => {
      const view = await visibleView(database, request.actor, request.params.id);
      return reply.header('etag', `"${view.version}"`).send(view);
    },
  });

  api.post('/api/v1/views', {
    bodyLimit: MAX_VIEW_BODY_BYTES,
    schema: {
      tags,
      summary: 'Save a view of a list',
      description: `Columns, filters and sort may name only fields of the list's records (custom fields included). Without \`slug\` one is made from the name; a slug given and already used by one of your views of the list answers 409. ${sharing}`,
      body: createViewSchema,
      response: { 201: savedViewSchema, ...errors, 409: errorBodySchema, 413: errorBodySchema },
    },
    handler: async (request, reply) => {
      const view = await createView(database, request.actor, request.body);
      return reply.code(201).header('etag', `"${view.version}"`).send(view);
    },
  });

  api.patch('/api/v1/views/:id', {
    bodyLimit: MAX_VIEW_BODY_BYTES,
    schema: {
      tags,
      summary: 'Rename, share or unshare, or change what a saved view shows',
      description: `Send \`If-Match: <version>\` (412 when it changed since). The slug, and so the address, stays. ${sharing}`,
      params: idParamsSchema,
      headers: ifMatch,
      body: updateViewSchema,
      response: {
        200: savedViewSchema,
        ...errors,
        412: errorBodySchema,
        413: errorBodySchema,
        428: errorBodySchema,
      },
    },
    handler: async (request, reply) => {
      const version = versionFromIfMatch(request.headers['if-match'], true) as number;
      const view = await updateView(database, request.actor, request.params.id, version, request.body);
      return reply.header('etag', `"${view.version}"`).send(view);
    },
  });

  api.delete('/api/v1/views/:id', {
    schema: {
      tags,
      summary: 'Delete a saved view',
      description: `\`If-Match: <version>\` is checked when sent (412). Its address then answers 404. ${sharing}`,
      params: idParamsSchema,
      headers: ifMatch,
      response: { 204: z.null(), ...errors, 412: errorBodySchema },
    },
    handler: async (request, reply) => {
      const version = versionFromIfMatch(request.headers['if-match'], false);
      await deleteView(database, request.actor, request.params.id, version);
      return reply.code(204).send(null);
    },
  });
}
