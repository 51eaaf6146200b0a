// Opens a page or picture in the system's headless Chromium and prints, as
// one JSON object, what a person would see there: console errors and page
// errors, every chart's events (classes, and whether the centre of the
// event's mark lies inside a shaded causal-past band, measured from the
// rendered geometry), and every table's headers and rows as shown.
//
//   node inspect.mjs PLAN.json
//
// PLAN: {"url": "file:///...", "clicks": [CSS selectors, clicked in order],
//        "screenshot": "out.png" (optional), "width": 1000, "height": 800,
//        "javascript": true}
// Chromium is /usr/bin/chromium unless HINDSIGHT_CHROMIUM names another.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({
  executablePath: process.env.HINDSIGHT_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({
  viewport: { width: plan.width || 1000, height: plan.height || 800 },
  javaScriptEnabled: plan.javascript !== false,
});
const page = await context.newPage();
const consoleErrors = [];
const pageErrors = [];
const requests = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
page.on('pageerror', (e) => pageErrors.push(String(e)));
page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
await page.goto(plan.url, { waitUntil: 'load' });
for (const selector of plan.clicks || []) {
  await page.click(selector);
}
const seen = await page.evaluate(() => {
  const centre = (el) => {
    const b = el.getBoundingClientRect();
    return { x: b.left + b.width / 2, y: b.top + b.height / 2 };
  };
  const inside = (p, el) => {
    const b = el.getBoundingClientRect();
    return p.x >= b.left && p.x <= b.right && p.y >= b.top && p.y <= b.bottom;
  };
  const charts = [...document.querySelectorAll('g.chart')].map((chart) => {
    const bands = [...chart.querySelectorAll('rect.past')];
    return {
      at: chart.getAttribute('data-at'),
      events: [...chart.querySelectorAll('g.event')].map((g) => {
        const p = centre(g.querySelector('.dot'));
        return {
          event: Number(g.getAttribute('data-event')),
          classes: g.getAttribute('class').split(/\s+/),
          shaded: bands.some((band) => inside(p, band)),
        };
      }),
      messages: [...chart.querySelectorAll('line.message')].map((l) => ({
        send: Number(l.getAttribute('data-send')),
        classes: l.getAttribute('class').split(/\s+/),
      })),
      guards: [...chart.querySelectorAll('text.guard')].map((t) => t.textContent),
    };
  });
  const tables = [...document.querySelectorAll('table')].map((t) => ({
    id: t.id,
    headers: [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim()),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent.trim())),
  }));
  return {
    title: document.title || (document.querySelector('svg > title') || {}).textContent || '',
    charts,
    tables,
    text: document.body ? document.body.innerText : '',
  };
});
if (plan.screenshot) {
  await page.screenshot({ path: plan.screenshot, fullPage: true });
}
await browser.close();
console.log(JSON.stringify({ consoleErrors, pageErrors, requests, ...seen }));
