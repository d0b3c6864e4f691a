/**
 * Which tools are conformance fixtures: the ones the official conformance suite calls by name (`test_…`, and the
 * task fixtures of the sample server's `--tools conformance`). They are there for the referee, not for a person, so
 * the tool panel folds them away below the others.
 */
import type { Tool } from '@mcp-tasks/protocol';

const FIXTURE_NAMES: ReadonlySet<string> = new Set([
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'json_schema_2020_12_tool',
]);

/** Whether `tool` is a conformance fixture. */
export function isFixture(tool: Tool): boolean {
  return tool.name.startsWith('test_') || FIXTURE_NAMES.has(tool.name);
}

/** Whether `tool` matches what the person typed in the filter box (name, title or description, any case). */
export function matchesFilter(tool: Tool, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  if (wanted === '') return true;
  return [tool.name, tool.title, tool.description].some((text) => text?.toLowerCase().includes(wanted) === true);
}
