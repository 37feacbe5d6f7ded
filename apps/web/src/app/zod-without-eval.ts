import { config } from 'zod/v4/core';

// zod compiles object parsers with `new Function` when it may, and probes for
// that at the first parse; the app's Content-Security-Policy has no
// 'unsafe-eval', so the probe would be refused and reported on every page.
// Parse without compiling (docs/decisions/0011). The core's config is the one
// every zod schema reads, and importing only it keeps zod's schemas out of the
// first screens that parse nothing (issue #11).
config({ jitless: true });
