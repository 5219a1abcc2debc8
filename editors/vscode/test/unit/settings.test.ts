import assert from "node:assert/strict";
import { test } from "node:test";
import { checkArgs, didChangeConfigurationParams, needsRestart, serverSettings } from "../../src/settings";

const env = { home: "/home/u", workspaceFolder: "/ws" };
const reader = (values: Record<string, unknown>) => (k: string) => values[k];

test("defaults: only severity and buildScripts are sent, so the server's own defaults apply", () => {
  assert.deepEqual(serverSettings(reader({ allow: "", lineOnly: [], severity: "warning", buildScripts: true }), env), {
    severity: "warning",
    buildScripts: true,
  });
  assert.deepEqual(serverSettings(reader({}), env), { severity: "warning", buildScripts: true });
});

test("every setting maps to its server key; file paths become absolute", () => {
  const s = serverSettings(
    reader({
      allow: "noalloc.allow",
      baseline: "~/baseline.json",
      exemptions: "${workspaceFolder}/ci/exemptions.txt",
      lineOnly: ["debug", " profiling "],
      scratch: ["app::Scratch"],
      roots: ["app::handler::*"],
      linkedProjects: ["crates/deep/Cargo.toml"],
      severity: "error",
      buildScripts: false,
    }),
    env,
  );
  assert.deepEqual(s, {
    allow: "/ws/noalloc.allow",
    baseline: "/home/u/baseline.json",
    exemptions: "/ws/ci/exemptions.txt",
    lineOnly: ["debug", "profiling"],
    scratch: ["app::Scratch"],
    roots: ["app::handler::*"],
    linkedProjects: ["crates/deep/Cargo.toml"],
    severity: "error",
    buildScripts: false,
  });
});

test("bad values from settings.json fall back to the defaults", () => {
  const s = serverSettings(reader({ severity: "fatal", buildScripts: "no", lineOnly: "debug", scratch: [1, "", "a::B"] }), env);
  assert.deepEqual(s, { severity: "warning", buildScripts: true, scratch: ["a::B"] });
});

test("didChangeConfiguration carries { settings: { noalloc } }", () => {
  const s = serverSettings(reader({ severity: "hint" }), env);
  assert.deepEqual(didChangeConfigurationParams(s), { settings: { noalloc: { severity: "hint", buildScripts: true } } });
});

test("only a new server path restarts the server", () => {
  assert.equal(needsRestart((s) => s === "noalloc.server.path"), true);
  assert.equal(needsRestart((s) => s === "noalloc.severity"), false);
});

test("--check arguments mirror the settings that have flags", () => {
  const s = serverSettings(
    reader({ allow: "a.allow", baseline: "b.json", lineOnly: ["debug", "profiling"], scratch: ["x::S"], roots: ["x::*"], buildScripts: false }),
    env,
  );
  assert.deepEqual(checkArgs(s, "/ws"), [
    "--check", "/ws",
    "--allow", "/ws/a.allow",
    "--baseline", "/ws/b.json",
    "--line-only", "debug",
    "--line-only", "profiling",
    "--scratch", "x::S",
    "--root", "x::*",
    "--no-build-scripts",
  ]);
  assert.deepEqual(checkArgs(serverSettings(reader({}), env), "/ws"), ["--check", "/ws"]);
});

test("cargo.features, cargo.noDefaultFeatures and cargo.target reach the server and the check", () => {
  const s = serverSettings(
    reader({ "cargo.features": ["gated", " "], "cargo.noDefaultFeatures": true, "cargo.target": "i686-unknown-linux-gnu" }),
    env,
  );
  assert.deepEqual(s.cargo, { features: ["gated"], noDefaultFeatures: true, target: "i686-unknown-linux-gnu" });
  assert.deepEqual(checkArgs(s, "/ws").slice(2), ["--features", "gated", "--no-default-features", "--target", "i686-unknown-linux-gnu"]);
  const all = serverSettings(reader({ "cargo.features": "all" }), env);
  assert.deepEqual(checkArgs(all, "/ws").slice(2), ["--all-features"]);
  assert.equal(serverSettings(reader({ "cargo.features": [] }), env).cargo, undefined);
});

test("baselined findings: hints unless hidden", () => {
  assert.equal(serverSettings(reader({ baselined: "hint" }), env).baselined, undefined);
  assert.equal(serverSettings(reader({ baselined: "hide" }), env).baselined, "hide");
});

test("strictPanics reaches the server and the check only when on", () => {
  const on = serverSettings(reader({ strictPanics: true }), env);
  assert.equal(on.strictPanics, true);
  assert.deepEqual(didChangeConfigurationParams(on).settings.noalloc, { severity: "warning", buildScripts: true, strictPanics: true });
  assert.deepEqual(checkArgs(on, "/ws"), ["--check", "/ws", "--strict-panics"]);
  // Off or malformed: left out, so `strict-panics = true` in Cargo.toml still applies.
  for (const value of [false, "yes", undefined]) {
    const off = serverSettings(reader({ strictPanics: value }), env);
    assert.equal("strictPanics" in off, false, String(value));
    assert.deepEqual(checkArgs(off, "/ws"), ["--check", "/ws"]);
  }
});
