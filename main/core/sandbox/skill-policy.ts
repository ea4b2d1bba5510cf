// A catalog skill → what the sandbox and gate need: its real folder and its reviewed permissions.
// A skill whose permission block is rejected gets no scripts run at all (the diagnostics say why).
import type { CatalogEntry, SkillManifest } from '../skills/format/types.js';
import type { Diagnostic } from '../base/diagnostics.js';
import type { SkillPolicy } from '../policy/gate.js';
import { parsePermissions } from '../policy/permissions.js';
import { SandboxError } from './protocol.js';

export function policyFromManifest(name: string, realDir: string, manifest: SkillManifest, file: string): SkillPolicy {
  const parsed = parsePermissions({
    file,
    ...(manifest.permissions ? { permissions: manifest.permissions.raw } : {}),
    ...(manifest.allowedTools.length ? { allowedTools: manifest.allowedTools } : {}),
  });
  if (!parsed.permissions) throw badPermissions(name, parsed.diagnostics);
  return { name, dir: realDir, permissions: parsed.permissions };
}

export function policyFromEntry(e: CatalogEntry): SkillPolicy {
  return policyFromManifest(e.manifest.name, e.realDir, e.manifest, e.file);
}

function badPermissions(name: string, diags: Diagnostic[]): SandboxError {
  const lines = diags.map((d) => `${d.file}${d.line ? `:${d.line}` : ''}: ${d.field ? `${d.field}: ` : ''}${d.message}`);
  return new SandboxError('skill.bad_permissions', `skill "${name}" has a rejected permissions block, so its scripts do not run:\n  ${lines.join('\n  ')}`, { diagnostics: diags });
}
