// How a file's lines are read (Markdown, shell, script) is decided from its name as the path module would split it:
// the auditor's own name and extension reading gives the same kind as path.basename and path.extname on every name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename, extname } from 'node:path';
import { baseName, extOf, kindOf } from '../../../main/core/skills/trust/audit.js';

/** The kind as read through the path module (the auditor's reading before it split names itself). */
function kindByPath(rel: string, text: string): string {
  const ext = extname(rel).toLowerCase();
  if (
    ['.md', '.markdown', '.mdx', '.txt', '.rst'].includes(ext) ||
    /^(readme|license|licence|changelog|notice|authors)$/i.test(basename(rel))
  )
    return 'markdown';
  if (['.sh', '.bash', '.zsh', '.ksh', '.fish', '.ps1', '.bat', '.cmd', '.command'].includes(ext)) return 'shell';
  if (
    text.charCodeAt(0) === 0x23 &&
    text.charCodeAt(1) === 0x21 &&
    /^#!.*\b(?:ba|z|da|k|fi)?sh\b/.test(text.slice(0, 200))
  )
    return 'shell';
  return 'script';
}

test('every name up to five characters of dots, letters, slashes and backslashes reads as the path module reads it', () => {
  const alphabet = ['.', 'm', 'd', 's', 'h', 'M', '/', '\\'];
  let names = [''];
  let n = 0;
  for (let len = 1; len <= 5; len++) {
    names = names.flatMap((p) => alphabet.map((c) => p + c));
    for (const name of names) {
      // A listed file's path never starts or ends with a slash.
      if (name.startsWith('/') || name.endsWith('/')) continue;
      assert.equal(baseName(name), basename(name), JSON.stringify(name));
      assert.equal(extOf(baseName(name)), extname(name), JSON.stringify(name));
      for (const text of ['', '#!/bin/sh\necho', 'print(1)']) {
        assert.equal(kindOf(name, text), kindByPath(name, text), JSON.stringify(name));
        n++;
      }
    }
  }
  assert.ok(n > 50_000, `${n} names`);
});

test('names from real skill folders', () => {
  const names = [
    'SKILL.md',
    'references/guide.md',
    'scripts/run.sh',
    'scripts/tool.py',
    'README',
    'docs/LICENSE',
    'a/.md',
    'a/..',
    'a/...',
    'x/CHANGELOG.MD',
    'scripts/setup.PS1',
    'a.b/c',
    'dir.md/file',
    '.bashrc',
    'notes.',
    'x/authors',
    'Makefile',
    'scripts/install.command',
  ];
  for (const name of names)
    for (const text of ['', '#!/usr/bin/env bash\n']) assert.equal(kindOf(name, text), kindByPath(name, text), name);
});
