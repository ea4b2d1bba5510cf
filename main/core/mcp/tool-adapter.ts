// An MCP server's tool as a Knack tool: namespaced `mcp__<server>__<tool>`, deferred, its input schema kept,
// calls sent through the connection with a timeout, results turned into text/structured content.
import { mcpToolName } from '../tools/index.js';
import { summarize } from '../tools/index.js';
import { ok, toolError } from '../tools/index.js';
import type { AnyTool } from '../tools/index.js';
import type { JsonSchema, ToolResult } from '../tools/index.js';

/** The part of an MCP `tools/list` entry Knack uses. */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean; title?: string };
}

export interface McpCallOutcome {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

export type McpCaller = (tool: string, args: Record<string, unknown>, signal?: AbortSignal) => Promise<McpCallOutcome>;

/** Text of an MCP result's content blocks (text joined; other blocks described). */
function contentText(content: unknown[] | undefined): string {
  return (content ?? [])
    .map((c) => {
      const b = c as {
        type?: string;
        text?: string;
        uri?: string;
        mimeType?: string;
        resource?: { uri?: string; text?: string };
      };
      if (b.type === 'text') return b.text ?? '';
      if (b.type === 'resource') return b.resource?.text ?? `[resource ${b.resource?.uri ?? ''}]`;
      if (b.type === 'resource_link') return `[resource ${b.uri ?? ''}]`;
      return `[${b.type ?? 'content'}${b.mimeType ? ` ${b.mimeType}` : ''}]`;
    })
    .join('\n');
}

export function adaptMcpTool(server: string, info: McpToolInfo, call: McpCaller): AnyTool {
  const name = mcpToolName(server, info.name);
  const description = (info.description ?? info.title ?? info.annotations?.title ?? info.name).trim();
  const readOnly = info.annotations?.readOnlyHint === true;
  return {
    name,
    summary: summarize(description) || info.name,
    description: `${description}\n(MCP server "${server}", tool "${info.name}")`,
    inputSchema: info.inputSchema && typeof info.inputSchema === 'object' ? info.inputSchema : { type: 'object' },
    deferLoading: true,
    risk: readOnly ? 'read' : 'execute',
    // A connector tool's effects are unknown to Knack: unless the server marks it read-only, the gate treats it
    // like a command (explicit rule or per-call approval), with the call spelled out for the person approving.
    access: (args) => (readOnly ? {} : { command: `${name} ${JSON.stringify(args)}` }),
    async handler(args, ctx): Promise<ToolResult> {
      try {
        const r = await call(info.name, args, ctx.signal);
        const text = contentText(r.content);
        if (r.isError)
          return toolError(
            'tool.failed',
            text || `${name} reported an error`,
            r.structuredContent === undefined ? undefined : { structured: r.structuredContent },
          );
        return ok(r.structuredContent !== undefined ? { text, structured: r.structuredContent } : { text });
      } catch (e) {
        const msg = (e as Error).message ?? String(e);
        if (/timed? ?out/i.test(msg)) return toolError('tool.timeout', `${name}: ${msg}`);
        return toolError('tool.unavailable', `${name}: ${msg}`);
      }
    },
  };
}
