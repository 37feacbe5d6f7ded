import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { entityList, findEntity } from '@data-platform/shared/entities/registry';
import type { Dispatch, ListenerMiddlewareInstance } from '@reduxjs/toolkit';
import { customFieldsApi, customFieldsSources } from './custom-fields-area.ts';
import { isResourceArea, resourceApi } from './resource-slices.ts';
import { recordsWritten } from './written.ts';

/**
 * The entities whose rows an entity's reads show: what its reference fields
 * point at (joined by name), what its relations list, and the link
 * collections those relations go through.
 */
function shownBy(entity: EntityDescription): Set<string> {
  const shown = new Set<string>();
  for (const field of Object.values(allFields(entity))) {
    if (field.type === 'reference' && field.to) shown.add(field.to);
  }
  for (const relation of Object.values(entity.relations ?? {})) {
    if (relation.kind === 'hasMany') shown.add(relation.to);
    else {
      shown.add(relation.via);
      const target = findEntity(relation.via)?.fields[relation.target]?.to;
      if (target) shown.add(target);
    }
  }
  return shown;
}

/**
 * For each resource, the other resources (and the custom fields area) that
 * show its rows and so must be read again when one is written: derived once
 * from the entity descriptions.
 */
const showingAreas: ReadonlyMap<string, readonly string[]> = (() => {
  const showing = new Map<string, string[]>();
  const add = (source: string, area: string) => {
    if (source !== area) showing.set(source, [...(showing.get(source) ?? []), area]);
  };
  for (const entity of entityList) for (const source of shownBy(entity)) add(source, entity.name);
  for (const source of customFieldsSources) add(source, customFieldsApi.reducerPath);
  return showing;
})();

/** The areas other than `resource`'s own that show its rows (entities without an area included: none reads them). */
export function areasShowing(resource: string): readonly string[] {
  return showingAreas.get(resource) ?? [];
}

/** Reads again what other areas show of records of `resource` (its own area's mutation invalidated its own tags). */
function readAgain(resource: string, dispatch: Dispatch): void {
  for (const area of areasShowing(resource)) {
    if (area === customFieldsApi.reducerPath) dispatch(customFieldsApi.util.invalidateTags(['List']));
    else if (isResourceArea(area)) dispatch(resourceApi(area).util.invalidateTags(['List', 'Record']));
  }
}

/**
 * After a write (announced by the mutation, written.ts), every cache showing
 * the written rows reads them again: a renamed company shows in the deals
 * that name it, a new link in both records' relation panels, a renamed role
 * in the users list. The one place where caches of different areas meet.
 */
export function invalidateAcrossAreas<State>(listeners: ListenerMiddlewareInstance<State>): void {
  listeners.startListening({
    actionCreator: recordsWritten,
    effect: ({ payload }, { dispatch }) => readAgain(payload.resource, dispatch),
  });
}
