import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import { chromiumArgs, chromiumPath } from '../../vite.config.ts';
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const page = await browser.newPage();
// Where the ink is on the middle row: the tip of › is on the right, of ‹ on the left.
const tip = async (html: string) => {
  await page.setContent(`<body style="margin:0">${html}</body>`);
  const png = PNG.sync.read(await page.locator('#s').screenshot());
  const row = Math.floor(png.height / 2);
  const inked: number[] = [];
  for (let x = 0; x < png.width; x++) if (png.data[(row * png.width + x) * 4]! < 128) inked.push(x);
  return inked.length ? (inked.reduce((a, b) => a + b, 0) / inked.length / png.width).toFixed(2) : 'none';
};
console.log('ltr ›', await tip('<div style="font:60px sans-serif"><span id=s>›</span></div>'));
console.log('ltr ‹', await tip('<div style="font:60px sans-serif"><span id=s>‹</span></div>'));
console.log('rtl ›', await tip('<div dir=rtl style="font:60px sans-serif"><span id=s>›</span></div>'));
console.log('rtl flex item ›', await tip('<div dir=rtl style="font:60px sans-serif;display:flex"><span id=s>›</span></div>'));
console.log('rtl text+› ', await tip('<div dir=rtl style="font:60px sans-serif"><span id=s>رتبهٔ ›</span></div>'));
await browser.close();
