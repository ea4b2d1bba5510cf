// The built-in tool set: workspace file tools and bash always; web_fetch only when the ceiling allows network;
// the MCP resource tools when a connector manager is present. Deferred ones are marked by their definitions.
import type { AnyTool } from '../registry.js';
import { createBashTool } from './bash.js';
import type { Wall } from '../../contain/index.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { mcpResourceTools, type McpResourceProvider } from './mcp-resources.js';
import { readFileTool } from './read-file.js';
import { webFetchTool } from './web-fetch.js';
import { writeFileTool } from './write-file.js';

export interface BuiltinOptions {
  /** The ceiling allows network: web_fetch is offered. */
  network: boolean;
  mcp?: McpResourceProvider;
  /** The workspace's OS sandbox: bash runs inside it. */
  wall?: Promise<Wall>;
}

export function builtinTools(opts: BuiltinOptions): AnyTool[] {
  const tools: AnyTool[] = [
    readFileTool,
    writeFileTool,
    editFileTool,
    listDirTool,
    globTool,
    grepTool,
    createBashTool(opts.wall),
  ];
  if (opts.network) tools.push(webFetchTool);
  if (opts.mcp) tools.push(...mcpResourceTools(opts.mcp));
  return tools;
}
