// How to start a worker thread from a module's sibling entry file: the built `.js` directly; from a TypeScript checkout,
// the entry bundled once per process with esbuild (starts in ~30 ms, against ~300 ms through the tsx loader), else tsx.
import { fileURLToPath } from 'node:url';

export type WorkerSpec = { code: string } | { url: URL; execArgv: string[] };

const specs = new Map<string, Promise<WorkerSpec>>();

/** `from` is the caller's `import.meta.url`; `name` the entry's file name without extension (e.g. `parse-worker`). */
export function workerSpec(from: string, name: string): Promise<WorkerSpec> {
  if (!from.endsWith('.ts')) return Promise.resolve({ url: new URL(`./${name}.js`, from), execArgv: [] });
  const tsUrl = new URL(`./${name}.ts`, from);
  let spec = specs.get(tsUrl.href);
  if (!spec) {
    spec = (async (): Promise<WorkerSpec> => {
      try {
        const esbuild = await import('esbuild');
        // CommonJS output has no import.meta: its url is the entry's, so a module's createRequire (base/lazy-require.ts)
        // resolves packages from the checkout, as it does unbundled.
        const out = await esbuild.build({
          entryPoints: [fileURLToPath(tsUrl)],
          bundle: true,
          format: 'cjs',
          platform: 'node',
          // ESM entries first: a UMD main (jsonc-parser's) requires its own files through a wrapper esbuild cannot
          // follow, and the bundle evaluated in the worker has no folder to find them from.
          mainFields: ['module', 'main'],
          target: 'node20',
          write: false,
          logLevel: 'silent',
          define: { 'import.meta.url': JSON.stringify(tsUrl.href) },
        });
        return { code: out.outputFiles[0]!.text };
      } catch {
        return { url: tsUrl, execArgv: ['--import', import.meta.resolve('tsx')] };
      }
    })();
    specs.set(tsUrl.href, spec);
  }
  return spec;
}
