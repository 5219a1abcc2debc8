// The call chain of a finding, as the quick pick of "Show Call Chain" lists it; and
// which finding is "under the cursor". Works on plain copies of diagnostics (no
// VS Code types), so it is unit-tested without an editor.

import * as path from "path";

export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface Location {
  /** An absolute file system path. */
  file: string;
  range: Range;
}
export interface Related {
  message: string;
  location: Location;
}
export interface Finding {
  message: string;
  source?: string;
  code?: string;
  range: Range;
  related: Related[];
}

export interface ChainItem {
  label: string;
  description: string;
  detail: string;
  location: Location;
}

/** The source the server gives its diagnostics. */
export const SOURCE = "noalloc";

function contains(r: Range, p: Position): boolean {
  const afterStart = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const beforeEnd = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return afterStart && beforeEnd;
}

function size(r: Range): number {
  return (r.end.line - r.start.line) * 100000 + (r.end.character - r.start.character);
}

/** The noalloc findings under the cursor, narrowest first; when the cursor is on
 * none, the ones on its line. */
export function findingsAt<F extends Finding>(findings: readonly F[], at: Position): F[] {
  const ours = findings.filter((f) => f.source === SOURCE);
  const under = ours.filter((f) => contains(f.range, at));
  const picked =
    under.length > 0
      ? under
      : ours.filter((f) => f.range.start.line <= at.line && at.line <= f.range.end.line);
  return [...picked].sort((a, b) => size(a.range) - size(b.range));
}

/** A short, readable name for a file in the chain: relative to the workspace; the
 * standard library from `library/`; a registry crate from its `name-version/`. */
export function displayPath(file: string, workspaceFolder: string | undefined): string {
  const f = file.replace(/\\/g, "/");
  if (workspaceFolder !== undefined) {
    const rel = path.relative(workspaceFolder, file).replace(/\\/g, "/");
    if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel)) {
      return rel;
    }
  }
  const lib = f.lastIndexOf("/library/");
  if (lib >= 0) {
    return f.slice(lib + "/library/".length);
  }
  const reg = f.match(/\/registry\/src\/[^/]+\/(.*)$/);
  if (reg) {
    return reg[1];
  }
  return f;
}

/** The quick-pick items: the finding's root(s), each step of the chain in order,
 * and last the flagged line itself, each opening its location. */
export function chainItems(finding: Finding, findingFile: string, workspaceFolder: string | undefined): ChainItem[] {
  const where = (l: Location) => `${displayPath(l.file, workspaceFolder)}:${l.range.start.line + 1}`;
  const items: ChainItem[] = [];
  let step = 0;
  for (const r of finding.related) {
    const root = r.message.match(/^roots?:\s*(.*)$/);
    if (root) {
      items.push({ label: `$(symbol-function) ${root[1]}`, description: "root", detail: where(r.location), location: r.location });
    } else {
      step += 1;
      items.push({ label: `$(arrow-small-right) ${r.message}`, description: `step ${step}`, detail: where(r.location), location: r.location });
    }
  }
  const here: Location = { file: findingFile, range: finding.range };
  items.push({
    label: `$(warning) ${finding.message}`,
    description: finding.code !== undefined ? `finding (${finding.code})` : "finding",
    detail: where(here),
    location: here,
  });
  return items;
}
