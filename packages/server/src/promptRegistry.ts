import { invalidParams } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import type { InputRequired } from './mrtr.js';
import type { HandlerContext } from './toolContext.js';

/** Suggests values for a prompt argument or template variable (`completion/complete`). */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;

/** One declared prompt argument. */
export interface PromptArgumentDefinition {
  /** The argument's name, the key in `prompts/get` `arguments`. */
  readonly name: string;
  /** Display name for UIs. */
  readonly title?: string;
  /** What the argument is for, shown to users. */
  readonly description?: string;
  /** Whether `prompts/get` must supply it; a missing required argument is answered with `-32602`. */
  readonly required?: boolean;
  /** Suggests values for `completion/complete` with `ref/prompt`. */
  readonly complete?: Completer;
}

/** A `GetPromptResult` as a handler returns it; the runtime adds `resultType`. */
export interface PromptResult {
  /** Optional description of the rendered prompt. */
  readonly description?: string;
  /** The prompt's messages (`PromptMessage` objects: `role` and `content`), in order. */
  readonly messages: readonly JsonObject[];
  /** Metadata passed through to the result's `_meta`. */
  readonly _meta?: JsonObject;
}

/** A prompt registration. */
export interface PromptDefinition {
  /** Unique prompt name, what `prompts/get` names. */
  readonly name: string;
  /** Display name for UIs. */
  readonly title?: string;
  /** What the prompt does, served in `prompts/list`. */
  readonly description?: string;
  /** The arguments the prompt accepts, in the order served. */
  readonly arguments?: readonly PromptArgumentDefinition[];
  /** Icons served in `prompts/list`. */
  readonly icons?: readonly JsonObject[];
  /** Metadata served in `prompts/list`. */
  readonly _meta?: JsonObject;
  /** Renders the prompt; may answer `ctx.inputRequired(...)` (MRTR is allowed on `prompts/get`). */
  readonly handler: (
    args: Readonly<Record<string, string>>,
    ctx: HandlerContext,
  ) => PromptResult | InputRequired | Promise<PromptResult | InputRequired>;
}

/** A registered prompt with its wire form. */
export interface RegisteredPrompt {
  readonly definition: PromptDefinition;
  readonly wire: JsonObject;
}

/** Builds a {@link RegisteredPrompt}. */
export function registerPrompt(definition: PromptDefinition): RegisteredPrompt {
  if (definition.name === '') throw new Error('A prompt needs a name');
  const wire = Object.freeze({
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    ...(definition.description === undefined ? {} : { description: definition.description }),
    ...(definition.arguments === undefined
      ? {}
      : {
          arguments: definition.arguments.map(({ complete: _complete, ...argument }) => argument),
        }),
    ...(definition.icons === undefined ? {} : { icons: definition.icons }),
    ...(definition._meta === undefined ? {} : { _meta: definition._meta }),
  });
  return { definition, wire };
}

/** Reads and checks `prompts/get` arguments: an object of strings with every required argument present. */
export function readPromptArguments(prompt: RegisteredPrompt, params: JsonObject): Record<string, string> {
  const raw = params.arguments ?? {};
  if (!isJsonObject(raw)) throw invalidParams('Invalid params: arguments must be an object');
  const args: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'string') throw invalidParams(`Invalid params: argument "${key}" must be a string`);
    args[key] = value;
  }
  const missing = (prompt.definition.arguments ?? []).filter((arg) => arg.required && args[arg.name] === undefined);
  if (missing.length > 0) {
    throw invalidParams(
      `Invalid params: prompt ${prompt.definition.name} needs argument(s) ${missing.map((arg) => arg.name).join(', ')}`,
    );
  }
  return args;
}
