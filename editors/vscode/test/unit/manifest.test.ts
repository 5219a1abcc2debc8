// The manifest against the code: every setting the extension reads is declared in
// package.json with a description and a default, every declared setting is read, and
// the README's settings table lists each one, so a server setting cannot be passed
// through without being offered in the Settings UI (or the reverse).

import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { serverSettings } from "../../src/settings";

const extensionDir = path.join(__dirname, "../../..");
const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, "package.json"), "utf8"));
const declared: Record<string, { markdownDescription?: string; default?: unknown }> =
  manifest.contributes.configuration.properties;

/** The `noalloc.*` keys `serverSettings` asks for, plus the server's path (read where
 * the server is found, not sent to it). */
function keysRead(): string[] {
  const read = new Set<string>(["server.path"]);
  serverSettings((key) => {
    read.add(key);
    return undefined;
  }, { home: "/home/u", workspaceFolder: "/ws" });
  return [...read].map((key) => `noalloc.${key}`).sort();
}

test("package.json declares exactly the settings the extension reads", () => {
  assert.deepEqual(Object.keys(declared).sort(), keysRead());
});

test("every declared setting has a description and a default", () => {
  for (const [key, schema] of Object.entries(declared)) {
    assert.ok((schema.markdownDescription ?? "").trim().length > 20, `${key} has no description`);
    assert.ok("default" in schema, `${key} has no default`);
  }
});

test("the README's settings table lists every setting", () => {
  const readme = fs.readFileSync(path.join(extensionDir, "README.md"), "utf8");
  const listed = [...readme.matchAll(/^\| `(noalloc\.[A-Za-z.]+)` \|/gm)].map((m) => m[1]).sort();
  assert.deepEqual(listed, Object.keys(declared).sort());
});

test("strictPanics is declared off by default, as the server's own default", () => {
  assert.equal(declared["noalloc.strictPanics"]?.default, false);
});

test("the extension declares that it does not run in an untrusted folder, and says why", () => {
  // Loading a workspace runs cargo, build scripts and proc macros: the folder's code.
  // rust-analyzer declares the same. Restricted Mode keeps the extension off until
  // the folder is trusted (test/e2e/trust.mjs shows it in code-server).
  const trust = manifest.capabilities?.untrustedWorkspaces;
  assert.equal(trust?.supported, false);
  assert.match(trust?.description ?? "", /build scripts/);
});
