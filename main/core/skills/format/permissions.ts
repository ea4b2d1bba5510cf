// A skill's permission request, read once — with its manifest, at parse time. The gate, the sandbox and the audit
// all use this one result. Fail closed: a request that cannot be read gives the skill nothing, never the defaults.
import type { SkillPolicy } from '../../policy/index.js';
import {
  defaultPermissions,
  permissionsFromFrontmatter,
  type ParsedPermissions,
  type Permissions,
} from '../../policy/index.js';
import type { SkillManifest } from './types.js';

/**
 * The one permission reader: `permissions:` and `allowed-tools` exactly as written in the frontmatter mapping (strict:
 * any problem rejects the whole request, with diagnostics naming file, line and field).
 */
export function readPermissionRequest(
  data: Record<string, unknown>,
  file: string,
  lineOf?: (path: (string | number)[]) => number | undefined,
): ParsedPermissions {
  return permissionsFromFrontmatter(data, file, lineOf);
}

/** What a skill whose request was rejected is held to: no tools, no network, no paths — not even its own folder. */
export function rejectedPermissions(): Permissions {
  return { ...defaultPermissions(), read: [], declared: 'permissions' };
}

/** The gate's view of a skill: its real folder and the permissions its manifest requested (nothing when rejected). */
export function skillPolicyOf(skill: {
  manifest: Pick<SkillManifest, 'name' | 'requested'>;
  realDir: string;
  tier?: string;
}): SkillPolicy {
  // `?.`: a manifest built without the reader (by hand) is held to nothing, like a rejected request.
  // The tier goes with it: rules made for a skill bind to tier + real folder, not the name.
  return {
    name: skill.manifest.name,
    dir: skill.realDir,
    permissions: skill.manifest.requested?.permissions ?? rejectedPermissions(),
    ...(skill.tier ? { tier: skill.tier } : {}),
  };
}
