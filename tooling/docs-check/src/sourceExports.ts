import ts from 'typescript';

/**
 * The exported names (values and types) of each entry file, as the TypeScript compiler resolves them: `export {}`
 * lists, `export type`, re-exports and declarations alike. One program for all files keeps it to one parse.
 */
export function sourceExports(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([...files], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const out = new Map<string, string[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (symbol === undefined) throw new Error(`cannot read the exports of ${file}`);
    out.set(
      file,
      checker
        .getExportsOfModule(symbol)
        .map((exported) => exported.getName())
        .sort(),
    );
  }
  return out;
}
