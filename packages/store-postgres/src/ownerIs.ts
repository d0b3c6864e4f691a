/**
 * The owner condition of a statement that finds its rows by task id (`param` a text, or `ANY` of a text array).
 * `IS TRUE` leaves the result as it is (neither side is ever NULL) but makes the condition a filter the planner cannot
 * serve from the owner indexes. Why: for an owner its statistics do not know yet (a new principal, until the next
 * ANALYZE) the planner estimates under one row by an owner index, prefers it to the primary key, and then reads every
 * task of that owner per lookup. Measured: with 300,000 tasks of a known owner, a new owner's create → complete fell
 * from about 1.5k/s to 570–750/s within 8 s (two runs) and kept falling as its tasks grew (custom plans: `preparedStatements: false`, or
 * a script naming the owner). `test/plans.test.ts` checks each statement's plan.
 */
export function ownerIs(column: string, param: string): string {
  return `(${column} = ${param}) IS TRUE`;
}
