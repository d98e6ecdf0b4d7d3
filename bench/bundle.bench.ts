/**
 * `npm run bench:bundle`: builds the client with Vite's API into bench/out and measures what each
 * route tree downloads before its first render (docs/mini-app.md budget: the mini-app's initial JS ≤ 120 KB
 * gzipped; the public site never loads mini-app code). Writes the `bundle` section of RESULTS.md.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { writeSection } from './results.ts';

type Chunk = Rolldown.OutputChunk;

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = fileURLToPath(new URL('./out', import.meta.url));
const budgetKb = 120;

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const rel = (id: string) => (id.startsWith(root) ? id.slice(root.length) : id);

const output = (await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, sourcemap: false } })) as Rolldown.RolldownOutput;
const chunks = output.output.filter((o): o is Chunk => o.type === 'chunk');
const byFile = new Map(chunks.map((c) => [c.fileName, c]));
const gz = (c: Chunk) => gzipSync(c.code, { level: 9 }).length;

/** A chunk and everything it imports statically (what the browser fetches before running it). */
const closure = (start: Chunk, seen = new Set<string>()): Set<string> => {
  if (seen.has(start.fileName)) return seen;
  seen.add(start.fileName);
  for (const file of start.imports) closure(byFile.get(file)!, seen);
  return seen;
};

const entry = chunks.find((c) => c.isEntry)!;
const treeChunk = (fragment: string) => chunks.find((c) => c.facadeModuleId?.endsWith(fragment))!;
const miniApp = treeChunk('src/mini-app/app.tsx');
const site = treeChunk('src/site/app.tsx');
const admin = treeChunk('src/admin/app.tsx');

const initial = (tree: Chunk) => [...new Set([...closure(entry), ...closure(tree)])].map((f) => byFile.get(f)!);
const total = (list: Chunk[]) => list.reduce((sum, c) => sum + gz(c), 0);

const miniInitial = initial(miniApp);
const siteInitial = initial(site);
const miniKb = total(miniInitial) / 1024;
const siteKb = total(siteInitial) / 1024;

// The engine's worker is a separate script the mini-app starts at load; report it on its own.
const workerAssets = output.output.filter((o) => o.type === 'asset' && /worker.*\.js$/.test(o.fileName));
const workerGz = workerAssets.reduce((sum, a) => sum + gzipSync(a.type === 'asset' ? a.source : '').length, 0);
const workerChunks = chunks.filter((c) => c.facadeModuleId?.endsWith('engine/client/worker.ts'));
const workerKb = (workerGz + total(workerChunks)) / 1024;

// The site must never load mini-app code: none of its initial chunks may hold a module from there.
const forbidden = [/\/src\/mini-app\//, /\/src\/game\//, /\/src\/telegram\.ts$/, /node_modules\/comlink\//, /node_modules\/@twa-dev\//];
const leaks = siteInitial.flatMap((c) => c.moduleIds.filter((id) => forbidden.some((f) => f.test(id))).map((id) => `${c.fileName}: ${rel(id)}`));

// The operator console (src/admin, and uPlot for its charts) is in neither tree's initial JS.
const consoleModules = [/\/src\/admin\//, /node_modules\/uplot\//];
const consoleLeaks = [...new Set([...miniInitial, ...siteInitial])].flatMap((c) =>
  c.moduleIds.filter((id) => consoleModules.some((f) => f.test(id))).map((id) => `${c.fileName}: ${rel(id)}`),
);
const adminInitial = initial(admin);
const adminKb = total(adminInitial) / 1024;
const adminLazy = chunks.filter((c) => !adminInitial.includes(c) && c.moduleIds.some((id) => consoleModules.some((f) => f.test(id))));

const lazy = chunks
  .filter((c) => !miniInitial.includes(c) && c.moduleIds.some((id) => id.includes('/src/mini-app/')))
  .map((c) => `${c.name} ${kb(gz(c))}`)
  .join(', ');

// sonner (the toasts) is fetched right after the first render, not before it.
const afterRender = chunks.filter((c) => c.moduleIds.some((id) => id.includes('node_modules/sonner/')));
const afterRenderKb = total(afterRender) / 1024;

// Each language's catalog is its own chunk (docs/i18n.md); a page fetches the active one's before rendering.
const catalogRange = (domain: string) => {
  const sizes = chunks.filter((c) => c.moduleIds.some((id) => id.includes(`/i18n/catalogs/${domain}/`))).map(gz);
  return sizes.length ? `${kb(Math.min(...sizes))}–${kb(Math.max(...sizes))} KB (${sizes.length} languages)` : 'none';
};

const table = (list: Chunk[]) => list.map((c) => `| ${c.fileName} | ${kb(c.code.length)} | ${kb(gz(c))} |`).join('\n');

const markdown = `## Bundle sizes (\`npm run bench:bundle\`)

Vite production build (bench/out), gzip level 9. "Initial" = the entry chunk, the route tree's chunk and every chunk they import statically: what the browser fetches before the first render.

**Mini-app initial JS: ${miniKb.toFixed(1)} KB gzipped** (budget ≤ ${budgetKb} KB: ${miniKb <= budgetKb ? 'met' : 'NOT met'}). The engine's worker script, started at load, is ${workerKb.toFixed(1)} KB gzipped on top, and the toasts (sonner), fetched just after the first render, ${afterRenderKb.toFixed(1)} KB.

| Mini-app initial chunk | raw KB | gzip KB |
|---|---|---|
${table(miniInitial)}

Lazy mini-app chunks (gzip KB): ${lazy}.

Catalog chunks, gzip, one per language, only the active one fetched: site ${catalogRange('site')} before the first render; legal ${catalogRange('legal')} with /policy or /terms; mini-app ${catalogRange('app')} fetched at mount, alongside the status call and the first screen's chunk.

**Public site initial JS: ${siteKb.toFixed(1)} KB gzipped.** Mini-app modules (src/mini-app, src/engine-client, src/telegram.ts, comlink, @twa-dev/sdk) in the site's initial chunks: ${leaks.length === 0 ? 'none' : leaks.join('; ')}.

| Site initial chunk | raw KB | gzip KB |
|---|---|---|
${table(siteInitial)}

**Operator console (/admin) initial JS: ${adminKb.toFixed(1)} KB gzipped**, its pages and uPlot in ${adminLazy.length} lazy chunks (${(total(adminLazy) / 1024).toFixed(1)} KB gzipped). Console modules (src/admin, uplot) in the mini-app's or the site's initial chunks: ${consoleLeaks.length === 0 ? 'none' : consoleLeaks.join('; ')}.
`;

console.log(markdown);
writeSection('bundle', markdown);
if (leaks.length > 0 || consoleLeaks.length > 0) process.exitCode = 1;
