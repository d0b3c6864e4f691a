// The committed baseline: instructions per operation of each path, with what produced them.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS, PLAN, WARMUP } from './config.js';

export const BASELINE_FILE = fileURLToPath(new URL('../baseline.json', import.meta.url));

/** The committed baseline, or undefined when there is none yet. */
export async function readBaseline(file = BASELINE_FILE) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The baseline document for `measured` in `environment` (node and valgrind versions). */
export function baselineOf(measured, environment) {
  const paths = {};
  for (const [name, result] of Object.entries(measured)) paths[name] = { instructionsPerOp: result.perOp };
  return {
    node: environment.node,
    valgrind: environment.valgrind,
    nodeFlags: [...NODE_FLAGS],
    warmup: WARMUP,
    plan: { ...PLAN },
    paths,
  };
}

export async function writeBaseline(document, file = BASELINE_FILE) {
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
}
