// Asks a noalloc-ls binary whether it serves LSP: spawns `noalloc-ls --stdio`, sends
// `initialize`, and waits for the answer. Prints one line and exits:
//   0  it answered initialize (its name and capabilities are printed);
//   3  it is the stub that says the language server is not built yet;
//   1  anything else (no answer, a crash, a malformed answer).
// Usage: node probe-server.mjs /path/to/noalloc-ls [timeout-ms]

import { spawn } from "node:child_process";
import os from "node:os";

const [bin, timeoutArg] = process.argv.slice(2);
const timeout = Number(timeoutArg || 60_000);
if (!bin) {
  console.error("usage: node probe-server.mjs NOALLOC_LS [timeout-ms]");
  process.exit(2);
}

const child = spawn(bin, ["--stdio"], { stdio: ["pipe", "pipe", "pipe"], cwd: os.tmpdir() });
let stderr = "";
let out = Buffer.alloc(0);
let done = false;
function finish(code, line) {
  if (done) return;
  done = true;
  console.log(line);
  try {
    send({ jsonrpc: "2.0", id: 2, method: "shutdown" });
    send({ jsonrpc: "2.0", method: "exit" });
  } catch {}
  setTimeout(() => {
    child.kill("SIGKILL");
    process.exit(code);
  }, 500);
}
function send(msg) {
  const body = Buffer.from(JSON.stringify(msg));
  child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  child.stdin.write(body);
}
child.stdin.on("error", () => {});
child.stderr.on("data", (d) => (stderr += d));
child.stdout.on("data", (d) => {
  out = Buffer.concat([out, d]);
  for (;;) {
    const h = out.indexOf("\r\n\r\n");
    if (h < 0) return;
    const m = /Content-Length: *(\d+)/i.exec(out.subarray(0, h).toString());
    if (!m) return finish(1, `probe: ${bin} wrote something that is not an LSP message`);
    const len = Number(m[1]);
    if (out.length < h + 4 + len) return;
    let msg;
    try {
      msg = JSON.parse(out.subarray(h + 4, h + 4 + len).toString());
    } catch {
      return finish(1, `probe: ${bin} sent malformed JSON`);
    }
    out = out.subarray(h + 4 + len);
    if (msg.id === 1) {
      if (msg.result?.capabilities) {
        const name = msg.result.serverInfo ? `${msg.result.serverInfo.name} ${msg.result.serverInfo.version ?? ""}`.trim() : "(no serverInfo)";
        return finish(0, `probe: ${bin} answers initialize: ${name}; capabilities ${Object.keys(msg.result.capabilities).join(", ")}`);
      }
      return finish(1, `probe: ${bin} answered initialize without capabilities: ${JSON.stringify(msg).slice(0, 300)}`);
    }
  }
});
child.on("exit", (code) => {
  if (/language server is not built yet/.test(stderr)) {
    finish(3, `probe: ${bin} is the stub without a language server: ${stderr.trim().split("\n")[0]}`);
  } else {
    finish(1, `probe: ${bin} exited (${code}) before answering initialize: ${stderr.trim().slice(0, 300)}`);
  }
});
send({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { severity: "warning", buildScripts: true } },
});
setTimeout(() => finish(1, `probe: ${bin} did not answer initialize in ${timeout} ms`), timeout);
