// Using skills in a conversation: matcher, loader, SkillSearch, skill tools, prompt catalog.
// What other folders may import from core/skills/use: nothing outside reaches past this file.
export { CatalogGate } from './catalog-gate.js';
export { listResources, SkillLoader } from './loader.js';
export { describeOver, describeReason, matchWords, SkillMatcher } from './matcher.js';
export { buildPromptCatalog, escapePrompt, type PromptCatalog } from './prompt-catalog.js';
export { WorkspaceSession } from './session.js';
export { SkillSearch } from './skill-search.js';
export { skillTools } from './skill-tools.js';
export { createMarketplaceTool, proposalIn } from './marketplace-tool.js';
export { createNameProblems, renderSkillMd, withAgentCreated } from './create.js';
