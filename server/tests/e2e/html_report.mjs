// The HTML report in a real browser: headless Chromium (playwright-core) loads the
// page from disk, opens the first finding's call chain by clicking it, takes a
// screenshot, and checks that the page asked for nothing but itself and logged no
// error (a style or script the Content-Security-Policy blocked would log one).
//
//   PLAYWRIGHT_DIR=<dir holding node_modules/playwright-core> \
//     node html_report.mjs PAGE.html SCREENSHOT.png [CHROMIUM]
//
// Exits 0 when every check holds, 1 otherwise, saying which.

import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pagePath, screenshotPath, chromiumPath = "/usr/bin/chromium"] = process.argv.slice(2);
const require = createRequire(path.join(process.env.PLAYWRIGHT_DIR ?? process.cwd(), "noop.js"));
const { chromium } = require("playwright-core");

const failures = [];
const check = (holds, what) => {
  console.log(`${holds ? "ok" : "FAILED"}: ${what}`);
  if (!holds) failures.push(what);
};

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const pageUrl = pathToFileURL(path.resolve(pagePath)).href;
  const requests = [];
  const blocked = [];
  // Every request the page makes is recorded; any but the page itself is refused.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url === pageUrl) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(String(error)));
  await page.goto(pageUrl, { waitUntil: "load" });

  check((await page.title()) === "noalloc report", "the page's title");
  check((await page.locator("#summary table tbody tr").count()) > 0, "a summary row by crate and module");
  check((await page.locator("#roots tr.root").count()) > 0, "a row per root");
  const chain = page.locator("details.chain").first();
  check(await chain.isVisible(), "a finding's chain is on the page");
  check(!(await chain.evaluate((details) => details.open)), "the chain is folded before the click");
  check(!(await chain.locator("ol").isVisible()), "its calls are hidden before the click");
  await chain.locator("summary").click();
  check(await chain.evaluate((details) => details.open), "a click opens the chain");
  check(await chain.locator("ol li").first().isVisible(), "its calls show once opened");
  const calls = await chain.locator("ol li").allInnerTexts();
  check(calls.some((call) => call.includes("__rust_alloc")), "the chain goes down to the allocator");
  await chain.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath });
  console.log(`screenshot: ${screenshotPath}`);

  // The page's own script: "open every chain" opens them all.
  if ((await page.locator("#open-all").count()) > 0) {
    await page.locator("#open-all").click();
    const closed = await page.locator("details.chain:not([open])").count();
    check(closed === 0, "the open-every-chain button opens every chain");
  }

  check(blocked.length === 0, `no request but the page itself (asked for: ${JSON.stringify(blocked)})`);
  check(requests.length === 1 && requests[0] === pageUrl, `one request, the page (${requests.length} made)`);
  check(consoleErrors.length === 0, `no error logged (${JSON.stringify(consoleErrors)})`);
} finally {
  await browser.close();
}
if (failures.length > 0) {
  console.error(`html report: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log("html report: every check holds");
