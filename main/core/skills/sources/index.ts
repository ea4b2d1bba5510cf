// core/skills/sources
// What other folders may import from core/skills/sources: nothing outside reaches past this file.
export { addCandidate, dropCandidate, holdCandidate, settleStaged, type AddResult } from './add.js';
export type { FetchOptions } from './fetch.js';
export type { GitWall } from './git.js';
export { lockPathFor, readLock, type LockEntry } from './lock.js';
export {
  addMarketplace,
  listMarketplaces,
  marketplaceEntries,
  marketplaceSettingsFile,
  removeMarketplace,
  searchEntries,
  type MarketEntry,
} from './marketplaces.js';
export { openSource, type Candidate, type OpenedSource } from './open.js';
export { parseSource, SourceError } from './spec.js';
export { applyUpdate, checkUpdates, syncLock, type UpdateCheck } from './update.js';
