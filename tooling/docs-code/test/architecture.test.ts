import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/repo.js';
import { diagramArrows, workspaceArrows } from '../src/workspaceGraph.js';

describe('docs/architecture.md diagram', () => {
  const real = workspaceArrows();
  const drawn = diagramArrows(readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8'));

  it('draws every published package', () => {
    expect(real.packages).toContain('server');
    expect(drawn.nodes).toEqual(expect.arrayContaining(real.packages));
  });

  it('draws exactly the workspace dependencies of the published packages', () => {
    expect(drawn.arrows).toEqual(real.arrows);
  });

  it('reads ids, labels and arrows of a mermaid block', () => {
    const markdown = '```mermaid\nflowchart BT\n  task_store["@mcp-tasks/task-store"]\n  server --> task_store\n```';
    expect(diagramArrows(markdown)).toEqual({ nodes: ['server', 'task-store'], arrows: ['server --> task-store'] });
  });
});
