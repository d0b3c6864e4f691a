/**
 * An `onError` for a `PostgresTaskStore` that reports errors until `closed()` is called. `close()` resolves once the
 * pool has asked its connections to end, before their sockets are gone; when the benchmark then stops the
 * database at once, those connections report "terminating connection due to administrator command", which is
 * noise, not a finding.
 */
export function errorsUntilClosed(label) {
  let closed = false;
  return {
    onError: (error) => {
      if (!closed) process.stderr.write(`${label}: ${error?.stack ?? error}\n`);
    },
    closed: () => {
      closed = true;
    },
  };
}
