/** Resolves with what `promise` rejected with; rejects if it fulfilled, so a missing failure is a failing test. */
export function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** Message and data of an error as one string, to check what a user of the SDK can see. */
export function describeRejection(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const data = (error as Error & { data?: unknown }).data;
  return `${error.message} ${JSON.stringify(data ?? null)}`;
}
