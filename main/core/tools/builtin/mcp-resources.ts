// ListMcpResources / ReadMcpResource (deferred): the connectors' resources (files, records, docs a server
// exposes), listed across connected servers and read by server + URI. Backed by any McpResourceProvider.
import { ok, toolError } from '../errors.js';
import { z } from 'zod';
import { defineTool } from '../define.js';
import { TOOL, TOOLS } from '../../policy/index.js';

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64 for binary content. */
  blob?: string;
}

/** What the resource tools need from the MCP manager. */
export interface McpResourceProvider {
  /** Connected servers' names. */
  connectedServers(): string[];
  listResources(
    server?: string,
  ): Promise<{ resources: McpResourceInfo[]; errors: { server: string; message: string }[] }>;
  readResource(server: string, uri: string): Promise<McpResourceContent[]>;
}

function listMcpResourcesTool(provider: McpResourceProvider) {
  return defineTool({
    name: TOOL.ListMcpResources,
    summary: 'List the resources (documents, files, records) that connected MCP servers expose.',
    description:
      'List resources offered by connected MCP servers (connectors): server, URI, name, description and MIME type. Give server to list one server only.',
    input: z.strictObject({ server: z.string().optional().describe('Only this server') }),
    deferLoading: true,
    risk: TOOLS.ListMcpResources.access,
    access: () => ({}),
    async handler(a) {
      if (a.server && !provider.connectedServers().includes(a.server)) {
        return toolError(
          'tool.unavailable',
          `MCP server "${a.server}" is not connected (connected: ${provider.connectedServers().join(', ') || 'none'})`,
        );
      }
      const r = await provider.listResources(a.server);
      return ok(r.errors.length ? r : { resources: r.resources });
    },
  });
}

function readMcpResourceTool(provider: McpResourceProvider) {
  return defineTool({
    name: TOOL.ReadMcpResource,
    summary: 'Read one resource from a connected MCP server by its URI.',
    description:
      'Read a resource that an MCP server (connector) exposes, by server name and URI (from ListMcpResources). Returns text, or base64 for binary content.',
    input: z.strictObject({
      server: z.string().min(1).describe('MCP server name'),
      uri: z.string().min(1).describe('Resource URI'),
    }),
    deferLoading: true,
    risk: TOOLS.ReadMcpResource.access,
    access: () => ({}),
    async handler(a) {
      if (!provider.connectedServers().includes(a.server)) {
        return toolError('tool.unavailable', `MCP server "${a.server}" is not connected`);
      }
      try {
        return ok({ contents: await provider.readResource(a.server, a.uri) });
      } catch (e) {
        return toolError('tool.failed', `reading ${a.uri} from ${a.server} failed: ${(e as Error).message}`);
      }
    },
  });
}

/** Both resource tools over one provider (the MCP manager). */
export function mcpResourceTools(provider: McpResourceProvider) {
  return [listMcpResourcesTool(provider), readMcpResourceTool(provider)];
}
