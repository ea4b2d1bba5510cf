// Finding skills in the tiers, the merged catalog (cache, watcher) and lint.
// What other folders may import from core/skills/catalog: nothing outside reaches past this file.
export { openCatalog, type Catalog, type CatalogChange } from './catalog.js';
export { lintCatalog, lintPaths, type LintReport } from './lint.js';
export { watchCatalog, type CatalogWatcher, type WatchOptions } from './watch.js';
