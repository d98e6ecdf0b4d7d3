import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogPath, type CatalogSource } from '../../engine/rules/i18n/catalog.ts';
import { locales, type Locale } from '../../engine/rules/i18n/locales.ts';
import { playerRefusalCodes, refusalCatalogId, refusalCodes, refusalMessage, refusals, refusalValueNames } from '../../engine/wire/refusals.ts';

/** Every refusal a player can meet reads in their language (docs/i18n.md "Refusals"). */
const root = new URL('../../', import.meta.url);
const app = (locale: Locale): CatalogSource => JSON.parse(readFileSync(new URL(catalogPath('app', locale), root), 'utf8')) as CatalogSource;
const catalogs = Object.fromEntries(locales.map((l) => [l, app(l)])) as Record<Locale, CatalogSource>;

/** The argument names of an ICU message (plain `{name}` ones: refusal entries use no plural or select). */
const argumentsOf = (message: string): string[] => [...message.matchAll(/\{(\w+)/g)].map((m) => m[1]!);

describe('refusal catalog entries', () => {
  it('has an entry for every code a player can meet, in all nine languages', () => {
    expect(playerRefusalCodes.length).toBeGreaterThan(50);
    const missing = locales.flatMap((locale) =>
      playerRefusalCodes.filter((code) => !catalogs[locale][refusalCatalogId(code)]?.trim()).map((code) => `${locale} ${refusalCatalogId(code)}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no refusal entry without a player code: operator refusals are English only', () => {
    const own = new Set(playerRefusalCodes.map(refusalCatalogId));
    for (const locale of locales) {
      expect(Object.keys(catalogs[locale]).filter((id) => id.startsWith('app.refusal.') && !own.has(id)), locale).toEqual([]);
    }
    const operatorIds = refusalCodes.filter((code) => refusals[code].audience === 'operator').map((code) => `app.refusal.${code}`);
    expect(operatorIds.filter((id) => id in catalogs.en)).toEqual([]);
  });

  it('never names a setting to a player: the server log and docs/configuration.md do', () => {
    const setting = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
    expect(playerRefusalCodes.filter((code) => setting.test(refusals[code].text))).toEqual([]);
    for (const locale of locales) {
      expect(playerRefusalCodes.filter((code) => setting.test(catalogs[locale][refusalCatalogId(code)] ?? '')), locale).toEqual([]);
    }
  });

  it("English is the server's English where the entry can say all of it; a translation names only the field", () => {
    for (const code of playerRefusalCodes) {
      const id = refusalCatalogId(code);
      const values = refusalValueNames(code);
      // A value other than the field (a price, a task id) is not in the body: the entry says the
      // same without it. Otherwise the English entry is the server's text, word for word.
      if (values.every((name) => name === 'field')) expect(catalogs.en[id], code).toBe(refusalMessage(code));
      for (const locale of locales) expect(argumentsOf(catalogs[locale][id] ?? '').filter((name) => name !== 'field'), `${locale} ${id}`).toEqual([]);
    }
  });
});
