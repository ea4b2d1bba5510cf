// Packaging without the real Electron: electron-builder.yml validates against the schema shipped inside the installed
// electron-builder; the afterPack hook flips the fuses on a binary carrying Electron's fuse wire; and a real
// electron-builder run over a stub Electron distribution packs an app.asar whose contents we check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accessSync,
  chmodSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { builtinModules, createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { Ajv } from 'ajv';
import { tempDir } from '../../helpers/tmp.js';

const root = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);
const configOf = () => parseYaml(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

function validator() {
  const schemaFile = join(
    require.resolve('app-builder-lib/package.json', { paths: [require.resolve('electron-builder')] }),
    '..',
    'scheme.json',
  );
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
}

/** A file that is not Electron but carries its fuse wire (sentinel, version 1, 8 fuses) the way the real binary does. */
function stubElectron(file: string): void {
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('#!/bin/sh\necho stub\n'),
      Buffer.alloc(32),
      Buffer.from(SENTINEL),
      Buffer.from([1, 8]),
      Buffer.from('10110110'),
      Buffer.alloc(32),
    ]),
  );
  chmodSync(file, 0o755);
}

function fuseWire(file: string): string {
  const buf = readFileSync(file);
  const at = buf.indexOf(SENTINEL) + SENTINEL.length;
  return buf.subarray(at + 2, at + 2 + buf[at + 1]!).toString('latin1');
}

test('electron-builder.yml validates against the schema inside the installed electron-builder, and a broken one does not', () => {
  const validate = validator();
  const config = configOf();
  assert.equal(validate(config), true, JSON.stringify(validate.errors, null, 1));
  assert.equal(validate({ ...config, asar: 'yes please' }), false);
  assert.equal(validate({ ...config, linux: { target: 42 } }), false);
});

test('the packaging config ships compiled code only, unpacks native modules, carries the built-in skills and every target', () => {
  const c = configOf() as {
    appId: string;
    productName: string;
    files: string[];
    asarUnpack: string[];
    extraResources: { from: string; to: string }[];
    afterPack: string;
    mac: { target: string[]; icon: string };
    win: { target: string[] };
    linux: { target: string[] };
    npmRebuild: boolean;
  };
  assert.equal(c.appId, 'dev.knack.app');
  assert.equal(c.productName, 'Knack');
  assert.ok(c.files.includes('!dist/**/*.map'));
  assert.ok(
    c.asarUnpack.some((g) => g.includes('better-sqlite3')) && c.asarUnpack.some((g) => g.includes('isolated-vm')),
  );
  assert.equal(c.npmRebuild, true);
  assert.deepEqual(
    c.extraResources.map((r) => [r.from, r.to]),
    [
      ['builtin-skills', 'builtin-skills'],
      ['main/core/contain/knack-socat', 'knack-socat'],
    ],
  );
  assert.ok(existsSync(join(root, c.afterPack)));
  assert.ok(existsSync(join(root, c.mac.icon)));
  assert.deepEqual([c.mac.target, c.win.target, c.linux.target], [['dmg', 'zip'], ['nsis'], ['AppImage', 'deb']]);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    main: string;
    dependencies: Record<string, string>;
  };
  assert.equal(pkg.main, 'dist/main/electron/main.js');
  assert.equal(pkg.dependencies.electron, undefined, 'electron must be a devDependency, never shipped inside the app');
});

test('the afterPack hook flips the fuses: no RunAsNode, NODE_OPTIONS or --inspect; cookie encryption, asar integrity, asar only', async () => {
  const dir = tempDir();
  const bin = join(dir, 'knack');
  stubElectron(bin);
  assert.equal(fuseWire(bin), '10110110');
  const { default: afterPack } = (await import('../../../packaging/after-pack.mjs')) as {
    default: (ctx: unknown) => Promise<void>;
  };
  await afterPack({
    appOutDir: dir,
    electronPlatformName: 'linux',
    packager: { appInfo: { productFilename: 'Knack' }, executableName: 'knack' },
  });
  // Order: RunAsNode, CookieEncryption, NODE_OPTIONS, --inspect, AsarIntegrity, OnlyLoadFromAsar, V8 snapshot, file: privileges.
  assert.equal(fuseWire(bin), '01001100');
});

function ensureBuilt(): void {
  const need = [
    'dist/main/electron/main.js',
    'dist/main/electron/host.js',
    'dist/preload/index.cjs',
    'dist/renderer/index.html',
    'dist/icon.png',
  ];
  if (need.every((f) => existsSync(join(root, f)))) return;
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  assert.equal(r.status, 0, 'npm run build failed');
}

test('electron-builder packs dist into app.asar over a stub Electron: compiled code, no sources or tsx, natives unpacked, fuses flipped', async () => {
  ensureBuilt();
  const work = tempDir();
  const dist = join(work, 'electron-dist');
  mkdirSync(dist);
  stubElectron(join(dist, 'electron'));
  copyFileSync(join(root, 'LICENSE'), join(dist, 'LICENSE'));
  const out = join(work, 'out');
  // The real config, packing less: of the dependencies only their package.json, except the three with native code
  // (unpacked whole) and ws, whose code stands for all of them. The dictionaries and SDKs (~150 MB, thousands of files)
  // made this the slowest test of the suite while checking nothing the package.json of each does not. Put before the
  // config's own node_modules patterns, which come later and so still decide (electron-builder: the last match wins).
  const config = configOf() as { files: string[] };
  const kept = ['better-sqlite3', 'isolated-vm', '@anthropic-ai/sandbox-runtime', 'ws'];
  const at = config.files.findIndex((f) => f.includes('node_modules'));
  assert.ok(at > 0, 'electron-builder.yml has node_modules patterns');
  config.files.splice(
    at,
    0,
    '!**/node_modules/**',
    '**/node_modules/*/package.json',
    '**/node_modules/@*/*/package.json',
    `**/node_modules/{${kept.join(',')}}/**`,
  );
  const configFile = join(work, 'electron-builder.json');
  writeFileSync(configFile, JSON.stringify(config));
  const cli = require.resolve('electron-builder/cli.js');
  const r = spawnSync(
    process.execPath,
    [
      cli,
      '--linux',
      'dir',
      '--config',
      configFile,
      `-c.electronDist=${dist}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${out}`,
    ],
    { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_BUILDER_CACHE: join(work, 'cache') } },
  );
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  const app = join(out, 'linux-unpacked');
  const asar = require('@electron/asar') as {
    listPackage(p: string, o: object): string[];
    extractFile(p: string, f: string): Buffer;
  };
  const archive = join(app, 'resources', 'app.asar');
  const files = asar.listPackage(archive, {}).map((f) => f.replace(/\\/g, '/'));
  for (const f of [
    '/package.json',
    '/dist/package.json',
    '/dist/main/electron/main.js',
    '/dist/main/electron/host.js',
    '/dist/preload/index.cjs',
    '/dist/renderer/index.html',
    '/dist/icon.png',
  ]) {
    assert.ok(files.includes(f), `${f} in app.asar`);
  }
  const own = files.filter((f) => !f.startsWith('/node_modules/'));
  assert.deepEqual(
    own.filter((f) => /\.(ts|tsx|map)$/.test(f)),
    [],
    'no TypeScript sources or source maps',
  );
  // Only what the build makes: a stray file under dist/ (a profile, an experiment) is not shipped.
  assert.deepEqual(
    own.filter(
      (f) =>
        f.startsWith('/dist/') && !/^\/dist\/(?:(?:main|preload|renderer)(?:\/|$)|icon\.png$|package\.json$)/.test(f),
    ),
    [],
    'only build outputs from dist/',
  );
  assert.ok(
    !own.some((f) => f.startsWith('/main/') || f.startsWith('/test/') || f.startsWith('/renderer/')),
    'no source folders',
  );
  assert.ok(
    !files.some((f) => f.startsWith('/node_modules/tsx/') || f.startsWith('/node_modules/esbuild/')),
    'no tsx or esbuild at run time',
  );
  const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as {
    main: string;
    dependencies: Record<string, string>;
  };
  for (const dep of Object.keys(pkg.dependencies).filter((d) => d !== 'tsx'))
    assert.ok(files.includes(`/node_modules/${dep}/package.json`), `runtime dependency ${dep} is packed`);
  const ws = JSON.parse(asar.extractFile(archive, 'node_modules/ws/package.json').toString()) as { main: string };
  assert.ok(files.includes(join('/node_modules/ws', ws.main)), 'a runtime dependency is packed with its code');
  assert.ok(files.includes(`/${pkg.main}`), 'package.json main points into the archive');
  const unpacked = join(app, 'resources', 'app.asar.unpacked', 'node_modules');
  // Native modules, and the sandbox runtime, whose vendored seccomp helpers must run from disk.
  assert.deepEqual(readdirSync(unpacked).sort(), ['@anthropic-ai', 'better-sqlite3', 'isolated-vm']);
  assert.ok(existsSync(join(app, 'resources', 'builtin-skills', 'git-commit', 'SKILL.md')));
  // The sandbox's bridges start through it (wall.ts): a file on disk that can be run, not an entry of the archive.
  accessSync(join(app, 'resources', 'knack-socat'), constants.X_OK);
  assert.equal(fuseWire(join(app, 'knack')), '01001100');
});

test('the built main process imports only Node built-ins, electron and runtime dependencies: no tsx, no TypeScript', () => {
  ensureBuilt();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const allowed = new Set(['electron', ...Object.keys(pkg.dependencies).filter((d) => d !== 'tsx')]);
  for (const file of ['dist/main/electron/main.js', 'dist/main/electron/host.js']) {
    const code = readFileSync(join(root, file), 'utf8');
    const specs = [
      ...code.matchAll(
        /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)/gm,
      ),
    ].map((m) => m[1] ?? m[2] ?? m[3]!);
    assert.ok(specs.length > 0, `${file} has imports`);
    for (const s of specs) {
      if (s.startsWith('node:')) continue;
      const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!;
      assert.ok(allowed.has(name) || builtinModules.includes(s), `${file} imports ${s}`);
      assert.doesNotMatch(s, /\.tsx?$/, `${file} imports TypeScript (${s})`);
    }
  }
  const preload = readFileSync(join(root, 'dist/preload/index.cjs'), 'utf8');
  const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
  assert.deepEqual([...new Set(required)], ['electron'], 'a sandboxed preload may require electron only');
});
