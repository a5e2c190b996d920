// Lists every script a browser downloads on a first view of a page (the entry, its preloads and the
// chunks loaded lazily while the page settles), then sums them as the server sends them gzip- and
// brotli-compressed. Run by bench/first-view.sh with the server's base URL.
import { get } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium } = require('@playwright/test');

const [base, ...paths] = process.argv.slice(2);

/** The size of `url` as sent to a client that accepts `encoding`. */
function sizeOf(url, encoding) {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (res) => {
      let size = 0;
      res.on('data', (chunk) => {
        size += chunk.length;
      });
      res.on('end', () => resolve(size));
    }).on('error', reject);
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
for (const path of paths.length ? paths : ['/']) {
  const page = await browser.newPage();
  const scripts = new Set();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
  });
  await page.goto(base + path, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  // Parts that load after the load event (Home's console) have had time to ask for their code.
  await page.waitForTimeout(2000);
  await page.waitForLoadState('networkidle');
  let gz = 0;
  let br = 0;
  const rows = [];
  for (const script of scripts) {
    const g = await sizeOf(base + script, 'gzip');
    gz += g;
    br += await sizeOf(base + script, 'br');
    rows.push([g, script]);
  }
  rows.sort((a, b) => b[0] - a[0]);
  const kb = (n) => (n / 1024).toFixed(1).padStart(6);
  console.log(`${path.padEnd(10)} JS ${kb(gz)} KB gzip (${kb(br)} KB brotli) in ${scripts.size} scripts`);
  for (const [g, script] of rows) console.log(`  ${kb(g)} KB gzip  ${script}`);
  await page.close();
}
await browser.close();
