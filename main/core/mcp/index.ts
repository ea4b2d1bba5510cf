// MCP connectors: config, connections, back-off, their tools in the registry.
// What other folders may import from core/mcp: nothing outside reaches past this file.
export { loadMcpConfig, workspaceMcpPath, type McpServerConfig } from './config.js';
export { type BackoffOptions, type ConnectionStatus } from './connection.js';
export { McpManager } from './manager.js';
export {
  McpEditError,
  checkMcpEntry,
  keepMcpTrust,
  listMcpEntries,
  mcpFileOf,
  mcpTrustKey,
  removeMcpEntry,
  setMcpEntryEnabled,
  trustMcpServer,
  trustedMcpServers,
  writeMcpEntry,
} from './edit.js';
export { MCP_EDIT_LOCK, withMcpEditLock } from './lock.js';
