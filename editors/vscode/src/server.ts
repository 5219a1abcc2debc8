// Finds the `noalloc-ls` binary: the `noalloc.server.path` setting, then the server
// bundled in a platform-specific .vsix (`server/noalloc-ls`, as rust-analyzer's
// extension ships its server), then PATH, then ~/.cargo/bin. Pure: the file system
// and environment come in as arguments, so the search order is unit-tested without
// VS Code.

import * as path from "path";

export const SERVER_NAME = "noalloc-ls";

/** The command that installs the server, shown when none is found. */
export const INSTALL_HINT =
  "cargo install --path server   (from a clone of noalloc; or `cargo install noalloc-ls`)";

export interface Environment {
  /** Value of PATH (or Path on Windows). */
  pathVar: string | undefined;
  home: string;
  platform: NodeJS.Platform;
  /** The first workspace folder, for relative paths and `${workspaceFolder}`. */
  workspaceFolder: string | undefined;
  /** The extension's own directory: a platform .vsix has the server in `server/`. */
  extensionPath: string | undefined;
  /** True when `p` is an existing file the user may run. */
  isExecutable(p: string): boolean;
}

export type ServerLookup =
  | { kind: "found"; path: string; source: "setting" | "bundled" | "PATH" | "cargo" }
  | { kind: "missing"; message: string; searched: string[] };

/** Expands `~`, `${userHome}` and `${workspaceFolder}`, and makes a relative path
 * absolute against the workspace folder. */
export function expandPath(p: string, env: Pick<Environment, "home" | "workspaceFolder">): string {
  let out = p.trim();
  out = out.replace(/\$\{userHome\}/g, env.home);
  if (env.workspaceFolder !== undefined) {
    out = out.replace(/\$\{workspaceFolder\}/g, env.workspaceFolder);
  }
  if (out === "~") {
    out = env.home;
  } else if (out.startsWith("~/") || out.startsWith("~\\")) {
    out = path.join(env.home, out.slice(2));
  }
  if (!path.isAbsolute(out) && env.workspaceFolder !== undefined) {
    out = path.join(env.workspaceFolder, out);
  }
  return out;
}

function executableNames(platform: NodeJS.Platform): string[] {
  return platform === "win32" ? [`${SERVER_NAME}.exe`, SERVER_NAME] : [SERVER_NAME];
}

export function findServer(configured: string | null | undefined, env: Environment): ServerLookup {
  const searched: string[] = [];
  const join = env.platform === "win32" ? path.win32.join : path.posix.join;
  if (configured !== undefined && configured !== null && configured.trim() !== "") {
    const p = expandPath(configured, env);
    if (env.isExecutable(p)) {
      return { kind: "found", path: p, source: "setting" };
    }
    // A setting that points nowhere is an error of its own: falling back to another
    // binary would hide it.
    return {
      kind: "missing",
      searched: [p],
      message:
        `noalloc: the server set in \`noalloc.server.path\` was not found or is not executable: ${p}. ` +
        `Fix the setting, or clear it to use \`${SERVER_NAME}\` from PATH. To install: ${INSTALL_HINT}`,
    };
  }
  if (env.extensionPath !== undefined) {
    for (const name of executableNames(env.platform)) {
      const p = join(env.extensionPath, "server", name);
      searched.push(p);
      if (env.isExecutable(p)) {
        return { kind: "found", path: p, source: "bundled" };
      }
    }
  }
  const sep = env.platform === "win32" ? ";" : ":";
  const dirs = (env.pathVar ?? "").split(sep).filter((d) => d !== "");
  for (const dir of dirs) {
    for (const name of executableNames(env.platform)) {
      const p = join(dir, name);
      searched.push(p);
      if (env.isExecutable(p)) {
        return { kind: "found", path: p, source: "PATH" };
      }
    }
  }
  for (const name of executableNames(env.platform)) {
    const p = join(env.home, ".cargo", "bin", name);
    searched.push(p);
    if (env.isExecutable(p)) {
      return { kind: "found", path: p, source: "cargo" };
    }
  }
  return {
    kind: "missing",
    searched,
    message:
      `noalloc: \`${SERVER_NAME}\` was not found on PATH or in ~/.cargo/bin. ` +
      `Install it with: ${INSTALL_HINT}, or set \`noalloc.server.path\`.`,
  };
}
