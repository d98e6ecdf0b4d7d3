// npm test runs a real Prometheus against the server and promtool over ops/alerts.yml
// (docs/operations.md). Like Chromium, it comes from Debian: install the package when we are root,
// or say how. The package's own service is not wanted: the tests start /usr/bin/prometheus
// themselves on a spare port with a temporary config, so a service the install enabled is stopped.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const prometheus = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const promtool = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
const missing = () => [prometheus, promtool].filter((p) => !existsSync(p));

if (missing().length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `Prometheus is missing (${missing().join(', ')}). Install it with:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends prometheus\n  sudo systemctl disable --now prometheus   # the tests start their own\nor point PROMETHEUS_PATH and PROMTOOL_PATH at the binaries.`,
    );
    process.exit(1);
  }
  console.log(`Prometheus is missing (${missing().join(', ')}); installing Debian's prometheus package…`);
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus', { stdio: 'inherit' });
  // Where systemd runs, the package starts its service on port 9090; nothing here needs it.
  if (existsSync('/run/systemd/system')) execSync('systemctl disable --now prometheus || true', { stdio: 'inherit' });
  if (missing().length > 0) {
    console.error(`apt-get finished but ${missing().join(', ')} is still missing.`);
    process.exit(1);
  }
}
