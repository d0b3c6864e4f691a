import { ErrorCode, ProtocolError } from '@mcp-tasks/protocol';
import type { JsonObject } from './jsonRpc.js';
import type { InputRequired } from './mrtr.js';
import type { Completer } from './promptRegistry.js';
import type { HandlerContext } from './toolContext.js';

/** A `ReadResourceResult` as a handler returns it; the runtime adds `resultType` and cache hints. */
export interface ReadResult {
  /** The resource contents (`text` or `blob` objects, each with its `uri`). */
  readonly contents: readonly JsonObject[];
  /** Metadata passed through to the result's `_meta`. */
  readonly _meta?: JsonObject;
}

/** Descriptive fields shared by resources and templates (served in the lists). */
export interface ResourceMetadata {
  /** Programmatic name. */
  readonly name: string;
  /** Display name for UIs. */
  readonly title?: string;
  /** What the resource holds, for the model and users. */
  readonly description?: string;
  /** The MIME type of its contents, when known. */
  readonly mimeType?: string;
  /** Resource annotations (`audience`, `priority`, `lastModified`), served as given. */
  readonly annotations?: JsonObject;
  /** Icons served in the lists. */
  readonly icons?: readonly JsonObject[];
  /** Metadata served in the lists. */
  readonly _meta?: JsonObject;
}

/** A fixed resource. */
export interface ResourceDefinition extends ResourceMetadata {
  /** The resource's URI, what `resources/read` names. */
  readonly uri: string;
  /** Size in bytes, when known, served in `resources/list`. */
  readonly size?: number;
  /** Reads the resource; may answer `ctx.inputRequired(...)`. */
  readonly read: (uri: string, ctx: HandlerContext) => ReadResult | InputRequired | Promise<ReadResult | InputRequired>;
}

/**
 * A family of resources addressed by an RFC 6570 template. Supported expressions: `{var}` (one path segment) and
 * `{+var}` (reserved expansion, may span segments). `read` returns undefined when no such resource exists.
 */
export interface ResourceTemplateDefinition extends ResourceMetadata {
  /** The RFC 6570 URI template (`{var}` or `{+var}` expressions), served in `resources/templates/list`. */
  readonly uriTemplate: string;
  /** Completers for template variables (`completion/complete` with `ref/resource`). */
  readonly complete?: Readonly<Record<string, Completer>>;
  /**
   * Reads the resource `uri` matched with the template's `variables`; `undefined` when no such resource exists
   * (the client gets a resource-not-found error).
   */
  readonly read: (
    uri: string,
    variables: Readonly<Record<string, string>>,
    ctx: HandlerContext,
  ) => ReadResult | InputRequired | undefined | Promise<ReadResult | InputRequired | undefined>;
}

/** A registered template with its compiled matcher. */
export interface RegisteredTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly wire: JsonObject;
  match(uri: string): Record<string, string> | undefined;
}

function metadata(definition: ResourceMetadata): JsonObject {
  const { name, title, description, mimeType, annotations, icons, _meta } = definition;
  return Object.fromEntries(
    Object.entries({ name, title, description, mimeType, annotations, icons, _meta }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}

/** The wire `Resource` of a definition. */
export function resourceWire(definition: ResourceDefinition): JsonObject {
  return Object.freeze({
    uri: definition.uri,
    ...metadata(definition),
    ...(definition.size === undefined ? {} : { size: definition.size }),
  });
}

const EXPRESSION = /\{(\+?)([A-Za-z0-9_]+)\}/g;

/** Compiles a template; throws on expressions outside the supported subset. */
export function registerTemplate(definition: ResourceTemplateDefinition): RegisteredTemplate {
  const names: string[] = [];
  let pattern = '^';
  let last = 0;
  for (const match of definition.uriTemplate.matchAll(EXPRESSION)) {
    pattern += escapeRegExp(definition.uriTemplate.slice(last, match.index));
    pattern += match[1] === '+' ? '(.+)' : '([^/?#]+)';
    names.push(match[2] ?? '');
    last = match.index + match[0].length;
  }
  const rest = definition.uriTemplate.slice(last);
  if (/[{}]/.test(rest)) throw new Error(`Unsupported URI template ${definition.uriTemplate}`);
  const regex = new RegExp(`${pattern}${escapeRegExp(rest)}$`);
  return {
    definition,
    wire: Object.freeze({ uriTemplate: definition.uriTemplate, ...metadata(definition) }),
    match(uri) {
      const found = regex.exec(uri);
      if (found === null) return undefined;
      const variables: Record<string, string> = {};
      names.forEach((name, index) => {
        const value = found[index + 1] ?? '';
        try {
          variables[name] = decodeURIComponent(value);
        } catch {
          variables[name] = value;
        }
      });
      return variables;
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An unknown resource: `-32602` with `data.uri` as SEP-2164 asks; 2025-era sessions answer it as `-32002`. */
export class ResourceNotFoundError extends ProtocolError<{ readonly uri: string }> {
  constructor(uri: string) {
    super(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
  }
}

/** `-32602` for an unknown resource, with `data.uri` as SEP-2164 asks. */
export function resourceNotFound(uri: string): ResourceNotFoundError {
  return new ResourceNotFoundError(uri);
}
