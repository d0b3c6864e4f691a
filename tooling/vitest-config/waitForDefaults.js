// vi.waitFor polls a condition, but its default deadline (1 s) is a timing assumption that a loaded 2-core CI
// machine breaks (a child process can take longer than that to start). Tests poll for conditions with a deadline;
// this makes the default deadline generous. An explicit `timeout` still wins.
import { vi } from 'vitest';

const DEFAULT_TIMEOUT_MS = 10_000;
const waitFor = vi.waitFor.bind(vi);

vi.waitFor = (callback, options) =>
  waitFor(callback, typeof options === 'number' ? options : { timeout: DEFAULT_TIMEOUT_MS, ...options });
