// Starts this repository's tool server (apps/tool-server, built) the way the pack is recorded and the replay is
// tested: the conformance tools, two principals (http, ws), finished tasks kept 3 s so expiry can be observed.
import { fileURLToPath } from 'node:url';
import { spawnServer } from '../dist/spawnServer.js';

export const TOOL_SERVER_MAIN = fileURLToPath(new URL('../../../apps/tool-server/dist/main.js', import.meta.url));
export const MAIN_TOKEN = 'transcripts-main-token';
export const OTHER_TOKEN = 'transcripts-other-token';
const COMMON = ['--tools', 'conformance', '--keep-finished-ms', '3000', '--log-level', 'warn'];

/** The stdio command line of the tool server (for `--stdio`). */
export const STDIO_COMMAND = [process.execPath, TOOL_SERVER_MAIN, '--transport', 'stdio', ...COMMON]
  .map((part) => `'${part}'`)
  .join(' ');

/** Starts the tool server over http or ws on a free loopback port with both tokens. */
export function startOwnToolServer(transport) {
  const args = [TOOL_SERVER_MAIN, '--transport', transport, '--port', '0', ...COMMON];
  return spawnServer(process.execPath, [...args, '--token', MAIN_TOKEN, '--token', OTHER_TOKEN]);
}
