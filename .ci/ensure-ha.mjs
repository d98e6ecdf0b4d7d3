// npm test runs a real high-availability cluster on 127.0.0.1 (tests/e2e/ha/, docs/deploy.md
// "High availability"): etcd elects, Patroni runs PostgreSQL 15 and fails it over, HAProxy routes
// to the leader, the replicas and the ready API processes. Like Prometheus, all of it comes from
// Debian: install the packages when we are root, or say how. Their own services are not wanted:
// the tests start etcd, Patroni and HAProxy themselves on spare ports with temporary configs, so
// nothing may listen on the standard ports (2379/2380, 8008, 80) afterwards. The machine's
// PostgreSQL on 5432 is never touched.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';

const binaries = {
  patroni: process.env.PATRONI_PATH ?? '/usr/bin/patroni',
  patronictl: process.env.PATRONICTL_PATH ?? '/usr/bin/patronictl',
  etcd: process.env.ETCD_PATH ?? '/usr/bin/etcd',
  haproxy: process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy',
};
const packages = ['patroni', 'etcd-server', 'haproxy'];
const missing = () => Object.values(binaries).filter((p) => !existsSync(p));
const services = ['etcd', 'haproxy', 'patroni'];

if (missing().length > 0) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `The high-availability tools are missing (${missing().join(', ')}). Install them with:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}\n  sudo systemctl disable --now ${services.join(' ')}   # the tests start their own\nor point PATRONI_PATH, PATRONICTL_PATH, ETCD_PATH and HAPROXY_PATH at the binaries.`,
    );
    process.exit(1);
  }
  console.log(`The high-availability tools are missing (${missing().join(', ')}); installing Debian's ${packages.join(', ')}…`);
  // Without systemd, the packages' maintainer scripts start their init.d services through
  // invoke-rc.d unless policy-rc.d says no (exit 101): say no for the install, when nothing does.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    // The package lists are fetched once, and only when apt does not know the packages yet.
    const known = (() => {
      try {
        execSync(`apt-cache show ${packages.join(' ')}`, { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    })();
    if (!known) execSync('apt-get update -qq', { stdio: 'inherit' });
    execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages.join(' ')}`, { stdio: 'inherit' });
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
  // Where systemd runs, the packages enable and start their services; nothing here needs them.
  if (existsSync('/run/systemd/system')) execSync(`systemctl disable --now ${services.join(' ')} || true`, { stdio: 'inherit' });
  else for (const s of services) if (existsSync(`/etc/init.d/${s}`)) execSync(`/etc/init.d/${s} stop >/dev/null 2>&1 || true`, { stdio: 'inherit' });
  if (missing().length > 0) {
    console.error(`apt-get finished but ${missing().join(', ')} is still missing.`);
    process.exit(1);
  }
}
