import { readdirSync, readFileSync } from 'node:fs';
import { frozenPlayerMessage } from '../../engine/wire/admin-types.ts';
import { describe, expect, it } from 'vitest';
import { catalogPath, domains, type CatalogSource } from '../../engine/rules/i18n/catalog.ts';
import { compileCatalog, type CompiledCatalog } from '../../engine/rules/i18n/compile.ts';
import { locales } from '../../engine/rules/i18n/locales.ts';
import { boostCatalogue, energyLimitKey, roadmap, titleTiers } from '../../engine/rules/economy.ts';
import { messages } from '../../engine/wire/messages.ts';

const root = new URL('../../', import.meta.url);
const read = (domain: (typeof domains)[number], locale: string): CatalogSource =>
  JSON.parse(readFileSync(new URL(catalogPath(domain, locale as never), root), 'utf8')) as CatalogSource;

type Token = CompiledCatalog[string];

/** Every argument name and rich-text tag (`<0>`, `</0>`) a compiled message uses, sorted. */
const placeholdersOf = (compiled: Token): string[] => {
  const found = new Set<string>();
  // A compiled message is a list of parts: text, or an argument [name, type?, options?] whose
  // plural/select options are lists of parts again.
  const walk = (parts: unknown): void => {
    if (typeof parts !== 'string' && !Array.isArray(parts)) return; // e.g. a plural's offset
    for (const part of typeof parts === 'string' ? [parts] : (parts as unknown[])) {
      if (typeof part === 'string') {
        for (const m of part.matchAll(/<\/?\d+\/?>/g)) found.add(m[0]);
      } else if (Array.isArray(part)) {
        found.add(`{${String(part[0])}}`);
        if (part[2] && typeof part[2] === 'object') for (const v of Object.values(part[2] as object)) walk(v);
      }
    }
  };
  walk(compiled);
  return [...found].sort();
};

describe('catalogs', () => {
  for (const domain of domains) {
    const en = read(domain, 'en');
    const enCompiled = compileCatalog(en);

    it(`${domain}: English parses and is not empty`, () => {
      expect(Object.keys(en).length).toBeGreaterThan(0);
      for (const id of Object.keys(en)) expect(id.startsWith(`${domain}.`), id).toBe(true);
    });

    for (const locale of locales.filter((l) => l !== 'en')) {
      it(`${domain}/${locale}: every key, no extra key, same placeholders, parses`, () => {
        const other = read(domain, locale);
        expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
        const compiled = compileCatalog(other);
        for (const id of Object.keys(en)) {
          expect(placeholdersOf(compiled[id]!), `${locale} ${id}`).toEqual(placeholdersOf(enCompiled[id]!));
          expect(other[id]!.trim(), `${locale} ${id}`).not.toBe('');
        }
      });
    }
  }

  it('finds arguments, plural arguments and tags', () => {
    const c = compileCatalog({ a: 'Hi {name}, {n, plural, one {# coin} other {# coins of {who}}} <0>x</0>' });
    expect(placeholdersOf(c.a!)).toEqual(['</0>', '<0>', '{name}', '{n}', '{who}']);
  });

  it('keeps product names in every language', () => {
    for (const domain of domains) {
      const en = read(domain, 'en');
      for (const locale of locales) {
        const other = read(domain, locale);
        for (const [id, text] of Object.entries(en)) {
          for (const name of ['$MONEY', 'Telegram', 'TON']) {
            if (text.includes(name)) expect(other[id], `${locale} ${id} keeps ${name}`).toContain(name);
          }
        }
      }
    }
  });

  it("English is the spec's words: §8 messages, boosts, titles and roadmap phases as the engine has them", () => {
    const app = read('app', 'en');
    for (const [key, text] of Object.entries(messages)) expect(app[`app.msg.${key}`], key).toBe(text);
    expect(Object.keys(app).filter((id) => id.startsWith('app.msg.'))).toHaveLength(Object.keys(messages).length);
    for (const entry of Object.values(boostCatalogue)) {
      expect(app[`app.boost.${entry.key}.title`]).toBe(entry.title);
      expect(app[`app.boost.${entry.key}.description`]).toBe(entry.description);
    }
    expect(app['app.boost.energyLimit']).toBe('Energy Limit');
    expect(energyLimitKey).toBe(2);
    expect(app['app.frozen.message']).toBe(frozenPlayerMessage);
    const titleIds = Object.keys(app).filter((id) => id.startsWith('app.title.'));
    expect(titleIds.map((id) => app[id])).toEqual(titleTiers.map((t) => t.name));
    const site = read('site', 'en');
    for (const p of roadmap) expect(site[`site.roadmap.phase${p.phase}`]).toBe(p.title);
  });

  it('has every message id the mini-app names (src/mini-app, src/telegram.ts)', () => {
    const app = read('app', 'en');
    const files = [
      ...readdirSync(new URL('src/mini-app/', root), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f)).map((f) => `src/mini-app/${f}`),
      'src/telegram.ts',
    ];
    const named = new Set<string>();
    for (const file of files) {
      for (const m of readFileSync(new URL(file, root), 'utf8').matchAll(/['"`](app\.[A-Za-z0-9_.]+)['"`]/g)) named.add(m[1]!);
    }
    expect(named.size).toBeGreaterThan(100);
    expect([...named].filter((id) => !(id in app))).toEqual([]);
    // Ids built at run time: app.msg.<MessageKey> and app.boost.<key>.* are checked above; titles by camelCase name.
    for (const t of titleTiers) expect(app[`app.title.${t.name.replace(/ (\w)/g, (_m, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toLowerCase())}`], t.name).toBe(t.name);
  });
});
