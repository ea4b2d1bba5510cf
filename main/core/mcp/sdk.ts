// The MCP SDK, imported on the first connection: loading it takes a few hundred ms, and most runs of the app and
// of `knack` never start an MCP server. One module instance for the process (its classes are compared by identity).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  getDefaultEnvironment: typeof getDefaultEnvironment;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
}

let sdk: McpSdk | undefined;
let loading: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(
    ([c, stdio, http, types]) =>
      (sdk = {
        Client: c.Client,
        StdioClientTransport: stdio.StdioClientTransport,
        getDefaultEnvironment: stdio.getDefaultEnvironment,
        StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
        ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
      }),
    (e: unknown) => {
      // Not kept: the next connection attempt tries again.
      loading = undefined;
      throw e;
    },
  );
  return loading;
}

/** The SDK when a connection has loaded it (nothing made with it can exist before that). */
export function loadedMcpSdk(): McpSdk | undefined {
  return sdk;
}
