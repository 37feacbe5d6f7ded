import { z } from 'zod';

// zod compiles object parsers with `new Function` when it may, and probes for
// that at the first parse; the app's Content-Security-Policy has no
// 'unsafe-eval', so the probe would be refused and reported on every page.
// Parse without compiling (docs/decisions/0011).
z.config({ jitless: true });
