// End-to-end test in a real VS Code: code-server 4.100.3 (VS Code 1.100.3) in Debian's
// Chromium, driven by playwright-core. It installs the built .vsix, opens a copy of
// test-fixture/, waits for noalloc's squiggle on the allocating line, checks the hover,
// the status bar and the "Show Call Chain" quick pick, applies the "Insert a noalloc
// exemption" quick fix, saves, and checks that the squiggle is gone and the file on
// disk holds the exemption; then Check Workspace in a folder whose two projects sit
// one level down checks both. Screenshots go to test/e2e/artifacts/ (and, with
// NOALLOC_E2E_UPDATE_MEDIA=1, to media/ for the README).
//
// Environment: NOALLOC_LS (the server; default $CARGO_TARGET_DIR or
// ~/.cache/noalloc-target, release then debug), CODE_SERVER (default
// ~/.cache/noalloc-editors/code-server/node_modules/.bin/code-server), CHROMIUM
// (default /usr/bin/chromium), VSIX (default dist/noalloc-<version>.vsix).
// NOALLOC_E2E_BUNDLED=1: VSIX is a platform .vsix (package.sh --target) that brings
// its server; then no `noalloc.server.path` is set, noalloc-ls must be on neither
// PATH nor ~/.cargo/bin, and the squiggle proves the bundled server ran.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, "../..");
const version = JSON.parse(fs.readFileSync(path.join(ext, "package.json"), "utf8")).version;
const home = os.homedir();
const targetDir = process.env.CARGO_TARGET_DIR || path.join(home, ".cache/noalloc-target");
// The newer of the release and debug builds: an old release build must not shadow
// the debug build that `cargo test` has just made.
const server =
  process.env.NOALLOC_LS ||
  [path.join(targetDir, "release/noalloc-ls"), path.join(targetDir, "debug/noalloc-ls")]
    .filter((p) => fs.existsSync(p))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
const codeServer =
  process.env.CODE_SERVER || path.join(home, ".cache/noalloc-editors/code-server/node_modules/.bin/code-server");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const vsix = process.env.VSIX || path.join(ext, "dist", `noalloc-${version}.vsix`);
const artifacts = process.env.NOALLOC_E2E_ARTIFACTS || path.join(here, "artifacts");
const updateMedia = process.env.NOALLOC_E2E_UPDATE_MEDIA === "1";
const bundled = process.env.NOALLOC_E2E_BUNDLED === "1";
// The first analysis loads std's source: give it time on a cold cache.
const ANALYSIS_MS = Number(process.env.NOALLOC_E2E_TIMEOUT_MS || 120_000);

let passed = 0;
let failed = 0;
function log(m) {
  console.log(`[e2e ${new Date().toISOString().slice(11, 19)}] ${m}`);
}
function check(name, ok, detail = "") {
  if (ok) {
    passed += 1;
    console.log(`ok - ${name}`);
  } else {
    failed += 1;
    console.log(`not ok - ${name}${detail ? `: ${detail}` : ""}`);
  }
  return ok;
}

for (const [what, p] of [["noalloc-ls (set NOALLOC_LS)", server], ["code-server (set CODE_SERVER)", codeServer], ["chromium (set CHROMIUM)", chromiumPath], ["the .vsix (run package.sh)", vsix]]) {
  if (!p || !fs.existsSync(p)) {
    console.error(`e2e: missing ${what}: ${p}`);
    process.exit(2);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

async function waitFor(what, fn, ms, every = 250) {
  const end = Date.now() + ms;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, every));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "noalloc-e2e-"));
const ws = path.join(tmp, "fixture");
const data = path.join(tmp, "data");
const exts = path.join(tmp, "extensions");
fs.cpSync(path.join(ext, "test-fixture"), ws, { recursive: true });
fs.mkdirSync(path.join(data, "User"), { recursive: true });
fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });
const libRs = path.join(ws, "src/lib.rs");
// noalloc.server.path is machine-overridable: in code-server (a remote set-up) it is
// read from the machine's settings, not the user's.
fs.mkdirSync(path.join(data, "Machine"), { recursive: true });
fs.writeFileSync(path.join(data, "Machine/settings.json"), JSON.stringify(bundled ? {} : { "noalloc.server.path": server }, null, 2));
if (bundled) {
  const elsewhere = [...(process.env.PATH || "").split(path.delimiter), path.join(home, ".cargo/bin")]
    .map((dir) => path.join(dir, "noalloc-ls"))
    .filter((p) => fs.existsSync(p));
  check("no noalloc-ls on PATH or in ~/.cargo/bin (the .vsix must bring its own)", elsewhere.length === 0, elsewhere.join(", "));
}
const settings = {
  "workbench.colorTheme": "Default Dark Modern",
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "chat.commandCenter.enabled": false,
  "editor.fontSize": 15,
  "editor.minimap.enabled": false,
  "editor.hover.delay": 200,
  "window.zoomLevel": 0,
};
fs.writeFileSync(path.join(data, "User/settings.json"), JSON.stringify(settings, null, 2));
const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, "xdg-config"), XDG_DATA_HOME: path.join(tmp, "xdg-data") };

log(`server ${server}`);
log(`installing ${path.basename(vsix)}`);
const inst = spawnSync(codeServer, ["--install-extension", vsix, "--extensions-dir", exts, "--user-data-dir", data], { env, encoding: "utf8" });
if (!check("the .vsix installs into code-server", inst.status === 0 && /noalloc/.test(fs.readdirSync(exts).join(" ")), inst.stderr + inst.stdout)) {
  process.exit(1);
}
if (bundled) {
  const installed = fs.readdirSync(exts).filter((d) => d.startsWith("noalloc."));
  const inside = installed.map((d) => path.join(exts, d, "server/noalloc-ls")).filter((p) => fs.existsSync(p));
  check("the platform .vsix brings server/noalloc-ls", inside.length === 1, installed.join(", "));
}

const port = await freePort();
const csLog = fs.openSync(path.join(artifacts, "code-server.log"), "w");
const cs = spawn(
  codeServer,
  [
    "--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check",
    "--disable-workspace-trust", "--disable-getting-started-override", "--user-data-dir", data, "--extensions-dir", exts, ws,
  ],
  { env, detached: true, stdio: ["ignore", csLog, csLog] },
);
let browser;
function cleanup() {
  try {
    process.kill(-cs.pid, "SIGTERM");
  } catch {}
}
process.on("exit", cleanup);

const shot = async (page, name, media) => {
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file });
  if (media && updateMedia) fs.copyFileSync(file, path.join(ext, "media", `${name}.png`));
  log(`screenshot ${file}`);
};

try {
  await waitFor("code-server /healthz", async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 60_000, 500);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`);
  await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  log("workbench ready");

  // Open src/lib.rs from the explorer.
  const row = (label) => page.locator(".explorer-folders-view .monaco-list-row", { hasText: label }).first();
  await row("src").waitFor({ timeout: 30_000 });
  if ((await row("lib.rs").count()) === 0) await row("src").click();
  await row("lib.rs").click();
  await page.waitForSelector(".monaco-editor .view-lines", { timeout: 30_000 });
  log("opened src/lib.rs");

  // The squiggle on the allocating line.
  const squiggle = page.locator(".monaco-editor .squiggly-warning").first();
  const t0 = Date.now();
  await squiggle.waitFor({ state: "attached", timeout: ANALYSIS_MS });
  log(`squiggle after ${Date.now() - t0} ms`);
  // Code lenses arrive later and push lines down: measure the squiggle when it's used.
  await page.waitForTimeout(1500);
  let box = await squiggle.boundingBox();
  const lineText = await page.evaluate((y) => {
    for (const l of document.querySelectorAll(".monaco-editor .view-lines .view-line")) {
      const r = l.getBoundingClientRect();
      if (y >= r.top && y < r.bottom) return l.textContent.replace(/\u00a0/g, " ");
    }
    return null;
  }, box.y + box.height / 2);
  check("a warning squiggle is on the String::from line", /String::from\("hello"\)/.test(lineText ?? ""), `line is ${JSON.stringify(lineText)}`);

  // A code lens above each root: the allocating one and the clean one.
  const lenses = await waitFor("the code lenses of both roots", async () => {
    const t = await page.locator(".monaco-editor .codelens-decoration").allTextContents();
    return t.some((x) => /1 allocation/.test(x)) && t.some((x) => /no allocations/.test(x)) ? t : false;
  }, 30_000).catch(() => page.locator(".monaco-editor .codelens-decoration").allTextContents().then((t) => JSON.stringify(t)));
  check("code lenses: \"1 allocation\" above greet, \"no allocations\" above add", Array.isArray(lenses), String(lenses));

  // The status bar counts the finding.
  const statusItem = page.locator(".statusbar-item", { hasText: "noalloc" }).first();
  const statusText = await waitFor("the status bar item to count the finding", async () => {
    const t = (await statusItem.textContent())?.trim();
    return t && /noalloc: 1/.test(t) ? t : false;
  }, 30_000).catch((e) => e.message);
  check("the status bar shows one finding", /noalloc: 1/.test(statusText), statusText);

  // Hover over the squiggle (overlays intercept .hover(), so move the mouse there).
  box = await squiggle.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const hover = page.locator(".monaco-hover:not(.hidden)", { hasText: "String::from" }).first();
  const hoverOk = await hover.waitFor({ state: "visible", timeout: 15_000 }).then(() => true, () => false);
  check("hovering the squiggle shows the finding", hoverOk, hoverOk ? "" : await page.locator(".monaco-hover").allTextContents().then((t) => t.join(" | ")));
  await page.waitForTimeout(500);
  await shot(page, "screenshot-finding", true);

  // Show Call Chain: cursor on the finding, then the command from the palette.
  await page.mouse.move(box.x + box.width / 2, box.y - 200);
  await page.keyboard.press("Escape");
  box = await squiggle.boundingBox();
  await page.mouse.click(box.x + 3, box.y + box.height / 2);
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type("noalloc: Show Call Chain");
  const commandRow = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Show Call Chain" }).first();
  await commandRow.waitFor({ timeout: 10_000 });
  await commandRow.click();
  const chainRows = page.locator(".quick-input-widget .monaco-list-row");
  const chain = await waitFor("the call chain quick pick", async () => {
    const t = await chainRows.allTextContents();
    return t.some((x) => /root/.test(x)) ? t : false;
  }, 10_000).catch(() => chainRows.allTextContents());
  check(
    "Show Call Chain lists the root, then the String::from call as step 1",
    /greet/.test(chain[0] ?? "") && /root/.test(chain[0] ?? "") && /String::from/.test(chain[1] ?? "") && /step 1/.test(chain[1] ?? ""),
    JSON.stringify(chain),
  );
  await shot(page, "screenshot-chain", true);
  // The list is virtual: filter to reach its last item, the finding itself.
  await page.keyboard.type("finding");
  const findingRow = await waitFor("the finding in the chain", async () => {
    const t = await chainRows.allTextContents();
    return t.find((x) => /finding \(allocation\)/.test(x)) ?? false;
  }, 5_000).catch(() => chainRows.allTextContents().then((t) => JSON.stringify(t)));
  check("the chain ends with the finding itself", /finding \(allocation\)/.test(findingRow) && /src\/lib\.rs:5/.test(findingRow), findingRow);
  await page.keyboard.press("Escape");
  await page.waitForTimeout(300);

  // A settings change reaches the running server (workspace/didChangeConfiguration):
  // severity "error" turns the squiggle red, and back.
  // (Workspace settings: code-server's browser side does not watch the user settings file.)
  fs.mkdirSync(path.join(ws, ".vscode"), { recursive: true });
  const writeWorkspaceSettings = (extra) => fs.writeFileSync(path.join(ws, ".vscode/settings.json"), JSON.stringify(extra, null, 2));
  writeWorkspaceSettings({ "noalloc.severity": "error" });
  const red = await page.locator(".monaco-editor .squiggly-error").first().waitFor({ state: "attached", timeout: 60_000 }).then(() => true, () => false);
  const starts = () => {
    const logs = path.join(data, "logs");
    let n = 0;
    for (const dir of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
      const f = path.join(logs, dir, "exthost1/noalloc.noalloc/noalloc.log");
      if (fs.existsSync(f)) n += (fs.readFileSync(f, "utf8").match(/\] starting /g) ?? []).length;
    }
    return n;
  };
  check("noalloc.severity = error turns the finding into an error, without a restart", red && starts() === 1, `red=${red}, server starts=${starts()}`);
  writeWorkspaceSettings({});
  const yellow = await page.locator(".monaco-editor .squiggly-warning").first().waitFor({ state: "attached", timeout: 60_000 }).then(() => true, () => false);
  check("clearing it brings the warning back", yellow && (await page.locator(".monaco-editor .squiggly-error").count()) === 0);

  // noalloc.strictPanics reaches the server too: `pick`'s panic message calls
  // `describe`, which allocates; cut as a panic path by default, reported with the
  // setting on (on line 24, in view below `greet`), and cut again when it is cleared.
  const warnings = () => page.locator(".monaco-editor .squiggly-warning").count();
  const before = await warnings();
  writeWorkspaceSettings({ "noalloc.strictPanics": true });
  const strict = await waitFor("a second squiggle with strictPanics", async () => (await warnings()) > before, 60_000).then(() => true, () => false);
  check("noalloc.strictPanics = true checks what a panic path computes, without a restart", strict && starts() === 1, `squiggles ${before} -> ${await warnings()}, server starts=${starts()}`);
  writeWorkspaceSettings({});
  const lenient = await waitFor("back to one squiggle", async () => (await warnings()) === before, 60_000).then(() => true, () => false);
  check("clearing it cuts the panic path again", lenient, `squiggles ${await warnings()}`);

  // The quick fix: cursor on the squiggle, Control+. , pick "Insert a noalloc exemption".
  box = await squiggle.boundingBox();
  await page.mouse.click(box.x + 3, box.y + box.height / 2);
  await page.keyboard.press("Control+.");
  const fixRow = page.locator(".action-widget .monaco-list-row", { hasText: "Insert a noalloc exemption" }).first();
  const fixOk = await fixRow.waitFor({ state: "visible", timeout: 15_000 }).then(() => true, () => false);
  if (!check("the quick fix menu offers \"Insert a noalloc exemption\"", fixOk, await page.locator(".action-widget .monaco-list-row").allTextContents().then((t) => JSON.stringify(t)))) {
    await shot(page, "failure-quickfix", false);
    throw new Error("no exemption quick fix");
  }
  await shot(page, "screenshot-quickfix", true);
  const fb = await fixRow.boundingBox();
  await page.mouse.move(fb.x + 20, fb.y + fb.height / 2);
  await page.mouse.click(fb.x + 20, fb.y + fb.height / 2);
  await page.waitForTimeout(300);
  await page.keyboard.press("Control+s");

  const onDisk = await waitFor("the exemption on disk", async () => {
    const text = fs.readFileSync(libRs, "utf8");
    return /String::from\("hello"\);\s*\/\/ ?noalloc:exempt \w+: /.test(text) ? text : false;
  }, 15_000).catch(() => fs.readFileSync(libRs, "utf8"));
  check("the saved file holds the exemption on the allocating line", /String::from\("hello"\);\s*\/\/ ?noalloc:exempt \w+: /.test(onDisk), onDisk);

  // The squiggle goes, and a fresh `noalloc-ls --check` of the saved file agrees.
  const anySquiggle = async () => page.locator(".monaco-editor .squiggly-warning, .monaco-editor .squiggly-error").count();
  const gone = await waitFor("the squiggle to go", async () => (await anySquiggle()) === 0, ANALYSIS_MS).then(() => true, () => false);
  check("the squiggle is gone after the fix", gone);
  const after = await waitFor("the status bar to clear", async () => {
    const t = (await statusItem.textContent())?.trim();
    return t && !/noalloc: \d/.test(t) ? t : false;
  }, 30_000).then((t) => ({ ok: true, t }), async () => ({ ok: false, t: await statusItem.textContent() }));
  check("the status bar shows no findings", after.ok, after.t);
  await page.mouse.move(1000, 600);
  await page.waitForTimeout(500);
  await shot(page, "screenshot-fixed", true);
  const oracle = spawnSync(server, ["--check", ws, "--message-format", "short", "--color", "never"], { encoding: "utf8", timeout: ANALYSIS_MS });
  log(`--check of the saved file: exit ${oracle.status}: ${(oracle.stdout || "").trim()} ${(oracle.stderr || "").trim().slice(0, 200)}`);
  check("noalloc-ls --check of the saved file agrees: clean (exit 0)", oracle.status === 0, `${oracle.status}: ${oracle.stdout}${oracle.stderr}`);

  // noalloc: Check Workspace runs `noalloc-ls --check` as a task, and the extension
  // says what its exit status means.
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type("noalloc: Check Workspace");
  const checkRow = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Check Workspace" }).first();
  await checkRow.waitFor({ timeout: 10_000 });
  await checkRow.click();
  const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "noalloc: the check" }).first();
  const toastOk = await toast.waitFor({ state: "visible", timeout: ANALYSIS_MS }).then(() => true, () => false);
  const toastText = toastOk ? (await toast.locator(".notification-list-item-message").textContent()) ?? "" : "";
  check("Check Workspace runs noalloc-ls --check and reports a clean workspace", /found no allocations/.test(toastText), toastText || "no notification");
  await shot(page, "screenshot-check", false);
  const expectIcon = ".codicon-check";
  check(`the server is still running after the check (status bar shows ${expectIcon})`, (await statusItem.locator(expectIcon).count()) === 1,
    (await statusItem.innerHTML()).slice(0, 300));

  // noalloc: Restart Server stops the server and starts a new one, which publishes again.
  await page.locator(".notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .notification-toast .codicon-close").first().click().catch(() => {});
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type("noalloc: Restart Server");
  const restartRow = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Restart Server" }).first();
  await restartRow.waitFor({ timeout: 10_000 });
  await restartRow.click();
  const restarted = await waitFor("a second server start", async () => starts() === 2, 30_000).then(() => true, () => false);
  const backUp = await waitFor("the status bar after the restart", async () => (await statusItem.locator(expectIcon).count()) === 1, ANALYSIS_MS).then(() => true, () => false);
  check("Restart Server starts a new server, which reports the same state", restarted && backUp, `starts=${starts()}, status=${await statusItem.textContent()}`);

  // A folder whose cargo projects sit one level down (`a` allocates, `b` does not):
  // Check Workspace checks every project the server serves, not the folder alone.
  await page.locator(".notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .notification-toast .codicon-close").first().click().catch(() => {});
  const mono = path.join(tmp, "mono");
  fs.cpSync(path.join(ext, "test-fixture"), path.join(mono, "a"), { recursive: true });
  fs.mkdirSync(path.join(mono, "b/src"), { recursive: true });
  fs.writeFileSync(path.join(mono, "b/Cargo.toml"), '[package]\nname = "b"\nversion = "0.1.0"\nedition = "2021"\n\n[workspace]\n');
  fs.writeFileSync(path.join(mono, "b/src/lib.rs"), "// noalloc:root\npub fn twice(n: u32) -> u32 {\n    n * 2\n}\n");
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(mono)}`);
  await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  // The extension is active (its commands are in the palette) once its status item shows.
  await page.locator(".statusbar-item", { hasText: "noalloc" }).first().waitFor({ timeout: 60_000 });
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type("noalloc: Check Workspace");
  const monoRow = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Check Workspace" }).first();
  await monoRow.waitFor({ timeout: 10_000 });
  await monoRow.click();
  const monoToast = page.locator(".notifications-toasts .notification-toast", { hasText: "noalloc: the check of" }).first();
  const monoOk = await monoToast.waitFor({ state: "visible", timeout: 2 * ANALYSIS_MS }).then(() => true, () => false);
  const monoText = monoOk ? (await monoToast.locator(".notification-list-item-message").textContent()) ?? "" : "";
  check("Check Workspace in a folder with two projects one level down checks both", /the check of 2 projects: a: allocations; b: no allocations/.test(monoText), monoText || "no notification");
  await shot(page, "screenshot-check-two-projects", false);
  await page.locator(".notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .notification-toast .codicon-close").first().click().catch(() => {});

  // A server path that points nowhere: the extension says so, with the install command.
  await page.locator(".notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .notification-toast .codicon-close").first().click().catch(() => {});
  const missing = path.join(tmp, "no-such-noalloc-ls");
  fs.writeFileSync(path.join(data, "Machine/settings.json"), JSON.stringify({ "noalloc.server.path": missing }, null, 2));
  const missingToast = page.locator(".notifications-toasts .notification-toast", { hasText: "cargo install --path server" }).first();
  const missingOk = await missingToast.waitFor({ state: "visible", timeout: 30_000 }).then(() => true, () => false);
  const missingText = missingOk ? (await missingToast.locator(".notification-list-item-message").textContent()) ?? "" : "";
  const missingButtons = missingOk ? (await missingToast.locator(".monaco-button").allTextContents()).join(" | ") : "";
  check("a server path that points nowhere gives a message with the install command", missingOk && missingText.includes(missing) && /Copy Install Command/.test(missingButtons), `${missingText} [${missingButtons}]`);
  check("the status bar shows the missing server", (await statusItem.locator(".codicon-error").count()) === 1, (await statusItem.innerHTML()).slice(0, 300));
  await shot(page, "screenshot-missing-server", false);
} catch (e) {
  failed += 1;
  console.log(`not ok - e2e aborted: ${e.stack || e}`);
  try {
    const pages = browser?.contexts()[0]?.pages() ?? [];
    if (pages[0]) await pages[0].screenshot({ path: path.join(artifacts, "failure.png") });
  } catch {}
} finally {
  await browser?.close().catch(() => {});
  cleanup();
  // Keep VS Code's logs (the extension's output included) with the screenshots.
  fs.cpSync(path.join(data, "logs"), path.join(artifacts, "vscode-logs"), { recursive: true });
  log(`code-server log: ${path.join(artifacts, "code-server.log")}; VS Code logs: ${path.join(artifacts, "vscode-logs")}`);
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.log(`e2e: ${passed} passed, ${failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
