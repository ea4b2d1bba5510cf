// The layer table of main/: which folder may import which (one way, bottom to top), and the lint rule that holds it.
// A folder imports only from the folders it lists (and what those list, transitively); docs/architecture.md draws it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const mainDir = join(repoRoot, 'main');

/**
 * Each folder of main/ (a "unit", named by its path below main/) and the units right below it that it may use.
 * Bottom to top. `core` is the composition root: the files directly in main/core (workspace.ts, toolbox.ts); `core/service`
 * implements the contract (preload/contract.ts) over it for the transports (electron, serve).
 */
export const LAYERS = {
  'core/base': [],
  'core/config': ['core/base'],
  'core/store': ['core/base'],
  'core/search': ['core/base'],
  // The OS sandbox every program Knack starts runs in (the wall); the gate decides, this contains.
  'core/contain': ['core/base'],
  'core/policy': ['core/config', 'core/store'],
  'core/tools': ['core/policy', 'core/search', 'core/contain'],
  'core/skills/format': ['core/policy', 'core/search'],
  'core/skills/catalog': ['core/skills/format'],
  'core/skills/trust': ['core/skills/format'],
  'core/skills/sources': ['core/skills/trust'],
  'core/skills/use': ['core/skills/catalog', 'core/skills/trust', 'core/skills/sources', 'core/tools'],
  'core/mcp': ['core/tools'],
  'core/sandbox': ['core/tools', 'core/skills/format'],
  'core/agent': ['core/skills/use', 'core/mcp', 'core/sandbox'],
  core: ['core/agent'],
  // The contract's face on the core (main/core/service/): what Electron and serve mode bind.
  'core/service': ['core'],
  serve: ['core/service'],
  electron: ['core/service', 'serve'],
  cli: ['core', 'serve'],
};

/** Every unit `unit` may import: its own list, closed transitively. */
function allowedFrom(unit, layers = LAYERS) {
  const seen = new Set();
  const stack = [...(layers[unit] ?? [])];
  while (stack.length) {
    const u = stack.pop();
    if (seen.has(u)) continue;
    seen.add(u);
    stack.push(...(layers[u] ?? []));
  }
  return seen;
}

const hasOwnSources = new Map();
function ownSources(dir) {
  let v = hasOwnSources.get(dir);
  if (v === undefined) {
    try {
      v = readdirSync(dir).some((n) => /\.(ts|tsx)$/.test(n) && statSync(join(dir, n)).isFile());
    } catch {
      v = false;
    }
    hasOwnSources.set(dir, v);
  }
  return v;
}

/**
 * The unit a file under `root` (main/) belongs to: the folders directly in main/ and in main/core are units; so are the
 * parts of a folder that holds only parts (main/core/skills/format …). Any deeper folder belongs to its unit
 * (tools/builtin is part of tools). Files directly in main/core form the unit `core`. Undefined outside `root`.
 */
export function unitOf(file, root = mainDir) {
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) return undefined;
  const parts = rel.split(sep).slice(0, -1);
  if (parts.length === 0) return '';
  let unit = [parts[0]];
  let i = 1;
  if (parts[0] === 'core' && parts.length > 1) {
    unit = ['core', parts[1]];
    i = 2;
  }
  // A unit with no sources of its own is only a container of parts: descend.
  while (i < parts.length && !ownSources(join(root, ...unit))) unit.push(parts[i++]);
  return unit.join('/');
}

/** The file a relative import points to (for the layer check the extension does not matter). */
function resolveImport(fromFile, spec) {
  if (!spec.startsWith('.')) return undefined;
  return resolve(dirname(fromFile), spec);
}

/** Why `fromFile` may not import `spec`, or undefined when the layers allow it. */
export function layerViolation(fromFile, spec, root = mainDir, layers = LAYERS) {
  const target = resolveImport(fromFile, spec);
  if (!target) return undefined;
  const from = unitOf(fromFile, root);
  const to = unitOf(target, root);
  if (from === undefined || to === undefined || from === to) return undefined;
  if (!(from in layers))
    return `folder main/${from} is not in the layer table (eslint/layering.js): add it where it belongs`;
  if (!(to in layers))
    return `folder main/${to} is not in the layer table (eslint/layering.js): add it where it belongs`;
  if (!allowedFrom(from, layers).has(to))
    return `main/${from} may not import main/${to}: the layers are one way (eslint/layering.js, docs/architecture.md)`;
  // A core folder is used from outside only through its index.ts, which names what it offers.
  if (to.startsWith('core/') && target.replace(/\.(js|ts|tsx)$/, '') !== join(root, ...to.split('/'), 'index'))
    return `main/${from} may import main/${to} only through main/${to}/index.ts, not ${spec}`;
  return undefined;
}

const inside = (dir, file) => {
  const rel = relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel);
};

/** Why a file of renderer/ or preload/ may not import `spec`, or undefined when it may. */
function clientViolation(fromFile, spec, root = repoRoot) {
  const renderer = join(root, 'renderer');
  const preload = join(root, 'preload');
  const inRenderer = inside(renderer, fromFile);
  const inPreload = inside(preload, fromFile);
  if (!inRenderer && !inPreload) return undefined;
  if (!spec.startsWith('.')) {
    if (inRenderer && (spec.startsWith('node:') || spec === 'electron' || spec.startsWith('electron/')))
      return `renderer/ never imports Node or Electron (${spec}): it reaches main only through preload/contract.ts`;
    return undefined;
  }
  const target = resolve(dirname(fromFile), spec).replace(/\.(js|ts|tsx)$/, '');
  if (inRenderer) {
    if (inside(renderer, target)) return undefined;
    if (['preload/contract', 'preload/client'].some((p) => target === join(root, p))) return undefined;
    return `renderer/ imports only its own files, preload/contract.ts and preload/client.ts, not ${spec}`;
  }
  if (inside(preload, target)) return undefined;
  return `preload/ imports only its own files, not ${spec}: the contract depends on nothing in main/ or renderer/`;
}

/** ESLint rule `knack/layers`: every relative import (static, dynamic, re-export) must respect the layer table. */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'main/ folders import only layers below, core folders through index.ts; renderer/ only the contract',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    if (!existsSync(file)) return {};
    const check = (node, source) => {
      if (!source || typeof source.value !== 'string') return;
      const why = layerViolation(file, source.value) ?? clientViolation(file, source.value);
      if (why) context.report({ node, message: why });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source?.type === 'Literal' ? n.source : undefined),
    };
  },
};

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** Every relative import between units below `root`: Map from unit to Map of unit to the `file → import` lines behind it. */
export function unitGraph(root = mainDir) {
  const graph = new Map();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx)$/.test(e.name)) {
        const from = unitOf(p, root);
        if (!graph.has(from)) graph.set(from, new Map());
        const text = readFileSyncUtf8(p);
        for (const m of text.matchAll(IMPORT_RE)) {
          const to = unitOf(resolve(dirname(p), m[1]), root);
          if (to === undefined || to === from) continue;
          const edges = graph.get(from);
          if (!edges.has(to)) edges.set(to, []);
          edges.get(to).push(`${relative(root, p).split(sep).join('/')} → ${m[1]}`);
        }
      }
    }
  };
  walk(root);
  return graph;
}

/** The import loops of a unit graph: strongly connected groups of two or more units (Tarjan), each sorted. */
export function importLoops(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const loops = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) loops.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return loops;
}

function readFileSyncUtf8(p) {
  return readFileSync(p, 'utf8');
}
