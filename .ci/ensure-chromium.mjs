// npm test needs Debian's Chromium for the browser and end-to-end tests. No npm package may
// download a browser of its own, so install the Debian package when we are root, or say how.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing at ${chromium}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\nor point CHROMIUM_PATH at a Chromium binary.`);
    process.exit(1);
  }
  console.log(`Chromium is missing at ${chromium}; installing Debian's chromium package…`);
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  if (!existsSync(chromium)) {
    console.error(`apt-get finished but ${chromium} is still missing.`);
    process.exit(1);
  }
}
