// The tool section of the prompt and what it costs in tokens: full schemas of the visible tools, plus (with
// deferral) a names-only list of the hidden ones so the model knows ToolSearch has more. Real tokenizer.
import { countTokens } from '../base/index.js';
import type { JsonSchema } from './types.js';

export interface PromptTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

export interface ToolSectionOptions {
  /** Names of deferred tools to list by name only (no schema). Omitted when empty or over `maxListed`. */
  deferredNames?: string[];
  /** Longest names-only list; above it the model is told only how many tools are deferred (default 200). */
  maxListed?: number;
}

/** The tool section as providers receive it: one JSON tool object per line, then the deferred names. */
export function renderToolSection(tools: PromptTool[], opts: ToolSectionOptions = {}): string {
  const lines = tools.map((t) =>
    JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema }),
  );
  const deferred = opts.deferredNames ?? [];
  if (deferred.length) {
    const max = opts.maxListed ?? 200;
    lines.push(
      deferred.length <= max
        ? `Deferred tools (find with ToolSearch, run with DeferExecuteTool): ${deferred.join(', ')}`
        : `${deferred.length} more tools are deferred: find them with ToolSearch, run them with DeferExecuteTool.`,
    );
  }
  return lines.join('\n');
}

export interface ToolSectionCost {
  /** Tokens with deferral (visible tools + ToolSearch/DeferExecuteTool + deferred names). */
  deferredTokens: number;
  /** Tokens if every tool were loaded with its full schema. */
  allLoadedTokens: number;
  ratio: number;
  visible: number;
  deferred: number;
}

/**
 * Compare the tool section with deferral against loading everything.
 * `visible` must include the meta tools; `hidden` are the deferred tools not yet discovered.
 */
export function toolSectionCost(visible: PromptTool[], hidden: PromptTool[], meta: PromptTool[] = []): ToolSectionCost {
  const metaNames = new Set(meta.map((m) => m.name));
  const deferredText = renderToolSection(visible, { deferredNames: hidden.map((h) => h.name) });
  const allText = renderToolSection([...visible.filter((v) => !metaNames.has(v.name)), ...hidden]);
  const deferredTokens = countTokens(deferredText);
  const allLoadedTokens = countTokens(allText);
  return {
    deferredTokens,
    allLoadedTokens,
    ratio: allLoadedTokens ? deferredTokens / allLoadedTokens : 0,
    visible: visible.length,
    deferred: hidden.length,
  };
}
