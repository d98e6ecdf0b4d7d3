import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// eslint.config.js: no user-visible string literal outside the catalogs in src/site (docs/i18n.md).
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });
const problems = async (code: string, filePath = 'src/site/text-probe.tsx'): Promise<number> => {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').length;
};

describe('the no-literal-text rule', () => {
  it('refuses text in JSX, in text attributes and in page titles', async () => {
    expect(await problems('export const A = () => <p>Hello there</p>;\n')).toBe(1);
    expect(await problems("export const A = () => <p>{'Hello'}</p>;\n")).toBe(1);
    expect(await problems('export const A = () => <p>{`Hi ${1}`}</p>;\n')).toBe(1);
    expect(await problems('export const A = () => <img alt="A coin" src="/c.svg" />;\n')).toBe(1);
    expect(await problems('export const A = () => <button aria-label="Close" title="Close" />;\n')).toBe(2);
    expect(await problems("import { usePageTitle } from './use-page-title.ts';\nexport const A = () => { usePageTitle('Terms'); return null; };\n")).toBe(1);
    expect(await problems('export const A = () => <p>Привет</p>;\n')).toBe(1);
  });

  it('allows catalog lookups, symbols, a lone X, ids and class names', async () => {
    const ok = [
      "export const A = ({ t }: { t: (id: string) => string }) => <p className=\"lead\" id={`s-${1}`}>{t('site.landing.lead')}</p>;\n",
      'export const A = () => <span aria-hidden="true">← → · +</span>;\n',
      'export const A = () => <a href="https://x.com">X</a>;\n',
      'export const A = () => <img alt="" src="/c.svg" />;\n',
    ];
    for (const code of ok) expect(await problems(code), code).toBe(0);
  });

  it('does not apply to the mini-app yet (it joins when its screens are wired)', async () => {
    expect(await problems('export const A = () => <p>Hello there</p>;\n', 'src/mini-app/text-probe.tsx')).toBe(0);
  });
});
