import assert from "node:assert/strict";
import { test } from "node:test";
import { checkSummary, projectLabel, projectsToCheck, servedProjects } from "../../src/check";

test("every project the server serves is checked, not only the first folder's", () => {
  const answer = [{ root: "/ws/a" }, { root: "/ws/b" }];
  assert.deepEqual(projectsToCheck(servedProjects(answer), ["/ws"]), ["/ws/a", "/ws/b"]);
  // Several folders, one project each, and one linked from elsewhere.
  const linked = [{ root: "/one" }, { root: "/two" }, { root: "/elsewhere/deep" }];
  assert.deepEqual(projectsToCheck(servedProjects(linked), ["/one", "/two"]), ["/one", "/two", "/elsewhere/deep"]);
});

test("a server that serves nothing gets nothing checked; one that cannot say, each folder", () => {
  assert.deepEqual(projectsToCheck(servedProjects([]), ["/ws"]), []);
  for (const answer of [undefined, null, "no", { root: "/ws" }, [{ root: 3 }], [{}]]) {
    assert.equal(servedProjects(answer), undefined, JSON.stringify(answer));
  }
  assert.deepEqual(projectsToCheck(undefined, ["/one", "/two"]), ["/one", "/two"]);
});

test("a project is named by its path from its folder", () => {
  assert.equal(projectLabel("/ws", ["/ws"]), "ws");
  assert.equal(projectLabel("/ws/tools/gen", ["/ws"]), "tools/gen");
  assert.equal(projectLabel("/two/b", ["/one", "/two"]), "two/b");
  assert.equal(projectLabel("/one", ["/one", "/two"]), "one");
  assert.equal(projectLabel("/wsx/a", ["/ws"]), "/wsx/a");
  assert.equal(projectLabel("/ws/nested/p", ["/ws", "/ws/nested"]), "nested/p");
});

test("one project's check reads as before", () => {
  assert.deepEqual(checkSummary([{ label: "ws", exitCode: 0 }]), {
    clean: true,
    message: "noalloc: the check found no allocations.",
  });
  assert.equal(checkSummary([{ label: "ws", exitCode: 1 }]).clean, false);
  assert.match(checkSummary([{ label: "ws", exitCode: 1 }]).message, /found allocations/);
  assert.match(checkSummary([{ label: "ws", exitCode: undefined }]).message, /could not run/);
});

test("several projects' checks are each said, and one bad one makes the whole a warning", () => {
  assert.deepEqual(
    checkSummary([
      { label: "a", exitCode: 0 },
      { label: "b", exitCode: 0 },
    ]),
    { clean: true, message: "noalloc: the check of 2 projects: a: no allocations; b: no allocations." },
  );
  assert.deepEqual(
    checkSummary([
      { label: "a", exitCode: 1 },
      { label: "b", exitCode: 0 },
      { label: "c", exitCode: 2 },
    ]),
    {
      clean: false,
      message:
        "noalloc: the check of 3 projects: a: allocations; b: no allocations; c: could not run. Each project's terminal lists what its check found.",
    },
  );
});
