// What the status bar item says: the server's state and how many findings are open.
// Pure, for unit tests.

export type ServerState = "starting" | "running" | "stopped" | "missing";

export interface Counts {
  errors: number;
  others: number;
  files: number;
}

export interface StatusView {
  text: string;
  tooltip: string;
  /** "error" and "warning" pick the status bar's background colours. */
  level: "ok" | "warning" | "error";
}

export function statusView(state: ServerState, counts: Counts): StatusView {
  switch (state) {
    case "missing":
      return { text: "$(error) noalloc", tooltip: "noalloc-ls was not found. Click for the server output.", level: "error" };
    case "stopped":
      return { text: "$(debug-stop) noalloc", tooltip: "The noalloc server is stopped. Click to restart it.", level: "error" };
    case "starting":
      return { text: "$(sync~spin) noalloc", tooltip: "The noalloc server is loading the workspace…", level: "ok" };
    case "running": {
      const total = counts.errors + counts.others;
      if (total === 0) {
        return { text: "$(check) noalloc", tooltip: "noalloc: no allocations found in the roots", level: "ok" };
      }
      const noun = total === 1 ? "finding" : "findings";
      const files = counts.files === 1 ? "1 file" : `${counts.files} files`;
      const icon = counts.errors > 0 ? "$(error)" : "$(warning)";
      return {
        text: `${icon} noalloc: ${total}`,
        tooltip: `noalloc: ${total} ${noun} in ${files}${counts.errors > 0 ? ` (${counts.errors} errors)` : ""}. Click to list them.`,
        level: counts.errors > 0 ? "error" : "warning",
      };
    }
  }
}
