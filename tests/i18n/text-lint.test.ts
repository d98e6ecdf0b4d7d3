import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// eslint.config.js: no user-visible string literal outside the catalogs in src/site, src/mini-app and
// src/telegram.ts (docs/i18n.md); the operator console (src/admin) is English only.
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

  it('applies to the mini-app and to the Telegram module, toasts included', async () => {
    expect(await problems('export const A = () => <p>Hello there</p>;\n', 'src/mini-app/text-probe.tsx')).toBe(1);
    expect(await problems('export const A = () => <button aria-label="Close popup">×</button>;\n', 'src/mini-app/ui/text-probe.tsx')).toBe(1);
    const toast = "declare const notify: (t: string, k?: string) => void;\nexport const f = (n: number) => { notify('Wallet linked', 'success'); notify(`Got ${n} coins`); };\n";
    expect(await problems(toast, 'src/mini-app/toast-probe.ts')).toBe(2);
    expect(await problems(toast, 'src/telegram.ts')).toBe(2);
    const ok = "declare const notify: (t: string, k?: string) => void;\ndeclare const _: (id: string) => string;\nexport const f = () => notify(_('app.wallet.linked'), 'success');\n";
    expect(await problems(ok, 'src/mini-app/toast-probe.ts')).toBe(0);
  });

  it('leaves the English-only operator console alone', async () => {
    expect(await problems('export const A = () => <p>Hello there</p>;\n', 'src/admin/text-probe.tsx')).toBe(0);
  });
});
