/** The harness's people: two, so a test can show one cannot reach the other's tasks. */
export const USERS = {
  alice: { name: 'Alice Example', email: 'alice@example.test' },
  bob: { name: 'Bob Example', email: 'bob@example.test' },
} as const;

/** A harness user's login name (also the token's `sub`). */
export type UserName = keyof typeof USERS;

/** True for a login name of the harness. */
export function isUser(name: unknown): name is UserName {
  return typeof name === 'string' && Object.hasOwn(USERS, name);
}
