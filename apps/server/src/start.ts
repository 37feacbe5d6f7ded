/**
 * What `npm start` runs (as dist/start.js): the heap's settings, then the
 * server (main.ts, bundled as dist/main.js; docs/decisions/0037).
 *
 * After a full collection V8 lets the heap grow up to 4 times what is alive
 * before the next: an import job, whose batches outlive the young generation
 * while the database writes them, took the server from 155 to 537 MB with
 * 100 MB alive. Growing by half instead: 280 MB at 100,000 rows, for 3-7 % of
 * its time. V8 must have the setting before the server's modules and the
 * packages they import are loaded: set in main.ts, which loads them first,
 * the same job peaked 90 MB higher.
 */
import v8 from 'node:v8';

v8.setFlagsFromString('--heap-growing-percent=50');
// `.js`: this file is copied to dist/ as it is (not bundled), beside the bundle of main.ts.
await import('./main.js');
