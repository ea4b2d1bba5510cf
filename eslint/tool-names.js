// Lint rule `knack/tool-names`: Knack's tool names are written once, in main/core/policy/tool-table.ts; elsewhere code
// says `TOOL.read_file` (or reads the table's roles), so a renamed or new tool cannot be missed by the gate's lists.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './layering.js';

export const TABLE_FILE = join(repoRoot, 'main', 'core', 'policy', 'tool-table.ts');

let cached;
/** The keys of `export const TOOLS = { … }` in the table file, read with the TypeScript parser. */
export function tableToolNames(file = TABLE_FILE) {
  if (cached && cached.file === file) return cached.names;
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set();
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(src) === 'TOOLS' && node.initializer) {
      let init = node.initializer;
      while (ts.isSatisfiesExpression?.(init) || ts.isAsExpression(init) || ts.isParenthesizedExpression(init))
        init = init.expression;
      if (ts.isObjectLiteralExpression(init)) {
        for (const p of init.properties) if (p.name) names.add(p.name.getText(src).replace(/^['"]|['"]$/g, ''));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  cached = { file, names };
  return names;
}

/**
 * A list that also holds words that are not tool names is a list of something else: program names (`bash`, `grep`
 * in the command rules), subcommands (`deno task`). Only a literal standing for a tool is reported.
 */
function inForeignList(node, names) {
  const list = node.parent;
  if (!list || list.type !== 'ArrayExpression') return false;
  return list.elements.some((e) => e && e.type === 'Literal' && typeof e.value === 'string' && !names.has(e.value));
}

export const toolNamesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'tool names come from the one table (main/core/policy/tool-table.ts), not string literals' },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    if (file === TABLE_FILE) return {};
    const names = tableToolNames();
    const report = (node, value) =>
      context.report({
        node,
        message: `tool name "${value}" spelled out: use TOOL.${value} or the table's roles (main/core/policy/tool-table.ts)`,
      });
    return {
      Literal(node) {
        if (typeof node.value !== 'string' || !names.has(node.value)) return;
        // import/export sources and object keys are not tool names in code.
        const p = node.parent;
        if (
          p &&
          (p.type === 'ImportDeclaration' || p.type === 'ExportNamedDeclaration' || p.type === 'ExportAllDeclaration')
        )
          return;
        if (p && p.type === 'Property' && p.key === node && !p.computed) return;
        if (p && p.type === 'TSLiteralType') return;
        if (inForeignList(node, names)) return;
        report(node, node.value);
      },
      TemplateLiteral(node) {
        if (node.expressions.length !== 0 || node.quasis.length !== 1) return;
        const value = node.quasis[0].value.cooked;
        if (names.has(value)) report(node, value);
      },
    };
  },
};
