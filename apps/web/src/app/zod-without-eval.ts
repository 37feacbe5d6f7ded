import { config } from 'zod/v4/core';

// zod compiles object parsers with `new Function` when it may, and probes for
// that at the first parse; the app's Content-Security-Policy has no
// 'unsafe-eval', so the probe would be refused and reported on every page.
// Parse without compiling (docs/decisions/0011). vite.config.ts sends every
// `import ... from 'zod'` of the app here, so that the setting comes first
// wherever zod first loads, and the first screens, which parse nothing, load
// no zod at all (issue #11).
config({ jitless: true });

export * from 'zod';
