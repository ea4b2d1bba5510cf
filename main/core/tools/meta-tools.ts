// The two model-facing tools that make deferral work: ToolSearch (find deferred tools, names + one line each)
// and DeferExecuteTool (run one by name with its arguments: full schema loaded, validated, gated).
import { ok } from './errors.js';
import { DEFER_EXECUTE, TOOL_SEARCH, type ToolSession } from './session.js';
import { z } from 'zod';
import { defineTool } from './define.js';
import { TOOLS } from '../policy/index.js';

export function toolSearchTool(session: ToolSession) {
  return defineTool({
    name: TOOL_SEARCH,
    summary: 'Find deferred tools by what they do; returns names and one-line descriptions.',
    description:
      'Search the deferred tools (connector tools and rarely used built-ins are not in this prompt). ' +
      'Describe the task in a few words, or pass an exact tool name, or "select:name1,name2" to fetch known tools. ' +
      `Found tools become directly callable for the rest of the session; until then run one with ${DEFER_EXECUTE}.`,
    input: z.strictObject({
      query: z.string().min(1).describe('What the tool should do, an exact name, or select:a,b'),
      limit: z.int().min(1).max(25).optional().describe('Most results to return (default 5)'),
    }),
    deferLoading: false,
    risk: TOOLS.ToolSearch.access,
    access: () => ({}),
    async handler(args) {
      const r = session.search(args.query, args.limit ?? 5);
      const tools = r.tools.map((t) => ({ name: t.name, description: t.summary }));
      if (r.mode === 'select' && r.missing?.length) return ok({ tools, missing: r.missing });
      if (tools.length === 0) return ok({ tools, note: 'no deferred tool matches; try other words' });
      return ok({ tools });
    },
  });
}

export function deferExecuteTool(session: ToolSession) {
  return defineTool({
    name: DEFER_EXECUTE,
    summary: 'Run a deferred tool by name with its arguments (validated against its full schema).',
    description:
      `Run a tool found with ${TOOL_SEARCH}. Its full input schema is loaded, the arguments are validated ` +
      '(a wrong or missing field comes back as an error naming the field) and the call passes the permission gate.',
    input: z.strictObject({
      name: z.string().min(1).describe('Exact tool name from ToolSearch'),
      arguments: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments"),
    }),
    deferLoading: false,
    risk: TOOLS.DeferExecuteTool.access,
    access: () => ({}),
    handler: (args, ctx) => session.deferExecute(args.name, args.arguments ?? {}, ctx),
  });
}
