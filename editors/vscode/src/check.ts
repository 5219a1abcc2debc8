// "noalloc: Check Workspace": which cargo projects to check (every one the server
// serves, as its `noalloc.servedProjects` command lists them), what each check is
// called, and what the user reads once they have all ended. Pure: no VS Code.

import * as path from "path";

/** The server's command that lists the projects it serves: `[{ root }]`. */
export const SERVED_PROJECTS_COMMAND = "noalloc.servedProjects";

/** The project roots in the server's answer to `noalloc.servedProjects`, or
 * `undefined` when the answer is not one (no server, or one without the command). */
export function servedProjects(answer: unknown): string[] | undefined {
  if (!Array.isArray(answer)) return undefined;
  const roots = answer
    .map((p: unknown) => (typeof p === "object" && p !== null ? (p as { root?: unknown }).root : undefined))
    .filter((root): root is string => typeof root === "string" && root !== "");
  return roots.length === answer.length ? roots : undefined;
}

/** The projects to check: those the server serves; when it cannot say, each
 * workspace folder (the checker then says where it found no Cargo.toml). */
export function projectsToCheck(served: string[] | undefined, folders: string[]): string[] {
  return served ?? folders;
}

/** A project's name in the task list and the summary: its path from the workspace
 * folder that holds it (the folder's name, when it is the folder; led by that
 * name when there are several folders), else its whole path. */
export function projectLabel(project: string, folders: string[]): string {
  const holder = folders
    .filter((folder) => project === folder || project.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep))
    .sort((a, b) => b.length - a.length)[0];
  if (holder === undefined) return project;
  const name = path.basename(holder);
  const inside = path.relative(holder, project).split(path.sep).join("/");
  if (inside === "") return name;
  return folders.length > 1 ? `${name}/${inside}` : inside;
}

/** One project's check as it ended: the checker's exit status (`undefined` when it
 * did not run to an end). */
export interface CheckResult {
  label: string;
  exitCode: number | undefined;
}

/** What the user reads once every check has ended, and whether it is good news. */
export function checkSummary(results: CheckResult[]): { clean: boolean; message: string } {
  const clean = results.every((r) => r.exitCode === 0);
  if (results.length === 1) {
    const code = results[0].exitCode;
    const messages: Record<number, string> = {
      0: "noalloc: the check found no allocations.",
      1: "noalloc: the check found allocations; they are listed in the terminal.",
      2: "noalloc: the check could not run; the terminal says why.",
    };
    return { clean, message: messages[code ?? 2] ?? `noalloc: the check exited with ${code}.` };
  }
  const said = (code: number | undefined): string =>
    code === 0 ? "no allocations" : code === 1 ? "allocations" : code === 2 || code === undefined ? "could not run" : `exited with ${code}`;
  const each = results.map((r) => `${r.label}: ${said(r.exitCode)}`).join("; ");
  const tail = clean ? "" : " Each project's terminal lists what its check found.";
  return { clean, message: `noalloc: the check of ${results.length} projects: ${each}.${tail}` };
}
