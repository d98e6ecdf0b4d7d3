/**
 * `npm run lighthouse`: builds the app (vite build), starts the real server on the built dist/
 * (as `npm start` does, with its security headers and config block), and runs Lighthouse (the npm
 * package driving Debian's Chromium) on the landing page, mobile and desktop, and in the same run
 * on the mini-app at /app opened as Telegram opens it (signed init data in the hash) by a new
 * player (onboarding) and by a returning one (home), mobile. Its targets: performance ≥ 95 and LCP
 * and TBT no worse than the landing page's. The median of
 * LIGHTHOUSE_RUNS runs (default 5, the machine is shared) goes into bench/RESULTS.md with the landing page's JS weight
 * and the check that it loads none of the mini-app's code. Target: ≥ 95 in all four categories.
 *
 * LIGHTHOUSE_URL=… measures a server that is already running; LIGHTHOUSE_STATIC=1 serves dist/
 * with bench/site-dist.ts's small static server instead of the real one; LIGHTHOUSE_SKIP_BUILD=1
 * reuses dist/ (LIGHTHOUSE_DIST=… points at another build, static server only).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { initDataOf, launchUrl } from '../server/dev/launch-url.ts';
import { chromiumArgs, chromiumPath } from '../vite.config.ts';
import { writeSection } from './results.ts';
import { defaultDist, root, siteBundle, startRealServer, startStaticServer, type RunningSite } from './site-dist.ts';

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const dist = process.env.LIGHTHOUSE_DIST ?? defaultDist;

type Scores = Record<(typeof categories)[number], number>;

let lighthouseVersion = '';

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A page to measure: its URL is made afresh for each run (a launch's init data is signed at that time). */
interface Target {
  name: string;
  url: () => Promise<string>;
}

const measure = async (target: Target, port: number, formFactor: 'mobile' | 'desktop'): Promise<Scores & { lcpMs: number; tbtMs: number }> => {
  const results: (Scores & { lcpMs: number; tbtMs: number })[] = [];
  for (let i = 0; i < runs; i++) {
    const result = await lighthouse(
      await target.url(),
      { port, output: 'json', logLevel: 'error', onlyCategories: [...categories] },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    lighthouseVersion = lhr.lighthouseVersion;
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      writeFileSync(join(process.env.LIGHTHOUSE_REPORT_DIR, `lighthouse-${target.name.replace(/\W+/g, '-')}-${formFactor}-${i + 1}.json`), JSON.stringify(lhr));
    }
    const score = (c: string): number => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    results.push({
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? 0),
    });
    const failing = Object.values(lhr.audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative');
    if (failing.length) console.log(`  ${target.name} ${formFactor} run ${i + 1} below 0.9: ${failing.map((a) => a.id).join(', ')}`);
  }
  const pick = (k: keyof (typeof results)[number]): number => median(results.map((r) => r[k]));
  return {
    performance: pick('performance'),
    accessibility: pick('accessibility'),
    'best-practices': pick('best-practices'),
    seo: pick('seo'),
    lcpMs: pick('lcpMs'),
    tbtMs: pick('tbtMs'),
  };
};

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

let playerSeq = 0;
/** A Telegram user of its own for each launch (a new player is new once). */
const benchUser = () => ({ id: 7_100_000_000 + Date.now() % 1_000_000 * 100 + (playerSeq++ % 100), first_name: 'Bench', username: `bench_${playerSeq}`, language_code: 'en' });

/**
 * The mini-app as Telegram opens it, signed with the server's (development) token: a new player
 * lands on onboarding; a returning one (welcome reward claimed through the API first) on home.
 */
const miniAppTargets = (base: string, botToken: string): Target[] => {
  const launch = (user: ReturnType<typeof benchUser>) => launchUrl({ publicUrl: base, botToken, user, nowMs: Date.now() });
  return [
    { name: '/app new player (onboarding)', url: async () => launch(benchUser()) },
    {
      name: '/app returning player (home)',
      url: async () => {
        const user = benchUser();
        const url = launch(user);
        const claimed = await fetch(`${base}${apiPrefix}/claim-welcome-rw`, { method: 'POST', headers: { authorization: `tma ${initDataOf(url)}` } });
        if (!claimed.ok) throw new Error(`claiming the welcome reward for the returning player: ${claimed.status} ${await claimed.text()}`);
        return launch(user);
      },
    },
  ];
};

const main = async (): Promise<void> => {
  if (!process.env.LIGHTHOUSE_URL && !process.env.LIGHTHOUSE_SKIP_BUILD) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  }
  const bundle = process.env.LIGHTHOUSE_URL ? undefined : siteBundle(dist);
  if (bundle?.forbidden.length) throw new Error(`The site loads mini-app code: ${bundle.forbidden.join(', ')}`);
  let site: RunningSite | undefined;
  let served = `server at ${process.env.LIGHTHOUSE_URL}`;
  if (!process.env.LIGHTHOUSE_URL) {
    site = process.env.LIGHTHOUSE_STATIC ? await startStaticServer(dist) : await startRealServer();
    served = process.env.LIGHTHOUSE_STATIC ? 'dist/ served with gzip by bench/site-dist.ts' : 'the real server (server/main.ts) on the fresh build';
  }
  const url = process.env.LIGHTHOUSE_URL ?? site!.url;
  const botToken = process.env.LIGHTHOUSE_BOT_TOKEN ?? site?.botToken?.();
  const loadBefore = loadavg()[0]!;
  const chrome = await launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', ...chromiumArgs] });
  try {
    const rows: string[] = [];
    const landing: Target = { name: '/', url: async () => url };
    const measured: { name: string; formFactor: string; s: Awaited<ReturnType<typeof measure>> }[] = [];
    const targets: [Target, 'mobile' | 'desktop'][] = [
      [landing, 'mobile'],
      [landing, 'desktop'],
      ...(botToken ? miniAppTargets(url.replace(/\/+$/, ''), botToken).map((t): [Target, 'mobile'] => [t, 'mobile']) : []),
    ];
    for (const [target, formFactor] of targets) {
      const s = await measure(target, chrome.port, formFactor);
      console.log(target.name, formFactor, s);
      measured.push({ name: target.name, formFactor, s });
      rows.push(`| ${target.name} | ${formFactor} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.seo} | ${s.lcpMs} | ${s.tbtMs} |`);
    }
    // The mini-app's targets: performance ≥ 95, LCP and TBT no worse than the landing page's (mobile).
    const site = measured.find((m) => m.name === '/' && m.formFactor === 'mobile')!.s;
    const verdicts = measured
      .filter((m) => m.name.startsWith('/app'))
      .map((m) => {
        const ok = m.s.performance >= 95 && m.s.lcpMs <= site.lcpMs && m.s.tbtMs <= site.tbtMs;
        return `${m.name}: ${ok ? 'meets' : 'misses'} the target (performance ${m.s.performance} ≥ 95, LCP ${m.s.lcpMs} ≤ ${site.lcpMs} ms, TBT ${m.s.tbtMs} ≤ ${site.tbtMs} ms).`;
      });
    const weight = bundle
      ? [
          '',
          `Landing page JS before first render: ${kb(bundle.gzipBytes)} gzip (${bundle.files.map((f) => `${f.name} ${kb(f.gzipBytes)}`).join(', ')}); site CSS ${kb(bundle.cssGzipBytes)} gzip. Mini-app code (src/mini-app, src/engine-client, comlink, @twa-dev/sdk) in those files: none.`,
        ]
      : [];
    writeSection(
      'lighthouse',
      [
        '## Lighthouse: landing page and mini-app (`npm run lighthouse`)',
        '',
        `Lighthouse ${lighthouseVersion} driving ${chromiumPath}, median of ${runs} runs, ${served}. Target ≥ 95 everywhere; the mini-app (opened with signed init data as Telegram opens it) also no slower to paint (LCP) nor more blocked (TBT) than the landing page, measured in the same run.`,
        `Load average on this 2-core machine: ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after (other work competes for the CPU; mobile performance is the score that moves with it).`,
        '',
        '| Page | Form factor | Performance | Accessibility | Best practices | SEO | LCP ms | TBT ms |',
        '|---|---|---|---|---|---|---|---|',
        ...rows,
        ...(verdicts.length ? ['', ...verdicts] : []),
        ...weight,
      ].join('\n'),
    );
  } finally {
    chrome.kill();
    await site?.stop();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) await main();
