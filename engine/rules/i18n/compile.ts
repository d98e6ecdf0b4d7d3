import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { CatalogSource } from './catalog.ts';

/** Compiled messages, the form Lingui's `i18n.load` takes without a compiler at run time. */
export type CompiledCatalog = Record<string, ReturnType<typeof compileMessage>>;

/**
 * Compiles a catalog's ICU messages. Runs at build time for the browser (i18n/vite-catalogs.ts) and
 * once at start-up in the server, so no MessageFormat parser ships to the browser. A message that
 * does not parse throws, naming its id.
 */
export const compileCatalog = (source: CatalogSource): CompiledCatalog =>
  Object.fromEntries(
    Object.entries(source).map(([id, message]) => {
      try {
        return [id, compileMessage(message)];
      } catch (error) {
        throw new Error(`catalog message ${id} does not parse: ${(error as Error).message}`, { cause: error });
      }
    }),
  );
