import assert from "node:assert/strict";
import { test } from "node:test";
import { chainItems, displayPath, Finding, findingsAt } from "../../src/chain";

const at = (line: number, a: number, b: number) => ({ start: { line, character: a }, end: { line, character: b } });

const finding: Finding = {
  message: "allocates: calls alloc::string::String::from",
  source: "noalloc",
  code: "allocation",
  range: at(2, 12, 33),
  related: [
    { message: "root: fixture::greet", location: { file: "/ws/src/lib.rs", range: at(1, 7, 12) } },
    { message: "calls alloc::string::String::from", location: { file: "/ws/src/lib.rs", range: at(2, 12, 33) } },
    {
      message: "calls alloc::str::<impl str>::to_owned",
      location: { file: "/home/u/.rustup/toolchains/stable/lib/rustlib/src/rust/library/alloc/src/string.rs", range: at(2714, 4, 20) },
    },
  ],
};

test("chain items: the root, then each step in order, then the finding; each opens its location", () => {
  const items = chainItems(finding, "/ws/src/lib.rs", "/ws");
  assert.deepEqual(
    items.map((i) => [i.label, i.description, i.detail]),
    [
      ["$(symbol-function) fixture::greet", "root", "src/lib.rs:2"],
      ["$(arrow-small-right) calls alloc::string::String::from", "step 1", "src/lib.rs:3"],
      ["$(arrow-small-right) calls alloc::str::<impl str>::to_owned", "step 2", "alloc/src/string.rs:2715"],
      ["$(warning) allocates: calls alloc::string::String::from", "finding (allocation)", "src/lib.rs:3"],
    ],
  );
  assert.equal(items[2].location.file, finding.related[2].location.file);
  assert.deepEqual(items[3].location, { file: "/ws/src/lib.rs", range: finding.range });
});

test("a finding with no related information still lists itself", () => {
  const items = chainItems({ ...finding, related: [], code: undefined }, "/ws/src/lib.rs", "/ws");
  assert.deepEqual(items.map((i) => i.description), ["finding"]);
});

test("display paths: workspace-relative, std from library/, registry crates from name-version/", () => {
  assert.equal(displayPath("/ws/src/a.rs", "/ws"), "src/a.rs");
  assert.equal(displayPath("/r/lib/rustlib/src/rust/library/core/src/fmt/mod.rs", "/ws"), "core/src/fmt/mod.rs");
  assert.equal(displayPath("/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde-1.0.1/src/ser.rs", "/ws"), "serde-1.0.1/src/ser.rs");
  assert.equal(displayPath("/elsewhere/x.rs", "/ws"), "/elsewhere/x.rs");
  assert.equal(displayPath("/elsewhere/x.rs", undefined), "/elsewhere/x.rs");
});

test("findingsAt: only noalloc's, the narrowest under the cursor first", () => {
  const wide: Finding = { ...finding, message: "wide", range: at(2, 0, 40) };
  const other: Finding = { ...finding, message: "rust-analyzer's", source: "rust-analyzer", range: at(2, 12, 33) };
  const got = findingsAt([wide, other, finding], { line: 2, character: 15 });
  assert.deepEqual(got.map((f) => f.message), [finding.message, "wide"]);
});

test("findingsAt: off the range but on its line still finds it; another line does not", () => {
  assert.equal(findingsAt([finding], { line: 2, character: 2 }).length, 1);
  assert.equal(findingsAt([finding], { line: 3, character: 15 }).length, 0);
});
