import type { EntityManifest } from './derive-entity-manifest.ts';
import generated from './entity-manifest.json' with { type: 'json' };

/**
 * What the router, its guards and the sidebar know of the entities: derived
 * from the entity descriptions into entity-manifest.json by
 * `npm run manifest:web` (derive-entity-manifest.ts), so that the sign-in
 * screen loads neither the descriptions nor their field types (issue #11,
 * docs/decisions/0017). entity-manifest.test.ts fails while it is stale.
 */
export const entityManifest = generated as EntityManifest;
