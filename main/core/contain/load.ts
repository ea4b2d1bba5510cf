// Loading the sandbox runtime a module at a time. Importing @anthropic-ai/sandbox-runtime compiles and runs its ~50
// modules and their dependencies (node-forge, commander, zod) on the event loop in one go: 340–500 ms under load, in
// which the window's messages and a streaming answer stand still. Here each dependency the runtime's own files name,
// and each of its modules (the ones its entry imports, leaves first), is loaded on its own turn of the event loop, so
// the longest hold is one module's; the import at the end finds them all loaded. Node 20 has no compile cache to
// lend (module.enableCompileCache is Node 22), and no thread can load modules for this one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** The relative modules a file imports statically (`import … from './x.js'`, `export … from`, `import './x.js'`). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\b[^;'"]*?(?:from\s*)?'(\.{1,2}\/[^']+)'/gm))
    out.push(resolve(dirname(file), m[1]!));
  return out;
}

/** The runtime's modules its entry reaches by static imports, each after those it imports. */
function moduleOrder(entry: string): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const f of importsOf(file)) visit(f);
    order.push(file);
  };
  visit(entry);
  return order;
}

/**
 * Load the runtime's CommonJS dependencies and its own modules one per turn of the event loop. Never throws: what it
 * could not load ahead is loaded by the import that follows (as before), and that import's error is the one reported.
 */
export async function loadGently(): Promise<void> {
  try {
    const entry = require.resolve('@anthropic-ai/sandbox-runtime');
    const runtime = createRequire(entry);
    // node-forge's entry only requires its parts: each part on its own turn (its entry then finds them loaded).
    const forge = runtime.resolve('node-forge');
    const forgeRequire = createRequire(forge);
    for (const m of readFileSync(forge, 'utf8').matchAll(/^require\('(\.\/[^']+)'\);?$/gm)) {
      forgeRequire(m[1]!);
      await turn();
    }
    runtime('commander');
    await turn();
    for (const file of moduleOrder(entry)) {
      await import(pathToFileURL(file).href);
      await turn();
    }
  } catch {
    // The plain import decides.
  }
}
