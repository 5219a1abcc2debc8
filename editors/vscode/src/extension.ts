// The VS Code side of noalloc: starts `noalloc-ls` through vscode-languageclient, keeps
// its settings in step, and adds the commands and the status bar item. Everything
// that decides something (which binary, which settings, which chain) lives in the
// pure modules beside this one; this file only wires them to VS Code.

import * as fs from "fs";
import * as os from "os";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";
import { chainItems, Finding, findingsAt, Location, SOURCE } from "./chain";
import { checkSummary, CheckResult, projectLabel, projectsToCheck, SERVED_PROJECTS_COMMAND, servedProjects } from "./check";
import { checkArgs, didChangeConfigurationParams, needsRestart, serverSettings, ServerSettings } from "./settings";
import { findServer, INSTALL_HINT, ServerLookup } from "./server";
import { ServerState, statusView } from "./status";

let client: LanguageClient | undefined;
let state: ServerState = "stopped";
/** Settles once the latest client has started, or failed to. */
let clientStarted: Promise<void> = Promise.resolve();
/** The binary of the running client. */
let runningPath: string | undefined;
let output: vscode.LogOutputChannel;
/** Where the extension is installed: a platform .vsix brings its server there. */
let extensionPath: string | undefined;
let status: vscode.StatusBarItem;

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

function settingsFor(scope: vscode.ConfigurationScope | undefined): ServerSettings {
  const folder = (scope instanceof vscode.Uri ? vscode.workspace.getWorkspaceFolder(scope) : undefined) ?? firstFolder();
  const config = vscode.workspace.getConfiguration("noalloc", scope ?? folder?.uri);
  return serverSettings((k) => config.get(k), { home: os.homedir(), workspaceFolder: folder?.uri.fsPath });
}

function isExecutable(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    if (process.platform !== "win32") fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function lookupServer(): ServerLookup {
  const configured = vscode.workspace.getConfiguration("noalloc").get<string | null>("server.path");
  return findServer(configured, {
    pathVar: process.env.PATH ?? process.env.Path,
    home: os.homedir(),
    platform: process.platform,
    workspaceFolder: firstFolder()?.uri.fsPath,
    extensionPath,
    isExecutable,
  });
}

function lookupPath(): string | undefined {
  const found = lookupServer();
  return found.kind === "found" ? found.path : undefined;
}

function setState(s: ServerState): void {
  state = s;
  refreshStatus();
}

function refreshStatus(): void {
  let errors = 0;
  let others = 0;
  let files = 0;
  for (const [, diags] of vscode.languages.getDiagnostics()) {
    const ours = diags.filter((d) => d.source === SOURCE);
    if (ours.length > 0) files += 1;
    for (const d of ours) {
      if (d.severity === vscode.DiagnosticSeverity.Error) errors += 1;
      else others += 1;
    }
  }
  const view = statusView(state, { errors, others, files });
  status.text = view.text;
  status.tooltip = view.tooltip;
  status.backgroundColor =
    view.level === "error"
      ? new vscode.ThemeColor("statusBarItem.errorBackground")
      : view.level === "warning"
        ? new vscode.ThemeColor("statusBarItem.warningBackground")
        : undefined;
  status.command =
    state === "stopped" ? "noalloc.restartServer" : state === "running" && errors + others > 0 ? "workbench.actions.view.problems" : "noalloc.showOutput";
  status.show();
}

async function start(): Promise<void> {
  const found = lookupServer();
  if (found.kind === "missing") {
    setState("missing");
    output.error(`${found.message}\nSearched:\n  ${found.searched.join("\n  ")}`);
    const copy = "Copy Install Command";
    const settings = "Open Settings";
    void vscode.window.showErrorMessage(found.message, copy, settings).then(async (pick) => {
      if (pick === copy) await vscode.env.clipboard.writeText("cargo install --path server");
      if (pick === settings) await vscode.commands.executeCommand("workbench.action.openSettings", "noalloc.server.path");
    });
    return;
  }
  output.info(`starting ${found.path} (found through ${found.source})`);
  runningPath = found.path;
  const serverOptions: ServerOptions = {
    run: { command: found.path, transport: TransportKind.stdio },
    debug: { command: found.path, transport: TransportKind.stdio },
  };
  const watcher = vscode.workspace.createFileSystemWatcher("**/{Cargo.toml,Cargo.lock}");
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file", language: "rust" }],
    initializationOptions: settingsFor(undefined),
    synchronize: { fileEvents: watcher },
    outputChannel: output,
    // A crash restarts the server up to 4 times in 3 minutes (the client's default);
    // then the status bar shows it stopped, and a click restarts it.
    middleware: {
      workspace: {
        // The server pulls section `noalloc`: answer with the same normalised object
        // (expanded, absolute paths) that initializationOptions carried.
        configuration: async (params, token, next) => {
          const raw = await next(params, token);
          if (!Array.isArray(raw)) return raw;
          return params.items.map((item, i) =>
            item.section === "noalloc"
              ? settingsFor(item.scopeUri !== undefined ? vscode.Uri.parse(item.scopeUri) : undefined)
              : raw[i],
          );
        },
      },
    },
  };
  const c = new LanguageClient("noalloc", "noalloc", serverOptions, clientOptions);
  client = c;
  c.onDidChangeState((e) => {
    if (client !== c) return;
    setState(e.newState === State.Running ? "running" : e.newState === State.Starting ? "starting" : "stopped");
  });
  setState("starting");
  const started = c.start();
  clientStarted = started.then(
    () => undefined,
    () => undefined,
  );
  try {
    await started;
  } catch (e) {
    output.error(`the server did not start: ${e}`);
    setState("stopped");
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  if (c !== undefined) {
    try {
      await c.stop(5000);
    } catch (e) {
      output.warn(`stopping the server: ${e}`);
    }
  }
  setState("stopped");
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

function toFinding(d: vscode.Diagnostic): Finding {
  const code = typeof d.code === "object" ? String(d.code.value) : d.code !== undefined ? String(d.code) : undefined;
  return {
    message: d.message,
    source: d.source,
    code,
    range: d.range,
    related: (d.relatedInformation ?? []).map((r) => ({
      message: r.message,
      location: { file: r.location.uri.fsPath, range: r.location.range },
    })),
  };
}

async function reveal(l: Location, preview: boolean): Promise<void> {
  const r = l.range;
  const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
  await vscode.window.showTextDocument(vscode.Uri.file(l.file), { selection: range, preview, preserveFocus: preview });
}

async function showChain(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) return;
  const diags = vscode.languages.getDiagnostics(editor.document.uri).map(toFinding);
  const here = findingsAt(diags, editor.selection.active);
  if (here.length === 0) {
    void vscode.window.showInformationMessage("noalloc: no finding under the cursor.");
    return;
  }
  let finding = here[0];
  if (here.length > 1) {
    const pick = await vscode.window.showQuickPick(
      here.map((f) => ({ label: f.message, description: f.code, finding: f })),
      { title: "noalloc: which finding?" },
    );
    if (pick === undefined) return;
    finding = pick.finding;
  }
  const items = chainItems(finding, editor.document.uri.fsPath, vscode.workspace.getWorkspaceFolder(editor.document.uri)?.uri.fsPath);
  const qp = vscode.window.createQuickPick<(typeof items)[number] & vscode.QuickPickItem>();
  qp.title = `noalloc: ${finding.message}`;
  qp.placeholder = "The call chain from the root to the allocation: pick a step to open it";
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.items = items;
  const origin = editor;
  let accepted = false;
  qp.onDidChangeActive((active) => {
    if (active[0] !== undefined) void reveal(active[0].location, true);
  });
  qp.onDidAccept(() => {
    const item = qp.selectedItems[0] ?? qp.activeItems[0];
    accepted = true;
    qp.hide();
    if (item !== undefined) void reveal(item.location, false);
  });
  qp.onDidHide(() => {
    qp.dispose();
    if (!accepted) void vscode.window.showTextDocument(origin.document, { selection: origin.selection, viewColumn: origin.viewColumn });
  });
  qp.show();
}

/** The projects the server serves (once it has started), or `undefined` when it
 * cannot say. */
async function askServedProjects(): Promise<string[] | undefined> {
  await clientStarted;
  if (client === undefined || !client.isRunning()) return undefined;
  try {
    const answer = await client.sendRequest(ExecuteCommandRequest.type, { command: SERVED_PROJECTS_COMMAND, arguments: [] });
    return servedProjects(answer);
  } catch (e) {
    output.warn(`asking the server for its projects: ${e}`);
    return undefined;
  }
}

/** Runs `task` and resolves with its process's exit status once it ends. */
function runTask(task: vscode.Task): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const done = vscode.tasks.onDidEndTaskProcess((e) => {
      if (e.execution.task !== task) return;
      done.dispose();
      resolve(e.exitCode);
    });
    vscode.tasks.executeTask(task).then(undefined, (err) => {
      done.dispose();
      reject(err);
    });
  });
}

/** Checks every cargo project the server serves (each workspace folder when it
 * cannot say), one after the other, each in its own terminal, then says how each
 * went. */
async function checkWorkspace(): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showInformationMessage("noalloc: open a folder with a Cargo.toml to check it.");
    return;
  }
  const found = lookupServer();
  if (found.kind === "missing") {
    void vscode.window.showErrorMessage(found.message);
    return;
  }
  const folderPaths = folders.map((f) => f.uri.fsPath);
  const projects = projectsToCheck(await askServedProjects(), folderPaths);
  if (projects.length === 0) {
    void vscode.window.showInformationMessage(
      "noalloc: the server serves no cargo project here; list one in the `noalloc.linkedProjects` setting.",
    );
    return;
  }
  const results: CheckResult[] = [];
  for (const project of projects) {
    const uri = vscode.Uri.file(project);
    const folder = vscode.workspace.getWorkspaceFolder(uri) ?? folders[0];
    const label = projectLabel(project, folderPaths);
    const args = checkArgs(settingsFor(uri), project);
    const task = new vscode.Task(
      { type: "noalloc", command: "check", project },
      folder,
      projects.length === 1 ? "check" : `check ${label}`,
      "noalloc",
      new vscode.ProcessExecution(found.path, args, { cwd: project }),
      [],
    );
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true, panel: vscode.TaskPanelKind.Dedicated };
    let exitCode: number | undefined;
    try {
      exitCode = await runTask(task);
    } catch (e) {
      output.error(`running the check of ${project}: ${e}`);
    }
    results.push({ label, exitCode });
  }
  const summary = checkSummary(results);
  if (summary.clean) void vscode.window.showInformationMessage(summary.message);
  else void vscode.window.showWarningMessage(summary.message);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  output = vscode.window.createOutputChannel("noalloc", { log: true });
  status = vscode.window.createStatusBarItem("noalloc.status", vscode.StatusBarAlignment.Left, 0);
  status.name = "noalloc";
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand("noalloc.restartServer", restart),
    vscode.commands.registerCommand("noalloc.checkWorkspace", checkWorkspace),
    vscode.commands.registerCommand("noalloc.showChain", showChain),
    vscode.commands.registerCommand("noalloc.showOutput", () => output.show(true)),
    vscode.languages.onDidChangeDiagnostics(refreshStatus),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("noalloc")) return;
      output.info("settings changed");
      const running = client?.isRunning() === true;
      const samePath = running && runningPath !== undefined && lookupPath() === runningPath;
      if (!running || (needsRestart((s) => e.affectsConfiguration(s)) && !samePath)) {
        await restart();
      } else if (client !== undefined) {
        await client.sendNotification(DidChangeConfigurationNotification.type, didChangeConfigurationParams(settingsFor(undefined)));
      }
    }),
  );
  output.info(`noalloc extension ${context.extension.packageJSON.version}; install hint: ${INSTALL_HINT}`);
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
