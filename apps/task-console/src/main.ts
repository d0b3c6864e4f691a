/**
 * The page: connect (to the server that served it when it can tell, else to the URL the person enters), list the
 * tools, and run the board; when the server goes away, say so and reconnect until it is back.
 */
import './zodConfig.js';
import './styles.css';
import { Board } from './board.js';
import { type Connection, connect } from './connection.js';
import { h, setAttr, setText } from './dom.js';
import { LocalJournal } from './localJournal.js';
import { isFixture } from './toolGroups.js';
import { renderTools } from './toolPanel.js';
import { WaitingInput } from './waitingInput.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('connect');
const urlInput = $<HTMLInputElement>('server-url');
const tokenInput = $<HTMLInputElement>('server-token');
const status = $('connection');
const rootsEditor = $<HTMLTextAreaElement>('roots-editor');
const RETRY_MS = 1000;

let connection: Connection | undefined;
let generation = 0;
let stopWatchingJournal: (() => void) | undefined;

const board = new Board({
  list: $('board'),
  count: $('board-count'),
  waiting: new WaitingInput($<HTMLButtonElement>('waiting-input'), $('board')),
  roots: () => rootsEditor.value,
  onConnectionLost: () => lost(),
});

function show(state: 'idle' | 'connecting' | 'connected' | 'error' | 'lost', text: string): void {
  setAttr(status, 'data-state', state);
  setText(status, text);
}

async function open(url: string, token: string): Promise<Connection> {
  return connect({ url, token, handlers: board.handlers, journal: new LocalJournal(url) });
}

async function start(url: string, token: string): Promise<void> {
  const mine = ++generation;
  show('connecting', `Connecting to ${url}…`);
  await connection?.client.close();
  connection = undefined;
  forgetServer();
  try {
    const opened = await open(url, token);
    if (mine !== generation) return void opened.client.close();
    sessionStorage.setItem('mcp-tasks-console:server', JSON.stringify({ url, token }));
    await ready(opened, mine);
  } catch (error) {
    if (mine === generation) show('error', error instanceof Error ? error.message : String(error));
  }
}

/** Every connect starts clean: nothing of the previous server (tools, its details, cards) stays on the page. */
function forgetServer(): void {
  board.clear();
  stopWatchingJournal?.();
  stopWatchingJournal = undefined;
  $('tool-list').replaceChildren();
  setText($('tools-count'), '');
  $('tool-form').replaceChildren();
  $('server-info').replaceChildren();
}

/** A connection is up (first time or after a reconnect): show it, list tools, resume journaled tasks. */
async function ready(opened: Connection, mine: number): Promise<void> {
  connection = opened;
  board.attach(opened.client);
  const info = opened.serverInfo;
  show(
    'connected',
    `Connected to ${info === undefined ? opened.url : `${info.name} ${info.version}`} over ${opened.kind === 'ws' ? 'WebSocket' : 'HTTP'}`,
  );
  renderServerInfo(opened);
  void opened.client.closed.then((closed) => {
    if (closed.initiator === 'remote' && mine === generation) lost();
  });
  const tools = await opened.client.listAllTools();
  if (mine !== generation) return;
  const fixtures = tools.filter(isFixture).length;
  // How many there are, as the Inspector's "Tools (41)" says, with the folded fixtures counted apart.
  setText($('tools-count'), `(${tools.length - fixtures}${fixtures === 0 ? '' : ` + ${fixtures} fixtures`})`);
  renderTools(
    tools,
    $('tool-list'),
    $('tool-form'),
    (name, args) => board.call(name, args),
    $<HTMLInputElement>('tool-filter'),
  );
  const journal = new LocalJournal(opened.url);
  board.resume(journal.list());
  stopWatchingJournal?.();
  stopWatchingJournal = journal.onChange((entries) => board.resume(entries));
}

function renderServerInfo(opened: Connection): void {
  const rows: [string, string][] = [
    [
      'Server',
      opened.serverInfo === undefined ? '(not given)' : `${opened.serverInfo.name} ${opened.serverInfo.version}`,
    ],
    [
      'Protocol',
      opened.era === 'legacy'
        ? `${opened.supportedVersions.join(', ')} (2025 era, initialize session)`
        : `${opened.client.protocolVersion} (server: ${opened.supportedVersions.join(', ')})`,
    ],
    [
      'Tasks extension',
      opened.tasksExtension
        ? 'advertised'
        : `not advertised${opened.legacyTasks ? ' (2025-11-25 tasks for tools/call declared)' : ''}`,
    ],
    ['Task updates', opened.listens ? 'subscriptions/listen notifications' : 'polling at the server’s pollIntervalMs'],
  ];
  $('server-info').replaceChildren(...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', { 'data-field': k }, v)]));
}

/** The server went away: say so, then try again every second until it answers (same URL and token). */
function lost(): void {
  if (connection === undefined) return;
  const { url } = connection;
  const token = tokenInput.value;
  const mine = ++generation;
  void connection.client.close();
  connection = undefined;
  show('lost', `Server unreachable at ${url}; retrying every ${RETRY_MS / 1000} s. Tasks resume when it is back.`);
  const retry = async () => {
    if (mine !== generation) return;
    try {
      const opened = await open(url, token);
      if (mine !== generation) return void opened.client.close();
      await ready(opened, mine);
    } catch {
      setTimeout(retry, RETRY_MS);
    }
  };
  setTimeout(retry, RETRY_MS);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void start(urlInput.value.trim(), tokenInput.value);
});

/** Where to connect without asking: `?url=`, this tab's last server, or the server that served this page. */
async function initial(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const saved = JSON.parse(sessionStorage.getItem('mcp-tasks-console:server') ?? 'null') as {
    url: string;
    token: string;
  } | null;
  const fromQuery = params.get('url');
  if (fromQuery !== null) urlInput.value = fromQuery;
  else if (saved !== null) [urlInput.value, tokenInput.value] = [saved.url, saved.token];
  else {
    const endpoint = await fetch(new URL('endpoint.json', location.href))
      .then((r) =>
        r.ok ? (r.json() as Promise<{ transport: string; path: string; tokenRequired: boolean }>) : undefined,
      )
      .catch(() => undefined);
    if (endpoint === undefined) return show('idle', 'Not connected: enter a server URL.');
    const scheme = endpoint.transport === 'ws' ? location.protocol.replace('http', 'ws') : location.protocol;
    urlInput.value = `${scheme}//${location.host}${endpoint.path}`;
    if (endpoint.tokenRequired) {
      tokenInput.focus();
      return show('idle', 'This server needs a bearer token: enter it and connect.');
    }
  }
  await start(urlInput.value, tokenInput.value);
}

void initial();
