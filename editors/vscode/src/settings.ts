// Turns the `noalloc.*` settings into what the server takes: the object sent as
// `initializationOptions`, in `workspace/didChangeConfiguration` and as the answer to
// `workspace/configuration`; and the matching `--check` command line. Pure: no VS Code.

import { expandPath } from "./server";

export type Severity = "error" | "warning" | "information" | "hint";
export const SEVERITIES: readonly Severity[] = ["error", "warning", "information", "hint"];

/** The settings as the server reads them (keys of the `noalloc` section). Unset
 * optional values are left out, so the server (and Cargo.toml metadata) decide. */
export interface ServerSettings {
  allow?: string;
  baseline?: string;
  exemptions?: string;
  lineOnly?: string[];
  scratch?: string[];
  roots?: string[];
  severity: Severity;
  buildScripts: boolean;
  /** `--strict-panics`: what a panic path computes before it panics is checked. Sent
   * only when on, so `strict-panics = true` in Cargo.toml metadata still applies. */
  strictPanics?: boolean;
  /** Features and target, under rust-analyzer's names (`cargo.features`, ...). */
  cargo?: CargoSettings;
  /** How findings the baseline lists are shown: as hints (the server's default) or not at all. */
  baselined?: "hint" | "hide";
  /** The cargo projects to serve (rust-analyzer's `linkedProjects`); unset: the server searches. */
  linkedProjects?: string[];
}

export interface CargoSettings {
  features?: "all" | string[];
  noDefaultFeatures?: boolean;
  target?: string;
}

/** Reads one setting; `vscode.WorkspaceConfiguration.get` fits. */
export type SettingReader = (key: string) => unknown;

function text(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function list(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) {
    return undefined;
  }
  const items = v.filter((x): x is string => typeof x === "string").map((x) => x.trim()).filter((x) => x !== "");
  return items.length > 0 ? items : undefined;
}

/** Builds the server's settings. File paths are expanded (`~`, `${workspaceFolder}`)
 * and made absolute against the workspace folder, so the server need not guess
 * what they were relative to. */
export function serverSettings(
  get: SettingReader,
  env: { home: string; workspaceFolder: string | undefined },
): ServerSettings {
  const out: ServerSettings = {
    severity: SEVERITIES.includes(get("severity") as Severity) ? (get("severity") as Severity) : "warning",
    buildScripts: typeof get("buildScripts") === "boolean" ? (get("buildScripts") as boolean) : true,
  };
  for (const key of ["allow", "baseline", "exemptions"] as const) {
    const v = text(get(key));
    if (v !== undefined) {
      out[key] = expandPath(v, env);
    }
  }
  for (const key of ["lineOnly", "scratch", "roots", "linkedProjects"] as const) {
    const v = list(get(key));
    if (v !== undefined) {
      out[key] = v;
    }
  }
  if (get("strictPanics") === true) out.strictPanics = true;
  if (get("baselined") === "hide") out.baselined = "hide";
  const cargo: CargoSettings = {};
  const features = get("cargo.features");
  if (features === "all") {
    cargo.features = "all";
  } else if (list(features) !== undefined) {
    cargo.features = list(features);
  }
  if (get("cargo.noDefaultFeatures") === true) cargo.noDefaultFeatures = true;
  const target = text(get("cargo.target"));
  if (target !== undefined) cargo.target = target;
  if (Object.keys(cargo).length > 0) out.cargo = cargo;
  return out;
}

/** The `workspace/didChangeConfiguration` payload. */
export function didChangeConfigurationParams(s: ServerSettings): { settings: { noalloc: ServerSettings } } {
  return { settings: { noalloc: s } };
}

/** Whether a change of settings needs a new server process rather than a
 * `didChangeConfiguration`: only a different binary does. */
export function needsRestart(changed: (section: string) => boolean): boolean {
  return changed("noalloc.server.path");
}

/** Arguments for `noalloc-ls --check` with the same settings as the server.
 * Severity has no flag: the check's exit status does not depend on it. */
export function checkArgs(s: ServerSettings, folder: string): string[] {
  const args = ["--check", folder];
  if (s.allow !== undefined) args.push("--allow", s.allow);
  if (s.baseline !== undefined) args.push("--baseline", s.baseline);
  if (s.exemptions !== undefined) args.push("--exemptions", s.exemptions);
  for (const k of s.lineOnly ?? []) args.push("--line-only", k);
  for (const t of s.scratch ?? []) args.push("--scratch", t);
  for (const r of s.roots ?? []) args.push("--root", r);
  if (!s.buildScripts) args.push("--no-build-scripts");
  if (s.strictPanics) args.push("--strict-panics");
  if (s.cargo?.features === "all") args.push("--all-features");
  else if (s.cargo?.features !== undefined) args.push("--features", s.cargo.features.join(","));
  if (s.cargo?.noDefaultFeatures) args.push("--no-default-features");
  if (s.cargo?.target !== undefined) args.push("--target", s.cargo.target);
  return args;
}
