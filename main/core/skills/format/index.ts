// One SKILL.md → frontmatter → manifest and its permission request.
// What other folders may import from core/skills/format: nothing outside reaches past this file.
export { frontmatterFacts, type FrontmatterFacts } from './frontmatter-facts.js';
export { readSkillBody, splitFrontmatter, yamlLib } from './frontmatter.js';
export {
  DESCRIPTION_MAX,
  folderMismatch,
  invocableName,
  nameProblems,
  parseFoundSkill,
  parseSkillFile,
  parseSkillText,
  slugify,
} from './manifest.js';
export { readPermissionRequest, rejectedPermissions, skillPolicyOf } from './permissions.js';
export { readFrontmatterText, skillFileIn } from './skill-frontmatter.js';
export {
  parsedManifestOf,
  TIER_RANK,
  type CatalogEntry,
  type ParsedManifest,
  type SkillManifest,
  type Tier,
  type TrustHold,
} from './types.js';
