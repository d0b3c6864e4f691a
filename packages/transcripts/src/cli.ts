import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { loadPack, packFiles } from './loadPack.js';
import type { Target } from './openWire.js';
import { recordPack } from './record.js';
import { replayPack } from './replay.js';
import { formatReport } from './report.js';

/** Where the CLI writes (tests capture it). */
export interface CliOutput {
  /** Writes text meant for standard output (reports, help, `list`). */
  out(text: string): void;
  /** Writes text meant for standard error (usage errors, a run that could not start). */
  err(text: string): void;
}

interface TargetFlags {
  url?: string;
  stdio?: string;
  token?: string;
  otherToken?: string;
  header: string[];
  otherHeader: string[];
}

const collect = (value: string, previous: string[]) => [...previous, value];

function targetOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--url <url>', 'the server: http(s)://… (Streamable HTTP) or ws(s)://… (WebSocket)').conflicts(
        'stdio',
      ),
    )
    .option('--stdio <command>', 'start a stdio server with this command line (run by sh -c)')
    .option('--token <token>', 'bearer token of the main principal')
    .option('--other-token <token>', 'bearer token of a second principal (isolation checks; skipped without one)')
    .option('--header <name:value>', 'extra header of the main principal (repeatable)', collect, [])
    .option('--other-header <name:value>', 'extra header of the second principal (repeatable)', collect, []);
}

function toTarget(flags: TargetFlags): Target {
  if (flags.url === undefined && flags.stdio === undefined)
    throw new CommanderError(2, 'usage', 'give --url or --stdio');
  const headers = (list: string[]) => {
    const out: Record<string, string> = {};
    for (const item of list) {
      const at = item.indexOf(':');
      if (at <= 0) throw new CommanderError(2, 'usage', `a header is name:value (got "${item}")`);
      out[item.slice(0, at).trim().toLowerCase()] = item.slice(at + 1).trim();
    }
    return out;
  };
  return {
    url: flags.url,
    stdio: flags.stdio,
    token: flags.token,
    otherToken: flags.otherToken,
    ...(flags.header.length === 0 ? {} : { headers: headers(flags.header) }),
    ...(flags.otherHeader.length === 0 ? {} : { otherHeaders: headers(flags.otherHeader) }),
  };
}

/** Builds the command line program; `exit` receives the exit code of a finished command. */
function program(output: CliOutput, exit: (code: number) => void): Command {
  const root = new Command('mcp-tasks-transcripts')
    .description('Replay recorded MCP Tasks transcripts against a server and report each expectation')
    .exitOverride()
    .configureOutput({ writeOut: output.out, writeErr: output.err });
  targetOptions(root.command('replay').description('play the client side of every transcript and check the answers'))
    .option('--only <scenario...>', 'replay only these scenarios')
    .option('--pack <dir>', 'a pack folder instead of the one shipped with this package')
    .option('--expiry-budget-ms <ms>', 'longest wait for a task to expire (later: skipped)', '15000')
    .option('--json', 'print the report as JSON')
    .action(async (flags: TargetFlags & { only?: string[]; pack?: string; expiryBudgetMs: string; json?: boolean }) => {
      const budget = Number(flags.expiryBudgetMs);
      if (!Number.isInteger(budget) || budget < 0)
        throw new CommanderError(2, 'usage', '--expiry-budget-ms must be a non-negative integer');
      const report = await replayPack(toTarget(flags), {
        ...(flags.pack === undefined ? {} : { transcripts: loadPack(resolve(flags.pack)) }),
        ...(flags.only === undefined ? {} : { only: flags.only }),
        expiryBudgetMs: budget,
      });
      output.out(flags.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
      exit(report.summary.fail > 0 ? 1 : 0);
    });
  targetOptions(root.command('record').description('record the transcripts from a server known to be right'))
    .requiredOption('--out <dir>', 'the pack folder to write')
    .action(async (flags: TargetFlags & { out: string }) => {
      const transcripts = await recordPack(toTarget(flags));
      const dir = resolve(flags.out);
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of packFiles(transcripts)) writeFileSync(join(dir, name), text);
      output.out(`recorded ${transcripts.length} transcripts into ${dir}\n`);
      exit(0);
    });
  root
    .command('list')
    .description('list the scenarios and the tools each needs')
    .action(() => {
      for (const t of loadPack()) {
        output.out(`${t.scenario}: ${t.title}\n  ${t.description}\n`);
        for (const tool of t.tools) output.out(`  tool ${tool.name}: ${tool.behaviour}\n`);
      }
      exit(0);
    });
  return root;
}

/**
 * Runs the command line (without the node and script arguments) and resolves with the exit code: 0 when every
 * expectation passed or was skipped, 1 when one failed (or the run could not start), 2 for a usage error.
 */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<number> {
  let code = 0;
  try {
    await program(output, (c) => (code = c)).parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'usage') output.err(`mcp-tasks-transcripts: ${error.message} (see --help)\n`);
      return error.exitCode === 0 ? 0 : 2;
    }
    output.err(`mcp-tasks-transcripts: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
