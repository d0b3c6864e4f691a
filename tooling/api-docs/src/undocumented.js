// Sorts TypeDoc's log: "does not have any documentation" warnings are attributed to the package that declares the
// name, so packages still being documented (PENDING) can be counted instead of failing the build.

const NOT_DOCUMENTED = /, defined in (@[^/]+\/[^/]+)\/.*, does not have any documentation$/;

/**
 * Returns the package a notDocumented warning is about, or `undefined` for any other message.
 * @param {string} message
 * @returns {string | undefined}
 */
export function undocumentedPackage(message) {
  return NOT_DOCUMENTED.exec(message)?.[1];
}
