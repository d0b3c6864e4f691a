/**
 * The dependency arrows of the published packages (directory name under packages/ → the workspace packages it may
 * import). Everything not listed here is forbidden; apps/* and tooling/* compose freely and are not checked.
 *
 *   protocol ← transport-kit ← transport-stdio | transport-http | transport-ws
 *   protocol ← task-store ← server
 *   protocol ← task-store ← store-postgres
 *   protocol ← client
 *   protocol ← transport-kit ← transports ← transcripts (the replay CLI plays the client side over each transport)
 *   oauth-client, oauth-resource-server: leaves (they plug into the HTTP transports' `fetch` and `authenticate`
 *   options by shape, so neither imports a transport)
 */
/** @type {Readonly<Record<string, readonly string[]>>} */
export const LAYERS = {
  protocol: [],
  'transport-kit': ['protocol'],
  'transport-stdio': ['protocol', 'transport-kit'],
  'transport-http': ['protocol', 'transport-kit'],
  'transport-ws': ['protocol', 'transport-kit'],
  'task-store': ['protocol'],
  server: ['protocol', 'task-store'],
  'store-postgres': ['protocol', 'task-store'],
  client: ['protocol'],
  transcripts: ['protocol', 'transport-kit', 'transport-http', 'transport-stdio', 'transport-ws'],
  'oauth-client': [],
  'oauth-resource-server': [],
};

/**
 * Workspace packages a package may use in its tests only (devDependencies and test/, never src): the PostgreSQL
 * store's cross-instance tests run real servers on a database the private harness starts.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const TEST_ONLY = {
  'store-postgres': ['server', 'postgres-harness'],
  // The pack is recorded from, and the replay CLI tested against, the sample tool server (started as a process).
  transcripts: ['app-tool-server'],
};

/** Packages whose src must run in browsers, Deno, Bun and Workers: no `node:` imports. */
export const RUNTIME_NEUTRAL = [
  'protocol',
  'transport-kit',
  'task-store',
  'server',
  'client',
  'oauth-client',
  'oauth-resource-server',
];

/** Private build configuration a package may list in devDependencies (never imported from src). */
export const BUILD_CONFIG = ['@mcp-tasks/tsconfig', '@mcp-tasks/vitest-config'];

/** The npm scope of the workspace packages. */
export const SCOPE = '@mcp-tasks/';

/** The folder of a package that holds its 2025-11-25 era: an adapter at the edge, never imported by the core. */
export const ERA_FOLDER = 'era-2025';

/**
 * The only files of each package (paths under its src/) that may import its {@link ERA_FOLDER} folder, and only
 * through the folder's `index.ts`: the composition files that wire the era in, and the entry files that re-export
 * its public names. Every other file is the core, which must not know the era exists. A package with no era folder
 * needs no entry; a third era is one more folder and one more list here.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const ERA_COMPOSERS = {
  server: ['mcpServer.ts', 'index.ts'],
  client: ['mcpClient.ts', 'eraConnection.ts'],
  'transport-kit': ['serverSession.ts', 'index.ts', 'testing/linkedClient.ts'],
  'transport-http': ['httpBinding.ts', 'httpClientTransport.ts', 'index.ts', 'client.ts', 'fetch.ts', 'server.ts'],
};

/** Size limits of `packages/*\/src`: a longer module or function is a sign it does more than one job. */
export const LIMITS = { moduleLines: 300, functionLines: 60 };
