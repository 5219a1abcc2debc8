// Workspace trust in a real VS Code: code-server 4.100.3 in Debian's Chromium, with
// workspace trust on. It opens a folder whose build script writes a marker file,
// declines to trust it, and checks that the extension stays off and no build script
// runs (no marker); then trusts the folder and checks that the server starts and
// loads the workspace, build script included (the marker appears). Screenshots go
// to test/e2e/artifacts-trust/.
//
// Environment: as run.mjs (NOALLOC_LS, CODE_SERVER, CHROMIUM, VSIX; NOALLOC_E2E_BUNDLED=1
// for a platform .vsix that brings its server).

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
const server =
  process.env.NOALLOC_LS ||
  [path.join(targetDir, "release/noalloc-ls"), path.join(targetDir, "debug/noalloc-ls")]
    .filter((p) => fs.existsSync(p))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
const codeServer =
  process.env.CODE_SERVER || path.join(home, ".cache/noalloc-editors/code-server/node_modules/.bin/code-server");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const vsix = process.env.VSIX || path.join(ext, "dist", `noalloc-${version}.vsix`);
const artifacts = process.env.NOALLOC_E2E_ARTIFACTS_TRUST || path.join(here, "artifacts-trust");
const bundled = process.env.NOALLOC_E2E_BUNDLED === "1";
const LOAD_MS = Number(process.env.NOALLOC_E2E_TIMEOUT_MS || 120_000);
// How long an untrusted folder is watched for a build script that should not run.
const UNTRUSTED_MS = Number(process.env.NOALLOC_E2E_UNTRUSTED_MS || 15_000);

let passed = 0;
let failed = 0;
const log = (m) => console.log(`[trust ${new Date().toISOString().slice(11, 19)}] ${m}`);
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
    console.error(`trust: missing ${what}: ${p}`);
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

// The folder: a std-only crate whose build script writes a marker beside Cargo.toml.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "noalloc-trust-"));
const ws = path.join(tmp, "untrusted");
const data = path.join(tmp, "data");
const exts = path.join(tmp, "extensions");
const marker = path.join(ws, "build-script-ran");
fs.mkdirSync(path.join(ws, "src"), { recursive: true });
fs.writeFileSync(path.join(ws, "Cargo.toml"), '[package]\nname = "untrusted"\nversion = "0.1.0"\nedition = "2021"\nbuild = "build.rs"\n\n[workspace]\n');
fs.writeFileSync(
  path.join(ws, "build.rs"),
  'fn main() {\n    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap();\n    std::fs::write(format!("{dir}/build-script-ran"), "the build script ran\\n").unwrap();\n}\n',
);
fs.writeFileSync(path.join(ws, "src/lib.rs"), '// noalloc:root\npub fn greet() -> String {\n    String::from("hello")\n}\n');
fs.mkdirSync(path.join(data, "User"), { recursive: true });
fs.mkdirSync(path.join(data, "Machine"), { recursive: true });
fs.writeFileSync(path.join(data, "Machine/settings.json"), JSON.stringify(bundled ? {} : { "noalloc.server.path": server }, null, 2));
fs.writeFileSync(
  path.join(data, "User/settings.json"),
  JSON.stringify(
    {
      "workbench.startupEditor": "none",
      "workbench.tips.enabled": false,
      "workbench.enableExperiments": false,
      "security.workspace.trust.enabled": true,
      "security.workspace.trust.startupPrompt": "always",
      "security.workspace.trust.untrustedFiles": "open",
      "telemetry.telemetryLevel": "off",
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "update.mode": "none",
      "chat.commandCenter.enabled": false,
    },
    null,
    2,
  ),
);
fs.rmSync(artifacts, { recursive: true, force: true });
fs.mkdirSync(artifacts, { recursive: true });
const env = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, "xdg-config"), XDG_DATA_HOME: path.join(tmp, "xdg-data") };

const inst = spawnSync(codeServer, ["--install-extension", vsix, "--extensions-dir", exts, "--user-data-dir", data], { env, encoding: "utf8" });
if (!check("the .vsix installs into code-server", inst.status === 0, inst.stderr + inst.stdout)) process.exit(1);

const port = await freePort();
const csLog = fs.openSync(path.join(artifacts, "code-server.log"), "w");
// No --disable-workspace-trust: the folder opens untrusted.
const cs = spawn(
  codeServer,
  ["--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check", "--disable-getting-started-override", "--user-data-dir", data, "--extensions-dir", exts, ws],
  { env, detached: true, stdio: ["ignore", csLog, csLog] },
);
const cleanup = () => {
  try {
    process.kill(-cs.pid, "SIGTERM");
  } catch {}
};
process.on("exit", cleanup);

/** How many times the extension started a server, from its output channel's log. */
function serverStarts() {
  const logs = path.join(data, "logs");
  let n = 0;
  for (const dir of fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
    for (const host of ["exthost1", "exthost2", "exthost3"]) {
      const f = path.join(logs, dir, host, "noalloc.noalloc/noalloc.log");
      if (fs.existsSync(f)) n += (fs.readFileSync(f, "utf8").match(/\] starting /g) ?? []).length;
    }
  }
  return n;
}

let browser;
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

  // The trust prompt: decline.
  const no = page.locator(".monaco-dialog-box .monaco-button", { hasText: "No, I don't trust the authors" }).first();
  const prompted = await no.waitFor({ state: "visible", timeout: 30_000 }).then(() => true, () => false);
  await page.screenshot({ path: path.join(artifacts, "trust-prompt.png") });
  check("VS Code asks whether to trust the folder", prompted);
  if (prompted) await no.click();

  // Restricted Mode: the extension stays off, and nothing of the folder runs.
  const restricted = await page.locator(".statusbar-item", { hasText: "Restricted Mode" }).first().waitFor({ timeout: 15_000 }).then(() => true, () => false);
  check("the folder is open in Restricted Mode", restricted);
  await page.waitForTimeout(UNTRUSTED_MS);
  await page.screenshot({ path: path.join(artifacts, "untrusted.png") });
  const statusItems = await page.locator(".statusbar-item", { hasText: "noalloc" }).count();
  check("untrusted: the extension is off (no noalloc status bar item, no server started)", statusItems === 0 && serverStarts() === 0, `status items ${statusItems}, server starts ${serverStarts()}`);
  check("untrusted: no build script ran (no marker file)", !fs.existsSync(marker));

  // Trust the folder: Workspaces: Manage Workspace Trust, then "Trust".
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type("Manage Workspace Trust");
  const manage = page.locator(".quick-input-widget .monaco-list-row", { hasText: "Manage Workspace Trust" }).first();
  await manage.waitFor({ timeout: 10_000 });
  await manage.click();
  const trustButton = page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust( Folder)?$/ }).first();
  await trustButton.waitFor({ state: "visible", timeout: 15_000 });
  await page.screenshot({ path: path.join(artifacts, "manage-trust.png") });
  await trustButton.click();
  log("trusted the folder");

  const started = await waitFor("the server to start", async () => serverStarts() > 0, 60_000).then(() => true, () => false);
  check("trusted: the extension starts its server", started, `server starts ${serverStarts()}`);
  const ran = await waitFor("the marker file", async () => fs.existsSync(marker), LOAD_MS).then(() => true, () => false);
  check("trusted: the workspace is loaded with its build script (the marker appears)", ran);
  await page.screenshot({ path: path.join(artifacts, "trusted.png") });
} catch (e) {
  failed += 1;
  console.log(`not ok - trust test aborted: ${e.stack || e}`);
  try {
    const pages = browser?.contexts()[0]?.pages() ?? [];
    if (pages[0]) await pages[0].screenshot({ path: path.join(artifacts, "failure.png") });
  } catch {}
} finally {
  await browser?.close().catch(() => {});
  cleanup();
  if (fs.existsSync(path.join(data, "logs"))) fs.cpSync(path.join(data, "logs"), path.join(artifacts, "vscode-logs"), { recursive: true });
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(tmp, { recursive: true, force: true });
}

console.log(`trust: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
