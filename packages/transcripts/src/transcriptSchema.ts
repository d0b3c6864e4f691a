import { z } from 'zod';

/**
 * A JSON value used as an expectation. Plain values must be equal; objects match when every listed key matches
 * (extra keys in the actual value are fine); arrays match element by element with the same length. Special strings:
 * `<any>` (anything, even absent), `<present>` (anything but absent), `<absent>`, `<string>`, `<number>`, `<iso8601>`, and `{{name}}` (equal to the
 * value captured under `name`, also inside a longer string or an object key). `{ "<oneOf>": [a, b] }` matches when
 * one alternative does; `{ "<count>": n }` matches an object with n keys or an array of n items.
 */
export const MatcherSchema: z.ZodType<unknown> = z.unknown();

/** Where a value is captured from: a dot path into the response (`result.taskId`), `$keys[n]` for an object key. */
export const CapturesSchema = z.record(z.string(), z.string());

/** The HTTP side of one exchange: what the client sent and the status and content type it must get back. */
export const HttpExpectationSchema = z.object({
  request: z.object({ headers: z.record(z.string(), z.string()) }),
  response: z.object({ status: z.int(), contentType: z.string() }),
});

/** Fields every request step shares. */
const requestFields = {
  /** What the step shows, as reported. */
  name: z.string(),
  /** `other`: sent with the second principal's credential (skipped when none is configured). @default main */
  as: z.enum(['main', 'other']).optional(),
  /** The JSON-RPC method and params (templated with `{{name}}`); the id is chosen at replay. */
  method: z.string(),
  params: z.record(z.string(), z.unknown()),
  /** Values to capture from the response, for later steps. */
  capture: CapturesSchema.optional(),
  /** Expected response body without `jsonrpc` and `id`: `{ result: … }` or `{ error: … }`. */
  expect: MatcherSchema,
  http: HttpExpectationSchema.optional(),
};

/** One request and its expected response. */
export const SendStepSchema = z.object({ kind: z.literal('send'), ...requestFields });
/** Repeats a request until its response matches `until` (or `timeoutMs` passes), then checks the last response. */
export const PollStepSchema = z.object({
  kind: z.literal('poll'),
  ...requestFields,
  until: MatcherSchema,
  timeoutMs: z.int().positive(),
  /** Waits for the task captured under this name to expire: skipped when its TTL ends beyond the replay's budget. */
  expiryOf: z.string().optional(),
});
/** Opens a `subscriptions/listen` stream kept open in the background; `expect` matches its first notification. */
export const ListenStepSchema = z.object({
  kind: z.literal('listen'),
  ...requestFields,
  stream: z.string(),
});
/** Waits until a notification on an open stream matches `until`, then checks it against `expect`. */
export const AwaitNotificationStepSchema = z.object({
  kind: z.literal('awaitNotification'),
  name: z.string(),
  stream: z.string(),
  until: MatcherSchema,
  expect: MatcherSchema,
  timeoutMs: z.int().positive(),
});
/** Closes an open listen stream (the client goes away, as a client does). */
export const CloseStreamStepSchema = z.object({ kind: z.literal('closeStream'), name: z.string(), stream: z.string() });

/** A step that is not a group. */
export const SingleStepSchema = z.discriminatedUnion('kind', [
  SendStepSchema,
  PollStepSchema,
  ListenStepSchema,
  AwaitNotificationStepSchema,
  CloseStreamStepSchema,
]);
/** Steps run at the same time (concurrent requests); each is checked on its own. */
export const ParallelStepSchema = z.object({
  kind: z.literal('parallel'),
  name: z.string(),
  steps: z.array(SingleStepSchema).min(2),
});
/** One step of a transcript. */
export const StepSchema = z.discriminatedUnion('kind', [
  SendStepSchema,
  PollStepSchema,
  ListenStepSchema,
  AwaitNotificationStepSchema,
  CloseStreamStepSchema,
  ParallelStepSchema,
]);

/** The behaviours checked over a whole scenario run, beyond the shape of each response. */
export const CheckNameSchema = z.enum([
  'input-keys-unique',
  'terminal-immutable',
  'one-terminal-state',
  'principal-isolation',
  'declared-input-kinds',
]);

/** A tool the server must expose for a transcript, and how it must behave. */
export const ToolRequirementSchema = z.object({ name: z.string(), behaviour: z.string() });

/** One recorded lifecycle scenario. */
export const TranscriptSchema = z.object({
  /** Format version of this file. */
  format: z.literal(1),
  scenario: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string(),
  description: z.string(),
  protocolVersion: z.string(),
  tools: z.array(ToolRequirementSchema),
  checks: z.array(CheckNameSchema),
  steps: z.array(StepSchema).min(1),
});

export type Captures = z.infer<typeof CapturesSchema>;
export type HttpExpectation = z.infer<typeof HttpExpectationSchema>;
export type SendStep = z.infer<typeof SendStepSchema>;
export type PollStep = z.infer<typeof PollStepSchema>;
export type ListenStep = z.infer<typeof ListenStepSchema>;
export type AwaitNotificationStep = z.infer<typeof AwaitNotificationStepSchema>;
export type CloseStreamStep = z.infer<typeof CloseStreamStepSchema>;
export type SingleStep = z.infer<typeof SingleStepSchema>;
export type ParallelStep = z.infer<typeof ParallelStepSchema>;
export type Step = z.infer<typeof StepSchema>;
export type CheckName = z.infer<typeof CheckNameSchema>;
export type ToolRequirement = z.infer<typeof ToolRequirementSchema>;
export type Transcript = z.infer<typeof TranscriptSchema>;
