import { readFileSync } from 'node:fs';

/** The app's version, from its package.json (printed by `--version`, sent as `serverInfo.version`). */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
