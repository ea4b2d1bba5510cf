// The one tool pipeline: registry, validation, executor, deferral and ToolSearch, built-in tools.
// What other folders may import from core/tools: nothing outside reaches past this file.
export {
  askApproval,
  type ApprovalAnswer,
  type ApprovalReply,
  type ApprovalRequest,
  type Approver,
} from './approval.js';
export { builtinTools } from './builtin/index.js';
export {
  mcpResourceTools,
  type McpResourceContent,
  type McpResourceInfo,
  type McpResourceProvider,
} from './builtin/mcp-resources.js';
export { webFetchTool } from './builtin/web-fetch.js';
export { walkFiles } from './builtin/walk.js';
export { readCatalogFile, type ImportedCatalog } from './catalog-import.js';
export { bindDeferredIndex } from './deferred-index.js';
export { defineTool } from './define.js';
export { ok, toolError } from './errors.js';
export { ToolExecutor, type ExecutorOptions } from './executor.js';
export { deferExecuteTool, toolSearchTool } from './meta-tools.js';
export { mcpToolName } from './names.js';
export { overlayRegistry } from './overlay.js';
export { renderToolSection, toolSectionCost, type PromptTool, type ToolSectionCost } from './prompt-cost.js';
export { endLeftoverGroup, type ProcessGroupRecord } from './process-group.js';
export { ToolRegistry, type AnyTool, type RegisteredTool, type ToolSource } from './registry.js';
export { HardLinkError, openReal, PathChangedError, readAll, writeReal, type OpenedFile } from './safe-fs.js';
export { summarize } from './search-doc.js';
export { ToolSession } from './session.js';
export { type ToolSearchIndex } from './tool-search.js';
export { type JsonSchema, type ToolContext, type ToolDefinition, type ToolResult } from './types.js';
