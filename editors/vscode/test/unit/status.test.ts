import assert from "node:assert/strict";
import { test } from "node:test";
import { statusView } from "../../src/status";

const none = { errors: 0, others: 0, files: 0 };

test("running with no findings is a check mark", () => {
  assert.deepEqual(statusView("running", none), {
    text: "$(check) noalloc",
    tooltip: "noalloc: no allocations found in the roots",
    level: "ok",
  });
});

test("running with findings shows their count and where", () => {
  const v = statusView("running", { errors: 0, others: 3, files: 2 });
  assert.equal(v.text, "$(warning) noalloc: 3");
  assert.match(v.tooltip, /3 findings in 2 files/);
  assert.equal(v.level, "warning");
  const e = statusView("running", { errors: 1, others: 0, files: 1 });
  assert.equal(e.text, "$(error) noalloc: 1");
  assert.match(e.tooltip, /1 finding in 1 file \(1 errors\)/);
  assert.equal(e.level, "error");
});

test("starting spins; stopped and missing are errors", () => {
  assert.equal(statusView("starting", none).text, "$(sync~spin) noalloc");
  assert.equal(statusView("stopped", none).level, "error");
  assert.match(statusView("missing", none).tooltip, /not found/);
});
