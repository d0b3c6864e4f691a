import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVERS = new URL('../servers/', import.meta.url);

/**
 * Starts `servers/<name>.js` in its own process and resolves once it reported ready. `stdio: 'pipe'` gives the
 * caller the child's stdin/stdout (stdio transports); otherwise they are ignored and stderr is inherited. `execPath`
 * runs another program with `execArgv` before the script (`valgrind … node`, whose child keeps the IPC channel).
 */
export function startServer(name, { env = {}, pipe = false, execArgv = [], execPath = process.execPath } = {}) {
  const child = fork(fileURLToPath(new URL(`${name}.js`, SERVERS)), [], {
    env: { ...process.env, ...env },
    execArgv,
    execPath,
    stdio: pipe ? ['pipe', 'pipe', 'inherit', 'ipc'] : ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`server ${name} exited with ${code} before it was ready`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (message) => {
      if (message?.type !== 'ready') return reject(new Error(`server ${name} sent ${JSON.stringify(message)}`));
      child.off('exit', onExit);
      resolve(new ServerProcess(name, child, message));
    });
  });
}

/** A running benchmark server. */
export class ServerProcess {
  constructor(name, child, info) {
    this.name = name;
    this.child = child;
    this.info = info;
  }

  /**
   * CPU time (µs, user+system), memory and recorded request latencies of the server, read over IPC. `gc` collects
   * first (needs --expose-gc).
   */
  stats({ gc = false } = {}) {
    return new Promise((resolve) => {
      const onMessage = (message) => {
        if (message?.type !== 'stats') return;
        this.child.off('message', onMessage);
        resolve({ cpuMicros: message.cpu.user + message.cpu.system, memory: message.memory, latency: message.latency });
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'stats', gc });
    });
  }

  /** Stops the server and resolves once it exited. Idempotent. */
  stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      if (this.child.connected) this.child.send({ type: 'stop' });
      else this.child.kill();
    });
  }
}
