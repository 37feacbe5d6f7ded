import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bootScript } from './src/app/boot-script.ts';

/**
 * What the browser may fetch of JavaScript for the sign-in screen, gzipped; the
 * e2e test e2e/src/web-bundle.test.ts holds the same budget and measures it in
 * Chromium, with the signed-in list's (issue #11).
 */
const SIGN_IN_JS_BUDGET_BYTES = 200 * 1024;
/** The route module a signed-out visitor of any page ends on. */
const SIGN_IN_PAGE = '/src/features/auth/sign-in-page.tsx';

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
 * Counts the JavaScript the sign-in screen loads, as the browser fetches it:
 * the boot script, the entry chunk, the sign-in route's chunk (the router
 * loads it at once), and every chunk these import statically. Prints it,
 * writes it to dist/first-screen-js.json and fails the build above the
 * budget; the e2e test also sees what the browser fetches right after.
 */
function signInJsBudget(): Plugin {
  /** A quiet build (`--logLevel warn`, as `npm start` runs it) says what it built in this one line only. */
  let quiet = false;
  let started = 0;
  return {
    name: 'data-platform-sign-in-js-budget',
    apply: 'build',
    configResolved(config) {
      quiet = config.logLevel === 'warn' || config.logLevel === 'error';
    },
    buildStart() {
      started = performance.now();
    },
    // Once written: Vite adds the preload lists to the chunks after every plugin's generateBundle.
    writeBundle(options, bundle) {
      const chunks = new Map(
        Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])),
      );
      const starts = [...chunks.values()].filter(
        (chunk) => chunk.isEntry || (chunk.isDynamicEntry && chunk.facadeModuleId?.endsWith(SIGN_IN_PAGE)),
      );
      if (starts.length < 2) this.error(`No entry chunk or no chunk of ${SIGN_IN_PAGE}`);
      const loaded = new Set<string>();
      const visit = (fileName: string) => {
        if (loaded.has(fileName)) return;
        loaded.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      for (const start of starts) visit(start.fileName);
      const code = (fileName: string) => {
        const item = bundle[fileName];
        if (item?.type === 'chunk') return item.code;
        return item?.type === 'asset' ? item.source : '';
      };
      const boot = Object.keys(bundle).filter((fileName) => /^assets\/boot-[\w-]+\.js$/.test(fileName));
      const files = [...boot, ...loaded].map((fileName) => ({
        file: fileName,
        gzipBytes: gzipSync(code(fileName)).length,
      }));
      const gzipBytes = files.reduce((sum, file) => sum + file.gzipBytes, 0);
      const report = { gzipBytes, budgetBytes: SIGN_IN_JS_BUDGET_BYTES, files };
      writeFileSync(path.join(options.dir ?? 'dist', 'first-screen-js.json'), `${JSON.stringify(report, null, 2)}\n`);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      const figure = `Sign-in screen JavaScript: ${kb(gzipBytes)} gzip in ${files.length} files (budget ${kb(SIGN_IN_JS_BUDGET_BYTES)})`;
      if (gzipBytes > SIGN_IN_JS_BUDGET_BYTES) this.error(`${figure}: above the budget`);
      else if (!quiet) console.log(figure);
      else {
        const total = Object.values(bundle).reduce(
          (sum, item) => sum + (item.type === 'chunk' ? Buffer.byteLength(item.code) : item.source.length),
          0,
        );
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        console.log(
          `Web app built in ${seconds} s: ${Object.keys(bundle).length} files, ${kb(total)}; sign-in screen ${kb(gzipBytes)} gzip (budget ${kb(SIGN_IN_JS_BUDGET_BYTES)})`,
        );
      }
    },
  };
}

/**
 * Every `import ... from 'zod'` of the app goes through
 * src/app/zod-without-eval.ts, which switches zod's compiling off before
 * handing zod on: the screens that load zod (forms, the first check of an
 * auth form) get it set, and main.tsx need not load zod to set it.
 */
function zodWithoutEval(): Plugin {
  const shim = path.join(import.meta.dirname, 'src/app/zod-without-eval.ts');
  return {
    name: 'data-platform-zod-without-eval',
    enforce: 'pre',
    resolveId: (source, importer) => (source === 'zod' && importer !== shim ? shim : null),
  };
}

/**
 * React Router's package names its development build for every condition; its
 * production build is the same code with the development warnings switched
 * off, so that the minifier drops them. The build uses it.
 */
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production',
);
const reactRouterProduction = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

/**
 * Common chunks under this size (their modules' source, before minifying) are inlined into the chunks that
 * read them: a screen fetches fewer, better-compressed files (the signed-in list: 121 files and 309.7 KB
 * gzipped before, 34 and 304.9 KB after), at the cost of the same code in several lazy chunks.
 */
const INLINED_COMMON_CHUNK_BYTES = 16 * 1024;
/** Chunks holding styles stay files (Vite emits a style module's CSS from every chunk that lists it). */
const STYLE_MODULES = /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/;

export default defineConfig(({ command }) => ({
  plugins: [zodWithoutEval(), react(), bootScriptPlugin(), signInJsBudget()],
  resolve: {
    alias: [
      ...(command === 'build' ? reactRouterProduction : []),
      // react-toastify's default entry carries its stylesheet as a string it injects at run time; the
      // unstyled one is the same API without it, and main.tsx loads the stylesheet as CSS. Every
      // `import ... from 'react-toastify'` gets it, so that one toast store serves the app's container.
      { find: /^react-toastify$/, replacement: 'react-toastify/unstyled' },
    ],
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Small chunks that several lazy screens share are copied into each of them instead of being files
          // of their own (one module state kept by rolldown's runtime); docs/decisions/0030.
          experimentalInlineCommonChunks: { maxSize: INLINED_COMMON_CHUNK_BYTES, exclude: STYLE_MODULES },
        },
      },
    },
  },
}));
