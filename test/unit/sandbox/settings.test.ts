import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSettings, DEFAULT_SETTINGS } from '../../../main/core/config/settings.js';
import { limitsFromSettings, runLimits } from '../../../main/core/sandbox/limits.js';
import { tempDir } from '../../helpers/tmp.js';

test('every sandbox limit has a default in settings', () => {
  const l = limitsFromSettings(DEFAULT_SETTINGS.sandbox);
  // mode is the OS sandbox's setting (sandbox.mode), not a limit of the script sandbox.
  const { mode: _mode, ...limits } = DEFAULT_SETTINGS.sandbox;
  assert.deepEqual(l, limits);
});

test('sandbox limits come from the workspace settings file, and wrong types are reported, not applied', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'ws', '.workbuddy'), { recursive: true });
  writeFileSync(
    join(dir, 'ws', '.workbuddy', 'settings.json'),
    JSON.stringify({ sandbox: { timeoutMs: 20_000, memoryMb: 'lots' } }),
  );
  const { settings, diagnostics } = loadSettings(join(dir, 'data'), join(dir, 'ws'));
  assert.equal(settings.sandbox.timeoutMs, 20_000);
  assert.equal(settings.sandbox.memoryMb, DEFAULT_SETTINGS.sandbox.memoryMb);
  assert.ok(diagnostics.some((d) => d.field === 'sandbox.memoryMb'));
});

test('out-of-range limits are clamped into sane bounds', () => {
  const l = limitsFromSettings({
    ...DEFAULT_SETTINGS.sandbox,
    memoryMb: 1,
    timeoutMs: -5,
    maxConcurrent: 10_000,
    heartbeatMs: 1_000,
    heartbeatTimeoutMs: 100,
  });
  assert.equal(l.memoryMb, 8);
  assert.equal(l.timeoutMs, 10);
  assert.equal(l.maxConcurrent, 256);
  assert.ok(
    l.heartbeatTimeoutMs >= 3 * l.heartbeatMs,
    'a heartbeat timeout shorter than three beats would kill healthy hosts',
  );
});

test('a per-run --timeout lifts the CPU budget with it unless that is given too', () => {
  const base = limitsFromSettings(DEFAULT_SETTINGS.sandbox);
  assert.equal(runLimits(base, { timeoutMs: 30_000 }).cpuTimeMs, 30_000);
  assert.equal(runLimits(base, { timeoutMs: 30_000, cpuTimeMs: 100 }).cpuTimeMs, 100);
  assert.equal(runLimits(base, {}).timeoutMs, base.timeoutMs);
});
