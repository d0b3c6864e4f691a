// Connects the official client (@modelcontextprotocol/client 2.x) in 2026-07-28 mode: version negotiation pinned to
// 2026-07-28 by default, so connect() does `server/discover` and every request carries the per-request `_meta`
// envelope.
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The Tasks extension id (SEP-2663); the official SDK has no constant for it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface OfficialClientOptions {
  /**
   * `pin` (default): 2026-07-28 or fail. `auto`: probe with `server/discover`, fall back to `initialize`.
   * `legacy`: the plain 2025 `initialize` handshake, as a 2025-era client would connect.
   */
  readonly negotiation?: 'pin' | 'auto' | 'legacy';
  /** Declare the Tasks extension in the client capabilities (the official client cannot consume tasks). */
  readonly declareTasks?: boolean;
  /**
   * Declare form elicitation and accept every form with {@link ELICITED_NAME} for string fields and `true` for
   * boolean ones. The SDK answers `input_required` rounds through this handler by itself (MRTR auto-fulfilment).
   */
  readonly answerElicitation?: boolean;
}

/** What the elicitation handler enters for every string field. */
export const ELICITED_NAME = 'Ada';

function answerForm(requestedSchema: {
  properties?: Record<string, { type?: string }>;
}): Record<string, string | boolean> {
  const content: Record<string, string | boolean> = {};
  for (const [key, property] of Object.entries(requestedSchema.properties ?? {})) {
    content[key] = property.type === 'boolean' ? true : ELICITED_NAME;
  }
  return content;
}

function newClient(options: OfficialClientOptions): Client {
  const client = new Client(
    { name: 'official-interop-client', version: '2.4.0' },
    {
      versionNegotiation: {
        mode:
          options.negotiation === undefined || options.negotiation === 'pin'
            ? { pin: '2026-07-28' }
            : options.negotiation,
      },
      capabilities: {
        ...(options.declareTasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
        ...(options.answerElicitation ? { elicitation: { form: {} } } : {}),
      },
    },
  );
  if (options.answerElicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params;
      if (!('requestedSchema' in params)) return { action: 'decline' };
      return { action: 'accept', content: answerForm(params.requestedSchema) };
    });
  }
  return client;
}

/** The official client over Streamable HTTP. The caller closes it. */
export async function officialClientOverHttp(url: string, options: OfficialClientOptions = {}): Promise<Client> {
  const client = newClient(options);
  await connectOrClose(client, new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The official client over stdio, spawning `node <script> ...args`. The caller closes it (which ends the child). */
export async function officialClientOverStdio(
  script: string,
  args: readonly string[] = [],
  options: OfficialClientOptions = {},
): Promise<Client> {
  const client = newClient(options);
  await connectOrClose(
    client,
    new StdioClientTransport({ command: process.execPath, args: [script, ...args], stderr: 'inherit' }),
  );
  return client;
}

/** Connects, or closes the client (and so its transport and any spawned child) before rethrowing. */
async function connectOrClose(client: Client, transport: Transport): Promise<void> {
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close();
    throw error;
  }
}
