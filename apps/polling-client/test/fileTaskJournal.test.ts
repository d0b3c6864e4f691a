import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../src/cliErrors.js';
import { defaultJournalPath, FileTaskJournal } from '../src/fileTaskJournal.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (taskId: string) => ({
  taskId,
  method: 'tools/call',
  name: 'slow',
  arguments: { n: 1 },
  recordedAt: '2026-01-01T00:00:00.000Z',
});

describe('FileTaskJournal (C8)', () => {
  it('persists entries with the server across instances, oldest first, replacing on re-add', () => {
    const path = join(dir, 'nested', 'journal.json');
    const server = { kind: 'url' as const, url: 'http://127.0.0.1:1/mcp' };
    const journal = new FileTaskJournal(path, server);
    journal.add(entry('a'));
    journal.add(entry('b'));
    journal.add(entry('a'));
    const reopened = new FileTaskJournal(path);
    expect(reopened.list().map((t) => t.taskId)).toEqual(['b', 'a']);
    expect(reopened.get('a')?.server).toEqual(server);
    expect(existsSync(`${path}.${process.pid}.tmp`)).toBe(false);
  });

  it('records the last known state and forgets removed tasks; unknown ids are no-ops', () => {
    const journal = new FileTaskJournal(join(dir, 'j.json'));
    journal.add(entry('a'));
    journal.noteState('a', 'working', 'step 2');
    journal.noteState('zzz', 'working', undefined);
    expect(journal.get('a')).toMatchObject({ lastStatus: 'working', lastStatusMessage: 'step 2' });
    journal.remove('zzz');
    journal.remove('a');
    expect(journal.list()).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'j.json'), 'utf8'))).toEqual({ version: 1, tasks: [] });
  });

  it('treats a missing file as empty and a corrupt one as a usage error', () => {
    expect(new FileTaskJournal(join(dir, 'none.json')).list()).toEqual([]);
    writeFileSync(join(dir, 'bad.json'), '{not json');
    expect(() => new FileTaskJournal(join(dir, 'bad.json')).list()).toThrow(UsageError);
  });

  it.runIf(process.platform === 'linux')('defaults to the per-user data directory (XDG on Linux)', () => {
    vi.stubEnv('XDG_DATA_HOME', '/data');
    try {
      expect(defaultJournalPath()).toBe('/data/mcp-tasks/journal.json');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
