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
  /** What the recording client sent. */
  request: z.object({
    /**
     * The headers sent with the request (content type, accept and the routing headers `mcp-protocol-version`,
     * `mcp-method`, `mcp-name`; never credentials), with `{{name}}` placeholders for captured values. A replay over
     * HTTP sends them, filled, in place of the headers it would compute, and adds the target's credentials.
     */
    headers: z.record(z.string(), z.string()),
  }),
  /** What the server must answer at the HTTP level; checked only when the replay runs over HTTP. */
  response: z.object({
    /** The expected HTTP status code. */
    status: z.int(),
    /**
     * The expected media type of the response without parameters (`application/json` or `text/event-stream`), or
     * the empty string when the recorded response had no `Content-Type`.
     */
    contentType: z.string(),
  }),
});

/** Fields every request step shares. */
const requestFields = {
  /** What the step shows, as reported. */
  name: z.string(),
  /** `other`: sent with the second principal's credential (skipped when none is configured). @default main */
  as: z.enum(['main', 'other']).optional(),
  /** The JSON-RPC method, sent as written. */
  method: z.string(),
  /**
   * The JSON-RPC params: the full request, `_meta` included. `{{name}}` placeholders (in values and object keys) are
   * filled with captured values before sending; the JSON-RPC id is chosen at replay.
   */
  params: z.record(z.string(), z.unknown()),
  /** Values to capture from the response, for later steps. */
  capture: CapturesSchema.optional(),
  /** Expected response body without `jsonrpc` and `id`: `{ result: … }` or `{ error: … }`. */
  expect: MatcherSchema,
  /** The HTTP side of the exchange, present when it was recorded over HTTP. */
  http: HttpExpectationSchema.optional(),
};

/** One request and its expected response. */
export const SendStepSchema = z.object({
  /** Marks a step that sends one request and checks its response. */
  kind: z.literal('send'),
  ...requestFields,
});
/** Repeats a request until its response matches `until` (or `timeoutMs` passes), then checks the last response. */
export const PollStepSchema = z.object({
  /** Marks a step that repeats a request until its response matches `until`. */
  kind: z.literal('poll'),
  ...requestFields,
  /**
   * The response (without `jsonrpc` and `id`) the step waits for, written like `expect`. The request is sent again
   * until a response matches; that response is then checked against `expect`.
   */
  until: MatcherSchema,
  /**
   * How long to keep polling before the step fails, in milliseconds. When `expiryOf` is set, a replay waits at
   * least until the task's expiry plus 10 seconds.
   */
  timeoutMs: z.int().positive(),
  /** Waits for the task captured under this name to expire: skipped when its TTL ends beyond the replay's budget. */
  expiryOf: z.string().optional(),
});
/** Opens a `subscriptions/listen` stream kept open in the background; `expect` matches its first notification. */
export const ListenStepSchema = z.object({
  /** Marks a step that opens a `subscriptions/listen` stream. */
  kind: z.literal('listen'),
  ...requestFields,
  /** The name the open stream is known by to later `awaitNotification` and `closeStream` steps of the scenario. */
  stream: z.string(),
});
/** Waits until a notification on an open stream matches `until`, then checks it against `expect`. */
export const AwaitNotificationStepSchema = z.object({
  /** Marks a step that waits for a notification on an open stream. */
  kind: z.literal('awaitNotification'),
  /** What the step shows, as reported. */
  name: z.string(),
  /** The `stream` name of an earlier `listen` step; the step is skipped when that stream is not open. */
  stream: z.string(),
  /**
   * The notification waited for (`method` and `params`), written like `expect`. Every notification the stream
   * received counts, also those that arrived before this step started.
   */
  until: MatcherSchema,
  /** The notification that matched `until`, as it must be: without `jsonrpc`, with `method` and `params`. */
  expect: MatcherSchema,
  /** How long to wait for a matching notification before the step fails, in milliseconds. */
  timeoutMs: z.int().positive(),
});
/** Closes an open listen stream (the client goes away, as a client does). */
export const CloseStreamStepSchema = z.object({
  /** Marks a step that closes a listen stream. */
  kind: z.literal('closeStream'),
  /** What the step shows, as reported. */
  name: z.string(),
  /** The `stream` name of an earlier `listen` step; the step is skipped when that stream is not open. */
  stream: z.string(),
});

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
  /** Marks a group of steps sent at the same time. */
  kind: z.literal('parallel'),
  /** A name for the group (each step inside reports under its own name). */
  name: z.string(),
  /** At least two steps (no groups), started together; the group ends when all of them have. */
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

/**
 * The behaviours checked over a whole scenario run, beyond the shape of each response:
 * - `input-keys-unique`: an input key names one request for the task's whole life (never reused, never back once
 *   answered);
 * - `terminal-immutable`: a finished task never changes (`_meta` aside), and once gone it stays gone;
 * - `one-terminal-state`: each task ends in exactly one terminal status;
 * - `principal-isolation`: a second principal learns nothing of the first one's tasks and cannot act on them
 *   (skipped without a second principal);
 * - `declared-input-kinds`: input requests use only the kinds the request that started the work declared.
 */
export const CheckNameSchema = z.enum([
  'input-keys-unique',
  'terminal-immutable',
  'one-terminal-state',
  'principal-isolation',
  'declared-input-kinds',
]);

/** A tool the server must expose for a transcript, and how it must behave. */
export const ToolRequirementSchema = z.object({
  /** The tool's name, as `tools/call` sends it. */
  name: z.string(),
  /** How the tool must behave for the scenario to pass, in words (the `list` command prints it). */
  behaviour: z.string(),
});

/** One recorded lifecycle scenario. */
export const TranscriptSchema = z.object({
  /** Format version of this file. */
  format: z.literal(1),
  /**
   * The scenario's name (lowercase letters, digits and hyphens): the file is `<scenario>.json` in the pack, results
   * are reported under it and `--only` selects by it.
   */
  scenario: z.string().regex(/^[a-z0-9-]+$/),
  /** A short title for people (the `list` command prints it). */
  title: z.string(),
  /** What happens in the scenario, in a sentence or two (the `list` command prints it). */
  description: z.string(),
  /** The MCP protocol version the transcript was recorded with, e.g. `2026-07-28`. */
  protocolVersion: z.string(),
  /** The tools the server under test must expose for the scenario, with how each must behave. */
  tools: z.array(ToolRequirementSchema),
  /** Behaviours checked over all the scenario's exchanges once its steps ran, each reported as `check: <name>`. */
  checks: z.array(CheckNameSchema),
  /**
   * The exchanges in order: each step starts once the previous one finished (a `parallel` group starts its steps
   * together). Streams still open at the end are closed.
   */
  steps: z.array(StepSchema).min(1),
});

/** Captured values to take from a response: name to path (see `CapturesSchema`). */
export type Captures = z.infer<typeof CapturesSchema>;
/** The HTTP side of one exchange (see `HttpExpectationSchema`). */
export type HttpExpectation = z.infer<typeof HttpExpectationSchema>;
/** A step that sends one request and checks its response. */
export type SendStep = z.infer<typeof SendStepSchema>;
/** A step that repeats a request until its response matches, then checks it. */
export type PollStep = z.infer<typeof PollStepSchema>;
/** A step that opens a `subscriptions/listen` stream and checks its first notification. */
export type ListenStep = z.infer<typeof ListenStepSchema>;
/** A step that waits for a matching notification on an open stream. */
export type AwaitNotificationStep = z.infer<typeof AwaitNotificationStepSchema>;
/** A step that closes an open listen stream. */
export type CloseStreamStep = z.infer<typeof CloseStreamStepSchema>;
/** A step that is not a group. */
export type SingleStep = z.infer<typeof SingleStepSchema>;
/** Steps run at the same time. */
export type ParallelStep = z.infer<typeof ParallelStepSchema>;
/** One step of a transcript. */
export type Step = z.infer<typeof StepSchema>;
/** The name of a behaviour checked over a whole scenario run. */
export type CheckName = z.infer<typeof CheckNameSchema>;
/** A tool a transcript needs and how it must behave. */
export type ToolRequirement = z.infer<typeof ToolRequirementSchema>;
/** One recorded lifecycle scenario (one file of a pack). */
export type Transcript = z.infer<typeof TranscriptSchema>;
