// test/run.js (unless KNACK_TEST_BUNDLE=0): the test files compiled by esbuild into one set of ES modules before the run, so
// each file's process loads a few shared chunks in plain node instead of ~300 TypeScript modules through tsx's loader
// thread. esbuild is already how tsx compiles each file; bundling with code splitting (packages stay in node_modules)
// keeps one copy of each source module per process, as tsx does. A source's own `import.meta.url`, `.dirname` and
// `.filename` are written in as its path in the repository, so fixtures, bin/knack.js, builtin-skills and the helper
// programs a test starts (`node --import tsx helper.ts`) are found where they are.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transformSync } from 'esbuild';

/** Compile FILES (relative to ROOT) into OUT, each as OUT/<file>.mjs; the chunks they share beside them. */
export async function bundleTests(root, files, out) {
  await build({
    entryPoints: files.map((f) => join(root, f)),
    outdir: out,
    outbase: root,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'error',
    plugins: [
      {
        name: 'source-paths',
        setup(b) {
          b.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, (args) => {
            if (args.path.includes('/node_modules/')) return undefined;
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes('import.meta')) return undefined;
            // esbuild's define replaces the expressions only (not a string or comment that spells them out).
            const { code } = transformSync(text, {
              loader: args.path.endsWith('.tsx') ? 'tsx' : args.path.endsWith('.ts') ? 'ts' : 'js',
              format: 'esm',
              target: 'node20',
              sourcefile: args.path,
              sourcemap: 'inline',
              define: {
                'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
                'import.meta.dirname': JSON.stringify(dirname(args.path)),
                'import.meta.filename': JSON.stringify(args.path),
              },
            });
            return { contents: code, loader: 'js' };
          });
        },
      },
    ],
  });
  return files.map((f) => join(out, f.replace(/\.[cm]?[jt]sx?$/, '.mjs')));
}
