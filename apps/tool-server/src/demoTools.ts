import { createHash } from 'node:crypto';
import { delay, ErrorCode, ProtocolError, type TextContent } from '@mcp-tasks/protocol';
import { type McpServer, RetryableError } from '@mcp-tasks/server';
import { z } from 'zod';
import { CHUNK_BYTES, hashGeneratedData, PseudoRandom, report, seedOf, throttledReport } from './dataJobs.js';
import { acceptedContent, elicitForm, sampledText, sampleText } from './inputRequests.js';
import { analyzeText } from './textStats.js';
import { yieldToEventLoop } from './yieldToEventLoop.js';

const text = (value: string): TextContent => ({ type: 'text', text: value });
const BUILD_MIB = 64;
const STAGE_MIB = 16;
const STAGES = ['canary (10%)', 'half (50%)', 'full (100%)'] as const;
/** Each stage waits this long for health checks: longer than a poll interval, so a client sees the rollout. */
const HEALTH_CHECK_MS = 400;
const PAGE_MIB = 8;
/** Each table's migration also waits this long, so a client (and a kill -9 test) sees the steps one by one. */
const TABLE_PAUSE_MS = 300;

/**
 * Registers the demo tools: jobs that show why tasks exist. Each does real work in chunks, reports progress
 * (statusMessage in a task, progress notifications otherwise) and stops within one chunk when cancelled.
 */
export function registerDemoTools(server: McpServer): void {
  server
    .tool({
      name: 'checksum_data',
      description: 'Generates pseudo-random data from a seed and computes its SHA-256, reporting progress per MiB',
      inputSchema: z.object({
        megabytes: z.number().int().min(1).max(65_536).default(512).describe('Amount of data to hash, in MiB'),
        seed: z.string().default('demo').describe('Seed of the generated data'),
      }),
      taskSupport: 'optional',
      handler: async ({ megabytes, seed }, ctx) => {
        const sha256 = await hashGeneratedData(ctx, seed, megabytes, 'hashing');
        return {
          content: [text(`SHA-256 of ${megabytes} MiB generated from seed "${seed}": ${sha256}`)],
          structuredContent: { megabytes, seed, sha256 },
        };
      },
    })
    .tool({
      name: 'deploy_service',
      description: 'Builds a service, asks the user to confirm through a form, then rolls it out in stages',
      inputSchema: z.object({
        service: z.string().min(1),
        version: z.string().min(1),
        environment: z.enum(['staging', 'production']).default('staging'),
      }),
      taskSupport: 'optional',
      // Behind an authorization server (--auth-issuer) a rollout needs a token granting "deploy" (403 otherwise).
      requiredScopes: ['deploy'],
      // Durable: the build and each rollout stage are steps, written to the task store as they complete. When the
      // instance running the task dies or is redeployed, or the confirmation waits long enough for the task to be
      // parked, a worker of any instance runs the handler again: completed steps and the answer are replayed, and
      // only the step that was in flight runs again.
      durable: true,
      // Refuse up front (before any task exists) a client that could never answer the confirmation form.
      collectInput: (_args, ctx) => {
        if (ctx.canRequest('elicitation')) return undefined;
        throw ProtocolError.missingRequiredClientCapability(
          { elicitation: {} },
          'deploy_service asks for confirmation and needs the elicitation capability',
        );
      },
      handler: async ({ service, version, environment }, ctx) => {
        const target = `${service}@${version}`;
        const total = BUILD_MIB + STAGES.length * STAGE_MIB;
        // Synchronously (no task) steps just run: the question ends the first run and the client's retry runs the
        // handler again with the answer replayed, so the build (deterministic) is done once per round.
        const build = await ctx.step('build', () =>
          hashGeneratedData(ctx, target, BUILD_MIB, `building ${target}`, { offset: 0, total }),
        );
        const question = elicitForm(
          `Deploy ${target} (build ${build.slice(0, 12)}) to ${environment}?`,
          { confirm: { type: 'boolean', title: 'Deploy now?' }, note: { type: 'string', title: 'Change note' } },
          ['confirm'],
        );
        const content = acceptedContent(await ctx.elicit(question.params));
        if (content?.confirm !== true) {
          return {
            content: [text(`Deployment of ${target} to ${environment} cancelled by the user; nothing changed`)],
          };
        }
        for (const [index, stage] of STAGES.entries()) {
          await ctx.step(`rollout ${stage}`, async (signal) => {
            const span = { offset: BUILD_MIB + index * STAGE_MIB, total };
            await hashGeneratedData(ctx, `${target}/${stage}`, STAGE_MIB, `rolling out ${target} to ${stage}`, span);
            await report(ctx, span.offset + STAGE_MIB, total, `health checks of ${target} at ${stage}`);
            await delay(HEALTH_CHECK_MS, signal);
            return stage;
          });
        }
        const note = typeof content.note === 'string' && content.note !== '' ? ` (note: ${content.note})` : '';
        return {
          content: [text(`Deployed ${target} to ${environment}, build ${build.slice(0, 12)}${note}`)],
          structuredContent: { service, version, environment, build },
        };
      },
    })
    .tool({
      name: 'migrate_database',
      description:
        'Migrates a database table by table, each table a durable step: a crash, a redeploy or a busy table lock ' +
        'resumes after the last migrated table instead of starting over',
      inputSchema: z.object({
        database: z.string().min(1).max(100).default('orders'),
        tables: z.number().int().min(1).max(50).default(5).describe('Tables to migrate'),
        tableMegabytes: z.number().int().min(0).max(1024).default(4).describe('Data rewritten per table, in MiB'),
        lockBusyOnce: z
          .boolean()
          .default(true)
          .describe("The second table's lock is busy on the first attempt: the step is retried with backoff"),
      }),
      taskSupport: 'optional',
      durable: true,
      handler: async ({ database, tables, tableMegabytes, lockBusyOnce }, ctx) => {
        const total = Math.max(1, (tables + 1) * tableMegabytes);
        const snapshot = await ctx.step('snapshot', () =>
          hashGeneratedData(ctx, `${database}/snapshot`, tableMegabytes, `snapshot of ${database}`, {
            offset: 0,
            total,
          }),
        );
        for (let table = 1; table <= tables; table++) {
          await ctx.step(`migrate table ${table}`, async (signal) => {
            if (lockBusyOnce && table === 2 && ctx.attempt === 1) {
              throw new RetryableError(`the lock on ${database}.table_${table} is busy`);
            }
            const span = { offset: table * tableMegabytes, total };
            await hashGeneratedData(
              ctx,
              `${database}/${table}`,
              tableMegabytes,
              `migrating ${database}.table_${table}`,
              span,
            );
            await delay(TABLE_PAUSE_MS, signal);
            return table;
          });
        }
        return {
          content: [
            text(`Migrated ${tables} tables of ${database} (snapshot ${snapshot.slice(0, 12)}, run ${ctx.attempt})`),
          ],
          structuredContent: { database, tables, snapshot, runs: ctx.attempt },
        };
      },
    })
    .tool({
      name: 'summarize_text',
      description: "Analyzes a text locally, then asks the client's model for a summary through sampling",
      inputSchema: z.object({
        text: z.string().min(1).max(200_000),
        maxWords: z.number().int().min(5).max(500).default(50),
      }),
      taskSupport: 'optional',
      collectInput: (_args, ctx) => {
        if (ctx.canRequest('sampling')) return undefined;
        throw ProtocolError.missingRequiredClientCapability(
          { sampling: {} },
          "summarize_text asks the client's model and needs the sampling capability",
        );
      },
      handler: async ({ text: input, maxWords }, ctx) => {
        const stats = analyzeText(input);
        await report(ctx, 1, 2, `analyzed ${stats.words} words; asking the model for a summary`);
        const request = sampleText(
          `Summarize the following text in at most ${maxWords} words.\n\n${input}`,
          maxWords * 3,
        );
        const summary = sampledText(await ctx.sample(request.params)) ?? '(the model returned no text)';
        return {
          content: [
            text(
              `${summary}\n\n${stats.words} words, ${stats.sentences} sentences; top terms: ${stats.topTerms.join(', ')}`,
            ),
          ],
          structuredContent: { summary, ...stats },
        };
      },
    })
    .tool({
      name: 'verify_backup',
      description: 'Compares a backup with its restored copy chunk by chunk; reports corruption as a tool error',
      inputSchema: z.object({
        megabytes: z.number().int().min(1).max(65_536).default(128),
        seed: z.string().default('nightly'),
      }),
      taskSupport: 'optional',
      handler: async ({ megabytes, seed }, ctx) => {
        const original = new PseudoRandom(seedOf(seed));
        const words = new Uint32Array(CHUNK_BYTES / 4);
        // The simulated restore flips one bit in one chunk: the job always finds it, which is the point of the demo.
        const corrupt = seedOf(`${seed}/corrupt`) % megabytes;
        const progress = throttledReport(ctx);
        for (let chunk = 0; chunk < megabytes; chunk++) {
          ctx.signal.throwIfAborted();
          original.fill(words);
          const expected = createHash('sha256').update(words).digest('hex');
          if (chunk === corrupt) words[chunk % words.length] = (words[chunk % words.length] ?? 0) ^ 1;
          const actual = createHash('sha256').update(words).digest('hex');
          if (actual !== expected) {
            return {
              content: [
                text(
                  `Backup verification failed: chunk ${chunk + 1} of ${megabytes} differs ` +
                    `(expected sha256 ${expected.slice(0, 16)}…, restored ${actual.slice(0, 16)}…)`,
                ),
              ],
              isError: true,
            };
          }
          await progress(chunk + 1, megabytes, `verified ${chunk + 1}/${megabytes} MiB`);
          await yieldToEventLoop();
        }
        return { content: [text(`Backup of ${megabytes} MiB verified`)] };
      },
    })
    .tool({
      name: 'sync_inventory',
      description: 'Imports inventory pages from an upstream service; the last page is malformed, so the job fails',
      inputSchema: z.object({ pages: z.number().int().min(1).max(100).default(4) }),
      taskSupport: 'optional',
      handler: async ({ pages }, ctx) => {
        const total = (pages - 1) * PAGE_MIB;
        for (let page = 1; page < pages; page++) {
          const span = { offset: (page - 1) * PAGE_MIB, total };
          await hashGeneratedData(ctx, `inventory/${page}`, PAGE_MIB, `importing page ${page}/${pages}`, span);
        }
        // Not a tool-level problem the model could fix: a JSON-RPC error, so the task ends `failed`.
        throw new ProtocolError(
          ErrorCode.InternalError,
          `Upstream inventory service returned a malformed page ${pages}`,
          {
            page: pages,
            importedPages: pages - 1,
          },
        );
      },
    })
    .tool({
      name: 'count_steps',
      description: 'Counts steps on a timer and reports each one; light (no CPU work), so hundreds can run at once',
      inputSchema: z.object({
        steps: z.number().int().min(1).max(1000).default(10).describe('How many steps to count'),
        intervalMs: z.number().int().min(0).max(60_000).default(500).describe('Time between two steps, in ms'),
      }),
      taskSupport: 'optional',
      handler: async ({ steps, intervalMs }, ctx) => {
        for (let step = 1; step <= steps; step++) {
          await delay(intervalMs, ctx.signal);
          await report(ctx, step, steps, `counted ${step}/${steps} steps`);
        }
        return { content: [text(`Counted ${steps} steps`)], structuredContent: { steps } };
      },
    })
    .tool({
      name: 'generate_report',
      description: 'Aggregates statistics over millions of generated rows; runs only as a task',
      inputSchema: z.object({
        rows: z.number().int().min(1).max(1_000_000_000).default(200_000_000),
        seed: z.string().default('report'),
      }),
      taskSupport: 'required',
      handler: async ({ rows, seed }, ctx) => {
        const random = new PseudoRandom(seedOf(seed));
        const histogram = new Array<number>(10).fill(0);
        const progress = throttledReport(ctx);
        let sum = 0;
        let sumSquares = 0;
        const batch = 1_000_000;
        for (let done = 0; done < rows; ) {
          ctx.signal.throwIfAborted();
          const end = Math.min(rows, done + batch);
          for (; done < end; done++) {
            const value = random.next() / 0x1_0000_0000;
            sum += value;
            sumSquares += value * value;
            histogram[Math.floor(value * 10)] = (histogram[Math.floor(value * 10)] ?? 0) + 1;
          }
          await progress(done, rows, `aggregated ${done.toLocaleString('en')}/${rows.toLocaleString('en')} rows`);
          await yieldToEventLoop();
        }
        const mean = sum / rows;
        const stddev = Math.sqrt(Math.max(0, sumSquares / rows - mean * mean));
        return {
          content: [text(`Report over ${rows} rows: mean ${mean.toFixed(4)}, stddev ${stddev.toFixed(4)}`)],
          structuredContent: { rows, mean, stddev, histogram },
        };
      },
    });
}
