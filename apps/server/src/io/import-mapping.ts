import { allFields, type EntityDescription, isWritable } from '@data-platform/shared/entities/entity';
import { type FieldDescription, fieldTypeModule } from '@data-platform/shared/fields/field-types';
import type { ColumnTarget } from '@data-platform/shared/imports';

/**
 * Suggestions for an import: which field each column of a file goes to, and
 * which option of a picklist each value of a column stands for. Suggestions
 * only: the caller confirms or changes each before anything is imported.
 */

/** Lower case, accents and everything but letters and digits dropped: "E-Mail Address" → "emailaddress". */
export function normalized(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The words of a text, normalized each. */
function wordsOf(text: string): string[] {
  return text
    .split(/[^\p{L}\p{N}&]+/u)
    .map(normalized)
    .filter((word) => word.length > 0);
}

/**
 * Headings other tools and people write for a field, by field name (the same
 * names across entities: `name`, `email`, `hqCountryId`...), normalized.
 */
const headingSynonyms: Readonly<Record<string, readonly string[]>> = {
  name: ['company', 'companyname', 'organization', 'organisation', 'accountname', 'account', 'firmname', 'fundname'],
  legalName: ['legalentity', 'registeredname', 'officialname'],
  website: ['url', 'web', 'site', 'homepage', 'website', 'websiteurl', 'webaddress', 'companywebsite'],
  email: ['emailaddress', 'mail', 'email', 'workemail', 'primaryemail'],
  otherEmails: ['secondaryemail', 'alternateemail', 'otheremail'],
  phone: ['telephone', 'tel', 'phonenumber', 'mobile', 'cell', 'workphone'],
  firstName: ['first', 'givenname', 'forename', 'prenom'],
  lastName: ['last', 'surname', 'familyname', 'nom'],
  title: ['jobtitle', 'position', 'role'],
  hqCountryId: ['country', 'countrycode', 'hqcountry', 'headquarterscountry', 'pays', 'countryname'],
  hqStateId: ['state', 'region', 'province', 'hqstate'],
  city: ['town', 'hqcity', 'headquarterscity', 'ville', 'location'],
  foundedYear: ['founded', 'yearfounded', 'foundingyear', 'foundedin', 'established'],
  employees: ['headcount', 'employeecount', 'staff', 'numberofemployees', 'employeesnumber', 'fte'],
  revenue: ['annualrevenue', 'turnover', 'sales'],
  totalRaised: ['funding', 'totalfunding', 'raised', 'fundsraised'],
  industry: ['sector', 'vertical', 'industries'],
  stage: ['fundingstage', 'companystage', 'round'],
  description: ['about', 'summary', 'overview', 'notes'],
  linkedinUrl: ['linkedin', 'linkedinprofile', 'linkedinpage'],
  ownerId: ['owner', 'ownername', 'owneremail', 'assignedto', 'accountowner', 'dealowner'],
  firmId: ['firm', 'firmname', 'employer', 'organizationname'],
  tags: ['labels', 'keywords', 'tag'],
};

/** Synonyms of picklist values, normalized: a value on the left may stand for an option holding a word on the right. */
const valueSynonyms: Readonly<Record<string, readonly string[]>> = {
  it: ['software'],
  saas: ['software'],
  tech: ['software'],
  technology: ['software'],
  informationtechnology: ['software'],
  ecommerce: ['ecommerce'],
  retail: ['consumer', 'ecommerce'],
  pharma: ['biotech', 'healthcare'],
  health: ['healthcare'],
  medtech: ['healthcare'],
  cleantech: ['climate', 'energy'],
  vc: ['venturecapital'],
  venture: ['venturecapital'],
  pe: ['buyout'],
  privateequity: ['buyout'],
  lbo: ['buyout'],
  fof: ['fundoffunds'],
  usa: ['unitedstates'],
  us: ['unitedstates'],
  uk: ['unitedkingdom'],
  yes: ['true'],
  no: ['false'],
};

/** A field a column may go to, with the part of it when the field's value spans columns. */
export interface ImportTarget {
  name: string;
  field: FieldDescription;
  part?: string;
}

/** The fields an import can write: writable and importable, custom ones included. */
export function importableFields(entity: EntityDescription): [string, FieldDescription][] {
  return Object.entries(allFields(entity)).filter(([, field]) => isWritable(field) && field.importable !== false);
}

/**
 * Every target a column may name: each importable field (its main part),
 * each extra part (`revenue` `currency`), and `id` to match stored records.
 */
export function importTargets(entity: EntityDescription): ImportTarget[] {
  const targets: ImportTarget[] = [];
  const id = allFields(entity).id;
  if (id) targets.push({ name: 'id', field: id });
  for (const [name, field] of importableFields(entity)) {
    const parts = fieldTypeModule(field.type).parts;
    targets.push({ name, field, ...(parts ? { part: parts.main } : {}) });
    for (const part of parts?.extra ?? []) targets.push({ name, field, part });
  }
  return targets;
}

/** The target a column's mapping names, when the entity has it. */
export function findTarget(entity: EntityDescription, wanted: ColumnTarget): ImportTarget | undefined {
  const parts = fieldTypeModule(allFields(entity)[wanted.field]?.type ?? 'text').parts;
  const part = wanted.part ?? parts?.main;
  return importTargets(entity).find((t) => t.name === wanted.field && t.part === part);
}

/** A target as a mapping names it: a field's main part by the field alone (`revenue`, as the wizard offers it). */
const targetOf = (t: ImportTarget): ColumnTarget => {
  const main = fieldTypeModule(t.field.type).parts?.main;
  return { field: t.name, ...(t.part && t.part !== main ? { part: t.part } : {}) };
};

export type SuggestedBy = 'remembered' | 'label' | 'name' | 'synonym';

/**
 * The target each heading suggests: the mapping the user confirmed last for
 * the same heading (`remembered`, by normalized heading), a field's label or
 * name (`Revenue currency`, `revenue.currency` for a part), then common
 * synonyms. A field is suggested for one column at most, the first.
 */
export function suggestMapping(
  entity: EntityDescription,
  headings: readonly string[],
  remembered: ReadonlyMap<string, ColumnTarget | null> = new Map(),
): { target: ColumnTarget | null; suggestedBy: SuggestedBy | null }[] {
  const byLabel = new Map<string, ImportTarget>();
  const byName = new Map<string, ImportTarget>();
  const bySynonym = new Map<string, ImportTarget>();
  for (const target of importTargets(entity)) {
    const main = target.part === undefined || target.part === fieldTypeModule(target.field.type).parts?.main;
    const suffix = main ? '' : ` ${target.part}`;
    byLabel.set(normalized(`${target.field.label}${suffix}`), target);
    byName.set(normalized(main ? target.name : `${target.name}.${target.part}`), target);
    if (main) for (const synonym of headingSynonyms[target.name] ?? []) bySynonym.set(synonym, target);
  }
  const used = new Set<string>();
  const keyOf = (t: ColumnTarget) => `${t.field}.${t.part ?? ''}`;
  return headings.map((heading) => {
    const key = normalized(heading);
    if (!key) return { target: null, suggestedBy: null };
    const found = (t: ImportTarget | undefined) => (t ? targetOf(t) : undefined);
    const candidates: [ColumnTarget | null | undefined, SuggestedBy][] = [
      [remembered.has(key) ? remembered.get(key) : undefined, 'remembered'],
      [found(byLabel.get(key)), 'label'],
      [found(byName.get(key)), 'name'],
      [found(bySynonym.get(key)), 'synonym'],
    ];
    for (const [target, by] of candidates) {
      if (target === undefined) continue;
      if (target === null) return { target: null, suggestedBy: by };
      if (used.has(keyOf(target))) continue;
      used.add(keyOf(target));
      return { target, suggestedBy: by };
    }
    return { target: null, suggestedBy: null };
  });
}

export type MatchedBy = 'exact' | 'normalized' | 'synonym';

/**
 * The option a value of a file stands for: the option itself; the same
 * in another case, spacing or punctuation ("series a" → "Series A",
 * "ecommerce" → "E-commerce"); else the one option whose words hold all of
 * the value's words, or the value's synonyms ("Software" → "Software & IT",
 * "IT" → "Software"). None when no option or several fit.
 */
export function suggestOption(
  value: string,
  options: readonly string[],
): { option: string; matchedBy: MatchedBy } | undefined {
  const text = value.trim();
  if (options.includes(text)) return { option: text, matchedBy: 'exact' };
  const key = normalized(text);
  if (!key) return undefined;
  const same = options.filter((option) => normalized(option) === key);
  if (same.length === 1) return { option: same[0] as string, matchedBy: 'normalized' };
  const words = wordsOf(text);
  const holding = (wanted: readonly string[]) =>
    options.filter((option) => {
      const optionWords = new Set(wordsOf(option));
      const joined = normalized(option);
      return wanted.every((word) => optionWords.has(word) || joined === word);
    });
  const byWords = words.length > 0 ? holding(words) : [];
  if (byWords.length === 1) return { option: byWords[0] as string, matchedBy: 'synonym' };
  const synonyms = valueSynonyms[key] ?? [];
  const bySynonym = [...new Set(synonyms.flatMap((synonym) => holding([synonym])))];
  if (bySynonym.length === 1) return { option: bySynonym[0] as string, matchedBy: 'synonym' };
  return undefined;
}

/**
 * The stored tag a value of a file stands for, given the tags stored in the
 * field, most used first: the tag itself; else the one written the same but
 * for case, spacing or punctuation ("fintech" → "Fintech", "A.I." → "AI"),
 * the most used when several are. Neither words nor synonyms: a value that
 * matches no tag is imported as a new tag, not a problem, so a looser guess
 * would only rename what the file says. The tags are indexed once per column.
 */
export function tagSuggester(
  tags: readonly string[],
): (value: string) => { option: string; matchedBy: MatchedBy } | undefined {
  const stored = new Set(tags);
  const byKey = new Map<string, string>();
  for (const tag of tags) {
    const key = normalized(tag);
    if (key && !byKey.has(key)) byKey.set(key, tag);
  }
  return (value) => {
    const text = value.trim();
    if (stored.has(text)) return { option: text, matchedBy: 'exact' };
    const tag = byKey.get(normalized(text));
    return tag === undefined ? undefined : { option: tag, matchedBy: 'normalized' };
  };
}
