import assert from "node:assert/strict";
import { test } from "node:test";
import { Environment, expandPath, findServer } from "../../src/server";

function env(files: string[], over: Partial<Environment> = {}): Environment {
  return {
    pathVar: "/usr/local/bin:/usr/bin",
    home: "/home/u",
    platform: "linux",
    workspaceFolder: "/ws",
    extensionPath: "/ext",
    isExecutable: (p) => files.includes(p),
    ...over,
  };
}

test("the setting wins over PATH and ~/.cargo/bin", () => {
  const r = findServer("/opt/noalloc-ls", env(["/opt/noalloc-ls", "/usr/bin/noalloc-ls", "/home/u/.cargo/bin/noalloc-ls"]));
  assert.deepEqual(r, { kind: "found", path: "/opt/noalloc-ls", source: "setting" });
});

test("a setting that points nowhere is reported, not silently replaced by PATH", () => {
  const r = findServer("~/bin/noalloc-ls", env(["/usr/bin/noalloc-ls"]));
  assert.equal(r.kind, "missing");
  assert.match(r.kind === "missing" ? r.message : "", /noalloc\.server\.path.*\/home\/u\/bin\/noalloc-ls/);
  assert.match(r.kind === "missing" ? r.message : "", /cargo install --path server/);
});

test("the bundled server comes after the setting and before PATH", () => {
  const r = findServer(undefined, env(["/ext/server/noalloc-ls", "/usr/bin/noalloc-ls"]));
  assert.deepEqual(r, { kind: "found", path: "/ext/server/noalloc-ls", source: "bundled" });
  const set = findServer("/opt/noalloc-ls", env(["/opt/noalloc-ls", "/ext/server/noalloc-ls"]));
  assert.equal(set.kind === "found" && set.source, "setting");
});

test("PATH is searched in order, before ~/.cargo/bin", () => {
  const r = findServer(undefined, env(["/usr/bin/noalloc-ls", "/home/u/.cargo/bin/noalloc-ls"]));
  assert.deepEqual(r, { kind: "found", path: "/usr/bin/noalloc-ls", source: "PATH" });
  const first = findServer(null, env(["/usr/local/bin/noalloc-ls", "/usr/bin/noalloc-ls"]));
  assert.equal(first.kind === "found" && first.path, "/usr/local/bin/noalloc-ls");
});

test("an empty setting falls back to the search", () => {
  const r = findServer("  ", env(["/home/u/.cargo/bin/noalloc-ls"]));
  assert.deepEqual(r, { kind: "found", path: "/home/u/.cargo/bin/noalloc-ls", source: "cargo" });
});

test("nothing found: the message names the install command and the setting", () => {
  const r = findServer(undefined, env([], { pathVar: undefined }));
  assert.equal(r.kind, "missing");
  if (r.kind === "missing") {
    assert.match(r.message, /cargo install --path server/);
    assert.match(r.message, /noalloc\.server\.path/);
    assert.deepEqual(r.searched, ["/ext/server/noalloc-ls", "/home/u/.cargo/bin/noalloc-ls"]);
  }
});

test("Windows: PATH uses ';' and the binary ends in .exe", () => {
  const r = findServer(undefined, env(["C:\\tools\\noalloc-ls.exe"], { platform: "win32", pathVar: "C:\\x;C:\\tools" }));
  assert.equal(r.kind, "found");
});

test("expandPath: ~, ${userHome}, ${workspaceFolder} and relative paths", () => {
  const e = { home: "/home/u", workspaceFolder: "/ws" };
  assert.equal(expandPath("~/x", e), "/home/u/x");
  assert.equal(expandPath("${userHome}/y", e), "/home/u/y");
  assert.equal(expandPath("${workspaceFolder}/target/release/noalloc-ls", e), "/ws/target/release/noalloc-ls");
  assert.equal(expandPath("noalloc.allow", e), "/ws/noalloc.allow");
  assert.equal(expandPath("/abs/p", e), "/abs/p");
  assert.equal(expandPath("rel", { home: "/h", workspaceFolder: undefined }), "rel");
});
