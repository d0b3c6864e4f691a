import type { CallToolResult, ContentBlock, Icon, MetaObject, ParamHeader, ToolAnnotations } from '@mcp-tasks/protocol';
import { z } from 'zod';
import { formatZodError } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { RawJsonSchema, type SchemaInput, toWireSchema } from './jsonSchema.js';
import { collectHeaderParams } from './mcpParamHeaders.js';
import type { InputRequired } from './mrtr.js';
import type { HandlerContext, ToolContext } from './toolContext.js';

/**
 * Whether a tool runs as a task: `forbidden` always answers synchronously; `optional` creates a task when the
 * request declares the Tasks extension and runs synchronously otherwise; `required` creates a task and answers
 * `-32021` to a request that does not declare the extension.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * A `CallToolResult` as a handler returns it; the runtime adds `resultType: "complete"`. The fields are the
 * protocol's: `content` holds `ContentBlock`s (`text`, `image`, `audio`, `resource_link`, `resource`), so a
 * misspelled block type is a compile error. A tool failure the model should read is `isError: true` here, not a
 * thrown error.
 */
export interface ToolResult {
  /** What the tool returns to the model (`text`, `image`, `audio`, `resource_link`, `resource` blocks). */
  readonly content: readonly ContentBlock[];
  /** Must conform to the tool's `outputSchema` when it declares one. */
  readonly structuredContent?: CallToolResult['structuredContent'];
  /** `true` when the tool failed in a way the model should read; the call itself still succeeds. */
  readonly isError?: boolean;
  /** Metadata passed through to the result's `_meta`. */
  readonly _meta?: CallToolResult['_meta'];
}

/** Arguments type inferred from a zod input schema; a raw JSON Schema gives a plain object. */
export type ToolArgs<S> = S extends z.ZodType ? z.output<S> : JsonObject;

/** A tool registration. */
export interface ToolDefinition<S extends SchemaInput = SchemaInput> {
  /** Unique, `^[A-Za-z0-9_.-]{1,128}$`. */
  readonly name: string;
  /** Display name for UIs. */
  readonly title?: string;
  /** Non-empty; clients show it to the model. */
  readonly description: string;
  /**
   * Validates each call's `arguments`, and is listed (as JSON Schema) in `tools/list`. A zod schema is checked with
   * its synchronous parse; one with async refinements or transforms is then checked again with the async parse, so
   * keep transforms free of side effects.
   * @default an empty object schema
   */
  readonly inputSchema?: S;
  /** JSON Schema (or zod schema) of `structuredContent`, served in `tools/list`; results must conform to it. */
  readonly outputSchema?: SchemaInput;
  /** Hints about the tool's behaviour (read-only, destructive, idempotent, open-world), served as given. */
  readonly annotations?: ToolAnnotations;
  /** Icons served in `tools/list`. */
  readonly icons?: readonly Icon[];
  /** Metadata served in `tools/list`. */
  readonly _meta?: MetaObject;
  /** @default 'forbidden' */
  readonly taskSupport?: TaskSupport;
  /**
   * OAuth scopes a caller's access token must grant to call this tool. Over Streamable HTTP with an authentication
   * hook that reports scopes (e.g. `bearerAuthenticate` of `@mcp-tasks/oauth-resource-server`), a call whose token
   * lacks one is refused with 403 and a `WWW-Authenticate: Bearer error="insufficient_scope"` challenge naming
   * them, before the tool runs or a task is created. @default none
   */
  readonly requiredScopes?: readonly string[];
  /**
   * When the instance running this tool as a task dies (its lease is not renewed), another instance sharing the
   * store starts the handler again with the same arguments; each `ctx.elicit`/`sample`/`listRoots` it asks gets the
   * answer the task already has for the question asked at the same position. Only for handlers that are safe to
   * run twice and ask their questions in a fixed order. The arguments are stored with the task (frozen).
   * Otherwise such a task fails with `-32603` naming the lost worker. @default false
   */
  readonly resumable?: boolean;
  /**
   * Makes the task's work durable: it outlives every process. The tool does its work in named steps
   * (`ctx.step`), each result written to the store before the tool goes on. When the worker running it is lost,
   * its server drains, a `RetryableError` asks for a retry, or the answer to a parked question arrives, a worker of
   * any instance sharing the store claims the task and runs the handler again with the stored arguments: completed
   * steps return their stored results and answered questions their answers, so only the step in flight runs again.
   * A question unanswered after `execution.parkAfterMs` parks the task (nothing of it stays in memory). Requires a
   * store implementing `DurableTaskStore` (both built-in stores do) and `taskSupport` other than `forbidden`; a
   * call without a task (synchronous) runs its steps plainly. Tasks of the 2025-11-25 era run without parking or
   * re-runs (their questions travel in the client's session). @default false
   */
  readonly durable?: boolean;
  /**
   * The synchronous MRTR phase of a task-capable tool: runs before any task is created and may answer
   * `input_required`; the answers then reach the handler as `ctx.inputResponses`. Return undefined to proceed.
   */
  readonly collectInput?: (
    args: ToolArgs<S>,
    ctx: HandlerContext,
  ) => InputRequired | undefined | Promise<InputRequired | undefined>;
  /**
   * Does the work. May return `ctx.inputRequired(...)` only when running synchronously; `ctx.elicit` and friends
   * work in every mode. Throwing a
   * `ProtocolError` answers (or fails the task with) that JSON-RPC error; any other exception becomes an
   * `isError: true` result.
   */
  readonly handler: (
    args: ToolArgs<S>,
    ctx: ToolContext,
  ) => ToolResult | InputRequired | Promise<ToolResult | InputRequired>;
}

/** A registered tool with everything derived once at registration. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly taskSupport: TaskSupport;
  /** The wire `Tool` object, frozen. */
  readonly wire: JsonObject;
  /** The arguments mirrored into `Mcp-Param-*` headers on Streamable HTTP. */
  readonly headerParams: readonly ParamHeader[];
  /**
   * Validates `arguments`; a failure message is reported to the model as an `isError` result. Synchronous, unless
   * the schema has async refinements or transforms: then a promise.
   */
  parseArguments(args: JsonObject): ArgumentsCheck | Promise<ArgumentsCheck>;
}

/** How a call's `arguments` checked out against the tool's input schema. */
export type ArgumentsCheck =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly message: string };

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** RFC 6749 section 3.3 `scope-token`: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const EMPTY_OBJECT_SCHEMA: JsonObject = Object.freeze({ type: 'object', properties: {} });

/** Builds a {@link RegisteredTool}; throws on an invalid name, empty description or bad `x-mcp-header`. */
export function registerTool(definition: ToolDefinition): RegisteredTool {
  if (!NAME.test(definition.name)) throw new Error(`Invalid tool name ${JSON.stringify(definition.name)}`);
  if (definition.description.trim() === '') throw new Error(`Tool ${definition.name} needs a description`);
  if (definition.durable === true && (definition.taskSupport ?? 'forbidden') === 'forbidden') {
    throw new Error(`Tool ${definition.name} is durable: its taskSupport must be 'optional' or 'required'`);
  }
  const schema = definition.inputSchema;
  const inputSchema = schema === undefined ? EMPTY_OBJECT_SCHEMA : toWireSchema(schema);
  if (inputSchema.type !== 'object') throw new Error(`Tool ${definition.name}: inputSchema must have type "object"`);
  const badScope = definition.requiredScopes?.find((scope) => !SCOPE_TOKEN.test(scope));
  if (badScope !== undefined)
    throw new Error(`Tool ${definition.name}: ${JSON.stringify(badScope)} is not an OAuth scope (RFC 6749 3.3)`);
  const wire = Object.freeze({
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema,
    ...(definition.outputSchema === undefined ? {} : { outputSchema: toWireSchema(definition.outputSchema) }),
    ...(definition.annotations === undefined ? {} : { annotations: definition.annotations }),
    ...(definition.icons === undefined ? {} : { icons: definition.icons }),
    ...(definition._meta === undefined ? {} : { _meta: definition._meta }),
  });
  return {
    definition,
    taskSupport: definition.taskSupport ?? 'forbidden',
    wire,
    headerParams: collectHeaderParams(definition.name, inputSchema),
    parseArguments(args) {
      if (schema === undefined || schema instanceof RawJsonSchema) return { ok: true, value: args };
      const checked = (parsed: z.ZodSafeParseResult<unknown>): ArgumentsCheck =>
        parsed.success
          ? { ok: true, value: parsed.data }
          : { ok: false, message: `Invalid arguments for tool ${definition.name}: ${formatZodError(parsed.error)}` };
      // The synchronous parse first: the async one costs several promise turns per call. zod throws this error,
      // and no other, when the schema has async refinements or transforms.
      try {
        return checked(schema.safeParse(args));
      } catch (error) {
        if (!(error instanceof z.core.$ZodAsyncError)) throw error;
        return schema.safeParseAsync(args).then(checked);
      }
    },
  };
}

/**
 * Whether the tool's handler may run again for an existing task (`resumable` or `durable`): its task then stores the
 * call's arguments, version, capabilities and principal.
 */
export function runsAgain(tool: RegisteredTool): boolean {
  return tool.definition.resumable === true || tool.definition.durable === true;
}

/** Reads `params.arguments`: absent means `{}`; anything but an object is reported like a validation failure. */
export function readArguments(params: JsonObject): JsonObject | undefined {
  const args = params.arguments;
  if (args === undefined) return {};
  return isJsonObject(args) ? args : undefined;
}
