import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import type { CatalogSource } from '../../engine/rules/i18n/catalog.ts';
import { compileCatalog } from '../../engine/rules/i18n/compile.ts';

const query = '?catalog';
// A virtual id that does not end in .json, so Vite's JSON plugin leaves our output alone.
const prefix = '\0money-catalog:';
const suffix = '.js';

/**
 * `import x from '../../engine/rules/i18n/catalogs/app/ru.json?catalog'` (or import.meta.glob with `query: '?catalog'`) yields the
 * catalog compiled at build time: a module whose default export is ready for `i18n.load`.
 */
export const catalogsPlugin = (): Plugin => ({
  name: 'money-catalogs',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (!source.endsWith(query)) return null;
    const resolved = await this.resolve(source.slice(0, -query.length), importer, { skipSelf: true });
    return resolved ? `${prefix}${resolved.id}${suffix}` : null;
  },
  load(id) {
    if (!id.startsWith(prefix)) return null;
    const file = id.slice(prefix.length, -suffix.length);
    this.addWatchFile(file);
    const source = JSON.parse(readFileSync(file, 'utf8')) as CatalogSource;
    return `export default ${JSON.stringify(compileCatalog(source))};`;
  },
});
