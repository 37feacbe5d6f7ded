import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bootScript } from './src/app/boot-script.ts';

/** The JavaScript a first visit must load before anything shows, gzipped. */
const INITIAL_JS_BUDGET_BYTES = 300 * 1024;

/**
 * Serves the theme and language boot script as a file of its own, named by its
 * content, and puts a classic <script src> for it into index.html before any
 * stylesheet or module: it still runs before the first paint, and the
 * Content-Security-Policy needs no inline script (docs/decisions/0011).
 */
function bootScriptPlugin(): Plugin {
  const source = bootScript();
  const fileName = `assets/boot-${createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
  return {
    name: 'data-platform-boot-script',
    configureServer(server) {
      server.middlewares.use(`/${fileName}`, (_request, response) => {
        response.setHeader('content-type', 'text/javascript');
        response.end(source);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: (html) => html.replace(/<!-- boot-script:[^>]*-->/, `<script src="/${fileName}"></script>`),
  };
}

/**
 * Measures the initial JavaScript (the entry chunk and every chunk it imports
 * statically), prints it, writes it to dist/initial-js.json and fails the
 * build above the budget. Lazy routes are not counted: they load on demand.
 */
function initialJsBudget(): Plugin {
  return {
    name: 'data-platform-initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])),
      );
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      visit(entry.fileName);
      const files = [...initial].map((fileName) => ({
        file: fileName,
        gzipBytes: gzipSync(chunks.get(fileName)?.code ?? '').length,
      }));
      const gzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
      const report = { gzipBytes, budgetBytes: INITIAL_JS_BUDGET_BYTES, files };
      this.emitFile({ type: 'asset', fileName: 'initial-js.json', source: `${JSON.stringify(report, null, 2)}\n` });
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      console.log(`initial JavaScript: ${kb(gzipBytes)} gzip (budget ${kb(INITIAL_JS_BUDGET_BYTES)})`);
      if (gzipBytes > INITIAL_JS_BUDGET_BYTES) {
        this.error(`Initial JavaScript is ${kb(gzipBytes)} gzip, above the budget of ${kb(INITIAL_JS_BUDGET_BYTES)}`);
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), bootScriptPlugin(), initialJsBudget()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
