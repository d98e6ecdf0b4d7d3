/**
 * Debian's prometheus and promtool (.ci/ensure-prometheus.mjs installs them for npm test). A suite
 * that needs one is skipped with the reason only outside CI; under CI=true a missing binary fails.
 */
import { existsSync } from 'node:fs';

export const prometheusPath = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
export const promtoolPath = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';

/** True when the suite should be skipped: `path` is missing and this is not CI (which says so once). */
export const skipWithout = (suite: string, path: string): boolean => {
  if (existsSync(path)) return false;
  if (process.env.CI === 'true' || process.env.CI === '1') return false;
  console.warn(`${suite}: skipped, ${path} is missing (apt-get install prometheus, or run node .ci/ensure-prometheus.mjs as root)`);
  return true;
};
