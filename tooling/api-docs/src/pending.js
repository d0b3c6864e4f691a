// Published packages whose public names are not all documented yet. Their undocumented names are counted, not
// failed; every other warning about them still fails. The list can only shrink: a pending package that has become
// fully documented fails the run until it is removed from here.
export const PENDING = new Set([
  '@mcp-tasks/protocol',
]);
