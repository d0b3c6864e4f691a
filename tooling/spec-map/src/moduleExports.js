// The names a module exports by its own declarations and `export { ... }` lists, read with the TypeScript parser.
// The project forbids `export *`, so no resolution across files is needed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * @param {string} root repository root
 * @param {string} path module path relative to root
 * @returns {Set<string> | undefined} undefined when the file does not exist
 */
export function moduleExports(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  const source = ts.createSourceFile(path, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, false);
  /** @type {Set<string>} */
  const names = new Set();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) names.add(element.name.text);
      }
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}
