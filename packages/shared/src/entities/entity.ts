import type { FieldDescription } from '../fields/field-types.ts';
import type { Permission } from '../permissions.ts';

/**
 * - record: a business record (id, createdAt, updatedAt, createdBy, updatedBy, version).
 * - link: a link collection row; same system fields as a record.
 * - reference: read-only reference data (id, createdAt).
 */
export type EntityKind = 'record' | 'link' | 'reference';

/** Rows of `to` that belong to this row through `foreignKey` on `to`. */
export interface HasManyRelation {
  kind: 'hasMany';
  to: string;
  foreignKey: string;
}

/** Rows of `to` linked to this row through the link collection `via`. */
export interface ManyToManyRelation {
  kind: 'manyToMany';
  via: string;
  /** field of `via` that points at this entity */
  from: string;
  /** field of `via` that points at the other entity */
  target: string;
}

export type RelationDescription = HasManyRelation | ManyToManyRelation;

export interface EntityDescription {
  /** Resource name, as the spec spells it (also the Redux data area). */
  name: string;
  table: string;
  kind: EntityKind;
  label: string;
  labelPlural: string;
  fields: Record<string, FieldDescription>;
  /**
   * Named relations beyond references. Every reference field `xId` is also a
   * relation named `x` (the referenced row) without being listed here.
   */
  relations?: Record<string, RelationDescription>;
  /** The field that names a row in lists, links and search ranking. */
  display: string;
  /**
   * A reference field naming the record a row belongs to, whose name comes
   * before the row's own in its name where the row is named alone (a fund's
   * performance at a date: "Fund II · 2025-12-31"); see record-name.ts.
   */
  displayWithin?: string;
  /**
   * The field holding each row's flag emoji (two Unicode regional indicators
   * spelling its ISO 3166-1 alpha-2 code): the web app names a referenced row
   * in the interface's language from that code (Intl) and its pickers search
   * those names. `display` stays the stored English name, which the server
   * searches and sorts by.
   */
  regionFlag?: string;
  list: { defaultShows: string[]; defaultSort: string };
  /** Composite uniqueness (e.g. one performance per fund and date). */
  uniques?: string[][];
  /**
   * Indexes beyond the default order's, each ending with id (see
   * apps/server/src/db/index-plan.ts): a filter + sort pair a screen uses,
   * where the filter keeps too few rows for an ordered walk to find a page
   * soon (a reference such as a country, not a picklist of a few values), or
   * another order users pick often. Every index costs every write and every
   * plan; other fields sort without one, by sorting all matching rows.
   */
  indexes?: string[][];
  /** Fields that identify the same real-world thing, in order of strength. */
  dedupKeys?: string[];
  /**
   * Its likely duplicates are listed for review and two records can be merged
   * into one (apps/server/src/routes/duplicates.ts, decision 0032): pairs with
   * the same value of a `dedupKeys` field (case-insensitive), or display names
   * spelled alike (trigram similarity). Needs `dedupKeys`.
   */
  duplicates?: true;
  /** Rows belong to any one record, named by these two fields (notes, files). */
  attachedTo?: { entityField: string; idField: string };
  /**
   * The reference to users naming whose a row is (a task's owner): a new
   * row's form starts with the signed-in user there, and "my" rows are those
   * where it names them.
   */
  ownedBy?: string;
  /** Rows own bytes stored under DATA_DIR/files/<id>, removed with the row. */
  storesBytes?: boolean;
  /**
   * The permission each action needs, where it is not `<name>:<action>`;
   * null means any signed-in user. Link collections need the permissions of
   * both linked entities; reference data is readable by every signed-in user.
   */
  access?: Partial<Record<AccessAction, Permission | null>>;
  /**
   * What a reader without `permission` may see of this entity, on every path
   * it is read by (list, get, query, joins from other entities): the system
   * fields and `fields` only (nothing else can be selected, filtered, sorted
   * or searched), and only the rows whose `rows.field` is one of
   * `rows.oneOf`. Users are colleagues by name to everyone, and accounts
   * (email, status, role, sign-ins) only to those who may read them.
   */
  limitedRead?: {
    permission: Permission;
    fields: readonly string[];
    rows?: { field: string; oneOf: readonly string[] };
  };
  /**
   * The field holding the email of the one user a row is meant for, when the
   * row may carry that user's sign-in links (a mail with a reset link): only
   * an administrator (every permission) reads such a row, and only when that
   * user holds no more than the reader.
   */
  privateTo?: string;
  /** Which generic operations the API offers (default: all for records and links, read for reference data). */
  operations?: ReadonlyArray<'list' | 'get' | 'create' | 'update' | 'delete'>;
  /**
   * Actions the API offers through the entity's own routes instead of the
   * generic ones (users are created by invitation): clients offer them, but
   * not through the generic create form or bulk edit.
   */
  ownOperations?: ReadonlyArray<'create' | 'update' | 'delete'>;
  /**
   * Rules over a row's values that the database enforces (SQL over this row's
   * columns); a row breaking one is refused with `message` under `field`.
   */
  checks?: ReadonlyArray<{ name: string; field: string; sql: string; message: string }>;
  /** Another path segment the generic routes also answer at, where the spec spells the URL differently from `name`. */
  pathAlias?: string;

  // Where the entity takes part. Every list of entities the code needs (roles'
  // permission matrix, custom-field record types, what notes attach to, the
  // sidebar, the home dashboard, the demo data, the web app's data areas) is
  // derived from these flags in registry.ts and permissions.ts: adding an
  // entity is its description file, its generated migration and translations.

  /**
   * Data permissions of its own, `<name>:<action>` for every data action
   * (read, create, update, delete, import, export): roles grant them, and
   * they guard the entity unless `access` names others.
   */
  permissions?: true;
  /** Teams may add custom fields to its records (stored in the `custom` column). */
  customizable?: true;
  /** Records of entities with `attachedTo` (notes, files, tasks) can belong to its rows. */
  attachable?: true;
  /**
   * Its list screen in the web app: the root path, its place in the sidebar
   * (ascending `order`; `sidebar: false` when reached from another screen),
   * and the translation key of its sidebar label when not the plural name.
   */
  navigation?: {
    path: string;
    order: number;
    labelKey?: string;
    sidebar?: false;
    /**
     * Its records' screens, where it has them: created in a modal over the
     * list, edited on a page (`<path>/<id>/edit`) or in a modal over the list
     * (`?edit=<id>`), shown by the generic page (`<path>/<id>/show`) or one of
     * its own. Required: a list screen whose records have no screens offers
     * Create and Edit that open nothing.
     */
    records: { edit: 'page' | 'modal'; show: 'generic' | 'own' };
  };
  /**
   * On the home dashboard: `count` shows how many rows there are (in sidebar
   * order); each of `breakdowns` (a picklist field) shows rows per value, under
   * the key `<name>By<Field>` (e.g. `dealsByStage`).
   */
  dashboard?: { count?: true; breakdowns?: readonly string[] };
  /**
   * The demo data generator fills it (apps/server/src/seed/generators/ has a
   * module per seeded entity), in registry order, so after what it references;
   * `--reset` empties it, users excepted.
   */
  seed?: true;
  /**
   * The web app keeps a data area (a top-level key of its Redux state, named
   * after the entity: its RTK Query cache) for every entity but those with
   * `clientState: false`, which no screen reads. The spec's data areas are
   * among them, with the non-entity areas (auth, lands, configs, layouts,
   * customFields) beside.
   */
  clientState?: false;
}

export type Operation = NonNullable<EntityDescription['operations']>[number];
export type AccessAction = 'read' | 'create' | 'update' | 'delete';

export function operationsOf(entity: EntityDescription): ReadonlyArray<Operation> {
  if (entity.operations) return entity.operations;
  return entity.kind === 'reference' ? ['list', 'get'] : ['list', 'get', 'create', 'update', 'delete'];
}

/** System fields every row has, described like any other field. */
export function systemFields(kind: EntityKind): Record<string, FieldDescription> {
  const id: FieldDescription = {
    type: 'reference',
    label: 'ID',
    required: true,
    sortable: true,
    filterable: true,
    serverOwned: true,
    importable: false,
  };
  const createdAt: FieldDescription = {
    type: 'datetime',
    label: 'Created',
    required: true,
    sortable: true,
    filterable: true,
    serverOwned: true,
    importable: false,
  };
  if (kind === 'reference') return { id, createdAt };
  return {
    id,
    createdAt,
    updatedAt: { ...createdAt, label: 'Updated' },
    createdById: {
      type: 'reference',
      to: 'users',
      label: 'Created by',
      filterable: true,
      serverOwned: true,
      importable: false,
      onDelete: 'setNull',
    },
    updatedById: {
      type: 'reference',
      to: 'users',
      label: 'Updated by',
      filterable: true,
      serverOwned: true,
      importable: false,
      onDelete: 'setNull',
    },
    version: { type: 'integer', label: 'Version', required: true, serverOwned: true, importable: false },
  };
}

const allFieldsCache = new WeakMap<
  EntityDescription,
  { fields: EntityDescription['fields']; all: Record<string, FieldDescription> }
>();

/**
 * All fields of an entity: system fields first, then the described ones.
 * Built once per description and frozen: SQL building asks for it per field,
 * and rebuilding it each time was a millisecond and more of every request.
 */
export function allFields(entity: EntityDescription): Record<string, FieldDescription> {
  const cached = allFieldsCache.get(entity);
  if (cached && cached.fields === entity.fields) return cached.all;
  const all = Object.freeze({ ...systemFields(entity.kind), ...entity.fields });
  allFieldsCache.set(entity, { fields: entity.fields, all });
  return all;
}

/** True when clients may write the field. */
export function isWritable(field: FieldDescription): boolean {
  return !field.generated && !field.serverOwned;
}

/** The relation name a reference field stands for: `hqCountryId` → `hqCountry`. */
export function referenceRelationName(fieldName: string): string {
  return fieldName.endsWith('Id') ? fieldName.slice(0, -2) : fieldName;
}

export function defineEntity<const E extends EntityDescription>(entity: E): E {
  return entity;
}

let registered: readonly EntityDescription[] | undefined;
const namesByFlag = new Map<EntityFlag, readonly string[]>();
const labelsByFlag = new Map<EntityFlag, Readonly<Record<string, string>>>();

/** The flags that put an entity in a list of names (see EntityDescription). */
export type EntityFlag = 'permissions' | 'customizable' | 'attachable';

/** Called once by registry.ts with every entity. */
export function registerEntities(list: readonly EntityDescription[]): void {
  registered = list;
  namesByFlag.clear();
  labelsByFlag.clear();
}

/** Entities in the order people meet them: the sidebar's, then those without a list screen in registry order. */
export function inSidebarOrder(list: readonly EntityDescription[]): EntityDescription[] {
  const order = (entity: EntityDescription) => entity.navigation?.order ?? Number.POSITIVE_INFINITY;
  return [...list].sort((a, b) => order(a) - order(b));
}

/**
 * The names of the entities with `flag`, in sidebar order. For option lists
 * inside descriptions (what a note attaches to, which permissions a role can
 * hold): a description cannot import the registry, which imports it, so it
 * reads them through a getter once the registry has loaded.
 */
export function entityNamesWith(flag: EntityFlag): readonly string[] {
  if (!registered) throw new Error('The entity registry is not loaded yet: import entities/registry first');
  let names = namesByFlag.get(flag);
  if (!names) {
    names = Object.freeze(
      inSidebarOrder(registered)
        .filter((entity) => entity[flag])
        .map((entity) => entity.name),
    );
    namesByFlag.set(flag, names);
  }
  return names;
}

/** Each entity with `flag` named by its plural label: the English option labels of a "record type" field. */
export function entityLabelsWith(flag: EntityFlag): Readonly<Record<string, string>> {
  let labels = labelsByFlag.get(flag);
  if (!labels) {
    const names = new Set(entityNamesWith(flag));
    labels = Object.freeze(
      Object.fromEntries(
        (registered ?? [])
          .filter((entity) => names.has(entity.name))
          .map((entity) => [entity.name, entity.labelPlural]),
      ),
    );
    labelsByFlag.set(flag, labels);
  }
  return labels;
}
