// A catalog skill → what the sandbox needs: its real folder and the permissions its manifest requested (read once,
// at parse time: skills/format/permissions.ts). A skill whose request was rejected gets no scripts run at all.
import type { CatalogEntry, SkillManifest } from '../skills/format/index.js';
import { formatDiagnostic, type Diagnostic } from '../base/index.js';
import type { SkillPolicy } from '../policy/index.js';
import { SandboxError } from './protocol.js';

export function policyFromManifest(
  name: string,
  realDir: string,
  manifest: Pick<SkillManifest, 'requested'>,
): SkillPolicy {
  // Fail closed: a manifest that carries no read request (built by hand, or from an old cache) runs nothing.
  const { permissions, diagnostics } = manifest.requested ?? { diagnostics: [] };
  if (!permissions) throw badPermissions(name, diagnostics);
  return { name, dir: realDir, permissions };
}

export function policyFromEntry(e: CatalogEntry): SkillPolicy {
  return policyFromManifest(e.manifest.name, e.realDir, e.manifest);
}

function badPermissions(name: string, diags: Diagnostic[]): SandboxError {
  const lines = diags.map((d) => formatDiagnostic(d));
  return new SandboxError(
    'skill.bad_permissions',
    `skill "${name}" has a rejected permissions block, so its scripts do not run:\n  ${lines.join('\n  ')}`,
    { diagnostics: diags },
  );
}
