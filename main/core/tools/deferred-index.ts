// Keeps a ToolSearchIndex in step with the registry: every deferred tool is indexed while it is registered,
// so a connector's tools appear when it connects and disappear from search as soon as it goes down.
import { ToolSearchIndex, type ToolSearchOptions } from './tool-search.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import type { SearchableTool } from './search-doc.js';

function searchable(t: RegisteredTool): SearchableTool {
  return { name: t.def.name, summary: t.def.summary, description: t.def.description, inputSchema: t.def.inputSchema };
}

/** Index the registry's deferred tools and follow its changes. Call `close()` to stop following. */
export function bindDeferredIndex(
  registry: ToolRegistry,
  opts: ToolSearchOptions = {},
): { index: ToolSearchIndex; close: () => void } {
  const index = new ToolSearchIndex(opts);
  index.addAll(registry.list({ deferred: true }).map(searchable));
  const close = registry.subscribe((e) => {
    if (e.kind === 'add') {
      if (e.tool.deferred) index.addAll([searchable(e.tool)]);
    } else {
      index.remove(e.name);
    }
  });
  return { index, close };
}
