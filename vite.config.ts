import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { catalogsPlugin } from './server/web/vite-catalogs.ts';
import { precompressPlugin } from './server/web/vite-precompress.ts';

/** Debian's Chromium; no npm package downloads a browser of its own. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];

const apiTarget = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  // catalogsPlugin: `*.json?catalog` imports are compiled Lingui catalogs (docs/i18n.md);
  // precompressPlugin: brotli and gzip forms beside the built files (docs/decisions/launch.md).
  plugins: [react(), catalogsPlugin(), precompressPlugin()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Three trees (mini-app, site, console) share modules; left to itself Rolldown splits the
        // shared ones into many small chunks, each paying gzip's start-up cost. React goes in one
        // chunk for all three, the router in another (the mini-app paints its boot screen before
        // it needs one), and the mini-app's libraries in theirs: what the worker bridge needs at
        // mount, and React Query, which comes with the router. Telegram's script (@twa-dev/sdk)
        // is a lazy chunk of its own, loaded after the first screen (src/telegram.ts).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store)[\\/]/ },
            { name: 'router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/ },
            { name: 'game-vendor', test: /node_modules[\\/](@preact|comlink)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'telegram-sdk', test: /node_modules[\\/]@twa-dev[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/money/api': apiTarget },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/browser/**', 'tests/e2e/**', 'node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // Pre-bundle the browser tests' dependencies up front: found mid-run, Vite re-optimizes
        // and reloads, and the page can end up with two copies of React ("Invalid hook call").
        optimizeDeps: {
          include: [
            'react', 'react-dom', 'react-dom/client', 'react-router-dom', '@tanstack/react-query', 'sonner',
            '@preact/signals-react', '@preact/signals-react/runtime', 'comlink', '@twa-dev/sdk', 'html-to-image',
            '@marsidev/react-turnstile', 'decimal.js', '@lingui/core', '@lingui/react',
          ],
        },
        test: {
          name: 'browser',
          include: ['src/**/*.browser.test.{ts,tsx}', 'tests/browser/**/*.test.{ts,tsx}'],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium', viewport: { width: 375, height: 812 } }],
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
