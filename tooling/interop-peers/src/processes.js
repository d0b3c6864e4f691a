// Child processes of one run: every one is tracked and ended (its whole process group) when the run ends.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

const children = new Set();

/** Starts a command in its own process group; its output is kept (last 8 kB) for error messages. */
export function startProcess(command, args, { env, cwd } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const proc = { child, output: '', exited: false };
  const keep = (chunk) => {
    proc.output = (proc.output + chunk).slice(-8192);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.on('exit', () => {
    proc.exited = true;
    children.delete(proc);
  });
  child.on('error', (error) => keep(`\n${error.message}`));
  children.add(proc);
  return proc;
}

/** Ends one process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopProcess(proc, graceMs = 3000) {
  if (proc.exited || proc.child.pid === undefined) return;
  const gone = new Promise((resolveGone) => proc.child.once('exit', resolveGone));
  signalGroup(proc, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(proc, 'SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}

function signalGroup(proc, signal) {
  try {
    process.kill(-proc.child.pid, signal);
  } catch {
    // already gone
  }
}

/** Ends every process this run started. */
export async function stopAll() {
  await Promise.all([...children].map((proc) => stopProcess(proc)));
}

/** A port on 127.0.0.1 that was free a moment ago (for peers that cannot report the port they bound). */
export function freePort() {
  return new Promise((resolvePort, rejectPort) => {
    const server = createServer();
    server.once('error', rejectPort);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Resolves with the first match of `pattern` in the process's output, or rejects when it exits or times out. */
export function waitForOutput(proc, pattern, timeoutMs = 30_000) {
  return new Promise((resolveWait, rejectWait) => {
    const started = Date.now();
    const tick = () => {
      const match = pattern.exec(proc.output);
      if (match) return resolveWait(match);
      if (proc.exited) return rejectWait(new Error(`exited before it was ready:\n${proc.output.slice(-2000)}`));
      if (Date.now() - started > timeoutMs)
        return rejectWait(new Error(`not ready in ${timeoutMs} ms:\n${proc.output.slice(-2000)}`));
      setTimeout(tick, 50);
    };
    tick();
  });
}

/** Polls until a TCP connection to the HTTP server succeeds (any HTTP answer counts). */
export async function waitForHttp(url, proc, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc?.exited) throw new Error(`exited before it was ready:\n${proc.output.slice(-2000)}`);
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms:\n${proc?.output.slice(-2000) ?? ''}`);
}

/** Runs a command to its end; resolves with { code, stdout, stderr } (never rejects). */
export function runCommand(command, args, { env, cwd, timeoutMs = 300_000 } = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr = (stderr + c).slice(-16_384);
    });
    const timer = setTimeout(() => {
      stderr += `\n(timed out after ${timeoutMs} ms)`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolveRun({ code: 127, stdout, stderr: `${stderr}${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code: code ?? 1, stdout, stderr });
    });
  });
}
