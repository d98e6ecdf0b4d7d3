import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const resultsPath = new URL('./RESULTS.md', import.meta.url);
const header = '# Benchmark results\n\nEach section is written by the command in its heading, which replaces that section only (`npm run bench` runs every `bench/*.bench.ts`); numbers come from this 2-core machine.\n';

/** Replaces one named section of bench/RESULTS.md, keeping the others. */
export const writeSection = (name: string, markdown: string): void => {
  let text = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : header;
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n\n_Measured ${new Date().toISOString()}._\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text = from >= 0 && to > from ? text.slice(0, from) + block + text.slice(to + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(resultsPath, text);
};
