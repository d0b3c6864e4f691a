/**
 * Task ids are random and about one in 64 starts with `-`, which an option parser takes for an unknown option
 * (`status -wX…` → "unknown option '-wX…'"). This module finds the operand slot of a subcommand and, when the word
 * there starts with `-` but is none of the command's own options, moves it behind `--` so it is parsed as the
 * operand it is.
 */
import type { Command } from 'commander';

/** argv with a dash-leading operand of `argv[0]`'s subcommand moved behind `--`; otherwise argv unchanged. */
export function guardOperand(program: Command, argv: readonly string[]): string[] {
  const words = [...argv];
  const [name] = words;
  const sub = program.commands.find((c) => c.name() === name);
  if (sub === undefined || sub.registeredArguments.length === 0) return words;
  const takesValue = new Map<string, boolean>();
  for (const option of sub.options) {
    for (const flag of [option.long, option.short]) if (flag) takesValue.set(flag, option.required || option.optional);
  }
  for (const flag of ['-h', '--help']) takesValue.set(flag, false);
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? '';
    if (word === '--') return words;
    const flag = word.startsWith('--') ? word.split('=')[0] : word;
    if (flag !== undefined && takesValue.has(flag)) {
      if (takesValue.get(flag) && !word.includes('=')) i++;
      continue;
    }
    // The first word that is not one of our options fills the operand slot.
    if (!word.startsWith('-')) return words;
    words.splice(i, 1);
    return [...words, '--', word];
  }
  return words;
}
