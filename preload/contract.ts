// The single typed contract between the renderer and the main process: every method with zod schemas for its input
// AND output, every event with its payload schema, one error shape. Electron IPC and serve mode's WebSocket bind this table.
//
// Pure data + zod: the renderer, the preload (sandboxed), main and serve mode all import it; it never imports Node.
//
//   methods['skills.list'].input / .output   — validated at the boundary on both sides
//   events['chat.delta']                      — main → renderer, validated before sending
//   ContractError {code, message, details}    — the only way a failure crosses
import { z } from 'zod';

// Every text the window shows for approval goes through these (control, bidi and invisible characters escaped).
export { displaySafe, displaySafeLines } from './display.js';
// Messages for people as a code plus parameters: the window says them in its language (renderer/src/i18n).
import { english, Said, say, type WordCode } from './words.js';
export { english, fill, placeholders, Said, WORD_CODES, WORDS, type WordCode } from './words.js';

// ───────────────────────────── shared shapes ─────────────────────────────

export const ERROR_CODES = [
  'invalid_input', // the payload did not match the method's input schema
  'invalid_output', // the handler answered something the contract does not allow (a bug in main, never shown raw)
  'unknown_method',
  'no_workspace', // the method needs an open workspace
  'not_found', // a skill, session, rule, approval … that does not exist
  'conflict', // the state changed under the caller (content hash moved, approval already decided)
  'refused', // the core refused on purpose (P0 skill, policy)
  'unsupported', // this transport cannot do it (a native dialog in serve mode)
  'unavailable', // a part is not ready (no provider configured, no store)
  'forbidden', // a caller that may not call (wrong frame, bad token)
  'internal',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** Errors cross every boundary in this shape. `code` is one of ERROR_CODES; `message` is for people. */
export const ContractErrorSchema = z.object({
  code: z.string().min(1),
  message: z.string(),
  details: z.unknown().optional(),
  /** `message` as words the window says in its language, when there are such words. */
  words: Said.optional(),
});
export type ContractError = z.infer<typeof ContractErrorSchema>;

const Empty = z.object({}).strict();
const Id = z.string().min(1).max(200);
const Name = z.string().min(1).max(200);
const Path = z.string().min(1).max(4096);
/** A model id as providers spell them (claude-sonnet-4-5, gpt-4.1, anthropic/claude-sonnet-4.5, qwen2.5-coder:7b). */
const ModelId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/, 'a model id: letters, digits and . _ : / @ + -');

export const Tier = z.enum(['builtin', 'user', 'project']);

/** The model's marketplace tool (main/core/skills/use/marketplace-tool.ts): it proposes installs, never installs. */
export const MARKETPLACE_TOOL = 'skill_marketplace';
/**
 * What a proposal of that tool shows the user: its result's `installProposal`, every string escaped by main. The window
 * shows it as a card whose "Review install" opens the install dialog on this marketplace; the user decides there.
 */
export const InstallProposal = z.object({
  marketplace: z.string().min(1).max(2048),
  marketplaceName: z.string().max(500),
  plugin: z.string().min(1).max(500),
  skill: z.string().max(500).optional(),
  description: z.string().max(1000),
  level: z.enum(['P0', 'P1', 'P2']).optional(),
  command: z.string().max(4096),
});
export type InstallProposal = z.infer<typeof InstallProposal>;
export type Tier = z.infer<typeof Tier>;

export const Diagnostic = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  code: z.string(),
  file: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  field: z.string().optional(),
  message: z.string(),
  /** `message` as words, said in the window's language (only some diagnostics have them). */
  words: Said.optional(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

export const Permissions = z.object({
  tools: z.array(z.string()),
  commands: z.record(z.string(), z.array(z.string())),
  network: z.boolean(),
  read: z.array(z.string()),
  write: z.array(z.string()),
  declared: z.enum(['permissions', 'allowed-tools', 'both', 'none']),
});
export type Permissions = z.infer<typeof Permissions>;

/** An update's permission diff: one line per change in English (`lines`), and as words (`words`, same order). */
export const PermissionDiff = z.object({
  widened: z.boolean(),
  lines: z.array(z.string()),
  /** Absent on an approval stored before the diff had words: the window shows `lines` then. */
  words: z.array(Said).optional(),
});
export type PermissionDiff = z.infer<typeof PermissionDiff>;

export const AuditFinding = z.object({
  file: z.string(),
  line: z.number().int(),
  rule: z.string(),
  family: z.string(),
  level: z.enum(['P0', 'P1']),
  excerpt: z.string(),
  message: z.string(),
  /** `message` as words the window says in its language. */
  words: Said.optional(),
  /** `excerpt` as words (one per line), when the excerpt is our English rather than the skill's text: a diff. */
  excerptWords: z.array(Said).optional(),
});
export type AuditFinding = z.infer<typeof AuditFinding>;

/** A full audit report, as shown before an install or a trust decision. Approvals are bound to `contentHash`. */
export const AuditReport = z.object({
  skill: z.string(),
  dir: z.string(),
  /** P2 = nothing worth asking about; P1 = needs the user's yes; P0 = never runs. */
  level: z.enum(['P0', 'P1', 'P2']),
  findings: z.array(AuditFinding),
  contentHash: z.string(),
  files: z.number().int(),
  bytes: z.number().int(),
  permissions: Permissions.optional(),
  manifestDiagnostics: z.array(Diagnostic),
  diff: PermissionDiff.optional(),
});
export type AuditReport = z.infer<typeof AuditReport>;

/**
 * A skill's audit state in lists. `checking` = the audit has not finished yet (a verdict arrives as `audit.verdict`);
 * `clean` = no findings that need a decision; `needs-trust` = P1 not yet trusted; `trusted` = P1 the user trusted
 * (bound to this content hash); `blocked` = P0, never enabled.
 */
export const AuditState = z.object({
  status: z.enum(['checking', 'clean', 'needs-trust', 'trusted', 'blocked']),
  level: z.enum(['P0', 'P1', 'P2']).optional(),
  findings: z.number().int().nonnegative(),
  contentHash: z.string().optional(),
});
export type AuditState = z.infer<typeof AuditState>;

export const SkillSummary = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  tier: Tier,
  source: z.enum(['workbuddy', 'agents']),
  dir: z.string(),
  file: z.string(),
  enabled: z.boolean(),
  /** Why it is off when the user did not turn it off (audit P0, untrusted P1). */
  disabledReason: z.string().optional(),
  /** disabledReason as words, said in the window's language. */
  disabledWords: Said.optional(),
  /** Set when a higher tier holds a skill of the same name: this one is not used. */
  shadowedBy: z.object({ tier: Tier, file: z.string() }).optional(),
  /** Lower-tier skills of the same name this one hides. */
  shadows: z.array(z.object({ tier: Tier, file: z.string() })),
  diagnostics: z.array(Diagnostic),
  audit: AuditState,
  /** The manifest's `read_when` phrases (any language): what the sidebar filter and the matcher look for. */
  triggers: z.array(z.string()),
  /** `agent_created: true`: the agent wrote it (Save as skill, create_skill). */
  agentCreated: z.boolean().optional(),
});
export type SkillSummary = z.infer<typeof SkillSummary>;

export const BrokenSkill = z.object({
  tier: Tier,
  dir: z.string(),
  file: z.string(),
  diagnostics: z.array(Diagnostic),
});

/** Where a skill installed from a git repository or marketplace came from (its skills.lock.json entry). */
export const SkillOrigin = z.object({
  url: z.string(),
  ref: z.string().optional(),
  commit: z.string(),
  path: z.string(),
  marketplace: z.string().optional(),
  plugin: z.string().optional(),
});
export type SkillOrigin = z.infer<typeof SkillOrigin>;

/** One skill a fetched source offers, before anything is installed. */
export const SourceSkill = z.object({
  name: z.string(),
  description: z.string(),
  level: z.enum(['P0', 'P1', 'P2']),
  findings: z.number().int().nonnegative(),
  contentHash: z.string(),
  /** Why it cannot be installed (a link out of its folder): its English, and its words the window says. */
  problem: z.string().optional(),
  problemWords: Said.optional(),
  plugin: z.string().optional(),
});

export const OpenedSource = z.object({
  openId: z.string(),
  display: z.string(),
  kind: z.enum(['local', 'repository', 'marketplace']),
  skills: z.array(SourceSkill),
  plugins: z.array(z.object({ name: z.string(), description: z.string(), fetched: z.boolean(), from: z.string() })),
});
export type OpenedSource = z.infer<typeof OpenedSource>;

/** A skill installed from a source compared with it: files changed and the permission diff. */
export const SkillUpdate = z.object({
  name: z.string(),
  tier: z.enum(['user', 'project']),
  status: z.enum(['up-to-date', 'available', 'error']),
  reason: z.string().optional(),
  /** Why a check failed (status error), as words the window says in its language, naming the skill. */
  words: Said.optional(),
  from: z.string(),
  to: z.string().optional(),
  level: z.enum(['P0', 'P1', 'P2']).optional(),
  contentHash: z.string().optional(),
  files: z
    .object({ added: z.array(z.string()), changed: z.array(z.string()), removed: z.array(z.string()) })
    .optional(),
  diff: PermissionDiff.optional(),
});
export type SkillUpdate = z.infer<typeof SkillUpdate>;

export const MarketHit = z.object({
  marketplace: z.string(),
  marketplaceName: z.string(),
  plugin: z.string(),
  skill: z.string().optional(),
  description: z.string(),
  level: z.enum(['P0', 'P1', 'P2']).optional(),
});
export type MarketHit = z.infer<typeof MarketHit>;

export const SkillDetail = SkillSummary.extend({
  /** The instructions (SKILL.md body, without the frontmatter). */
  body: z.string(),
  /** Files inside the skill folder, relative, "/" separators. */
  resources: z.array(z.string()),
  readWhen: z.array(z.string()),
  dependsOn: z.array(z.string()),
  allowedTools: z.array(z.string()),
  permissions: Permissions.optional(),
  report: AuditReport.optional(),
  /** Set for a skill installed from a git repository or marketplace. */
  origin: SkillOrigin.optional(),
});
export type SkillDetail = z.infer<typeof SkillDetail>;

/** What an install/update led to. `pending` waits for skills.approveInstall with the same content hash. */
export const InstallOutcome = z.object({
  status: z.enum(['installed', 'pending', 'refused', 'exists', 'rejected']),
  reason: z.string().optional(),
  /** `reason` as words, said in the window's language. */
  words: Said.optional(),
  skill: z.string().optional(),
  dest: z.string().optional(),
  approvalId: z.string().optional(),
  report: AuditReport.optional(),
});
export type InstallOutcome = z.infer<typeof InstallOutcome>;

/** An install or update held for the user's approval, with what the audit found in the held copy it is bound to. */
export const PendingInstall = z.object({
  approvalId: z.string(),
  kind: z.enum(['install', 'update', 'discovered']),
  skill: z.string(),
  tier: z.string(),
  source: z.string(),
  /** Where it would be installed. */
  target: z.string(),
  contentHash: z.string(),
  level: z.enum(['P0', 'P1', 'P2']),
  createdAt: z.number(),
  findings: z.array(AuditFinding),
  permissions: Permissions.optional(),
  diff: PermissionDiff.optional(),
  /** The held copy (or the folder it was installed from) is gone: it can no longer be approved, only dismissed. */
  gone: z.boolean().optional(),
});

export const LintResult = z.object({
  skills: z.array(z.object({ name: z.string().optional(), file: z.string(), diagnostics: z.array(Diagnostic) })),
  errors: z.number().int(),
  warnings: z.number().int(),
});

/** A damaged database set aside whole (and not yet acknowledged): the window shows a banner with its path. */
export const StoreDamage = z.object({
  file: z.string(),
  movedTo: z.string(),
  reason: z.string(),
  /** `reason` as words the window says in its language (SQLite's own message verbatim in them). */
  words: Said.optional(),
  at: z.number(),
});

export const WorkspaceInfo = z.object({
  path: z.string(),
  name: z.string(),
  skills: z.object({ total: z.number().int(), enabled: z.number().int(), broken: z.number().int() }),
  diagnostics: z.array(Diagnostic),
  /**
   * The database's state when it is not sound: damaged files set aside, or why it cannot be opened. While either is
   * there, the user's rules cannot all be read and every tool call asks.
   */
  store: z
    .object({
      damaged: z.array(StoreDamage),
      problem: z.string().optional(),
      /** `problem` as words the window says in its language (the store's own error verbatim in them). */
      problemWords: Said.optional(),
    })
    .optional(),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfo>;

export const RecentWorkspace = z.object({
  path: z.string(),
  name: z.string(),
  openedAt: z.number(),
  exists: z.boolean(),
});

/** A policy rule the user made ("always allow `git status` in this workspace"). */
export const PolicyRule = z.object({
  id: z.string(),
  effect: z.enum(['allow', 'ask', 'deny']),
  tool: z.string(),
  workspace: z.string().optional(),
  skill: z.string().optional(),
  command: z.string().optional(),
  path: z.string().optional(),
  host: z.string().optional(),
  note: z.string().optional(),
  createdAt: z.number(),
  /** One line for people. */
  description: z.string(),
  /** `description` as words the window says in its language. */
  words: Said.optional(),
});
export type PolicyRule = z.infer<typeof PolicyRule>;

export const Actor = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('agent'), activeSkills: z.array(z.string()) }),
  z.object({ kind: z.literal('skill'), skill: z.string() }),
  z.object({ kind: z.literal('user') }),
]);

export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
});

export const SessionMeta = z.object({
  id: z.string(),
  title: z.string(),
  workspace: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** The user's messages and the model's replies (one per model call; tool results not counted). */
  messages: z.number().int().nonnegative(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  planMode: z.boolean(),
  /** True while a turn is running. */
  running: z.boolean(),
  /** The running turn waits for the user's answer to an approval (not answering meanwhile). */
  waiting: z.boolean().optional(),
});
export type SessionMeta = z.infer<typeof SessionMeta>;

/** A session a search found, with an excerpt where the words are (`hit` marks them; shown as text, escaped). */
export const SessionHit = z.object({
  session: SessionMeta,
  /** Where the words are: the title the user gave, one of their messages, or an answer. */
  in: z.enum(['title', 'message', 'answer']),
  /** The message or answer holding the words (any branch of the conversation): `sessions.open`'s `at`. */
  seq: z.number().int().positive().optional(),
  snippet: z.array(z.object({ text: z.string(), hit: z.boolean() })),
});
export type SessionHit = z.infer<typeof SessionHit>;

export const ToolCallCard = z.object({
  callId: z.string(),
  tool: z.string(),
  /** Arguments as the model sent them (JSON). Shown escaped; never trusted. */
  args: z.record(z.string(), z.unknown()),
  status: z.enum(['pending', 'awaiting-approval', 'running', 'ok', 'error', 'denied']),
  /** Result text or error message (truncated for display). */
  output: z.string().optional(),
  errorCode: z.string().optional(),
  /** A refusal (by the gate or the user) as words the window says in its language, instead of `output`. */
  words: Said.optional(),
  /** How long the call ran, once it has a result (the time its approval waited for the user not counted). */
  durationMs: z.number().nonnegative().optional(),
});
export type ToolCallCard = z.infer<typeof ToolCallCard>;

/** One item of a stored conversation, as the transcript shows it. */
/** The longest message chat.send takes, in characters (the window says so before sending a longer one). */
export const MAX_MESSAGE_CHARS = 200_000;

/** Most files one message carries. */
export const MAX_ATTACHMENTS = 10;
/** Largest text or code file attached to a message (bytes of UTF-8). */
export const MAX_TEXT_ATTACHMENT_BYTES = 512 * 1024;
/** Largest image attached to a message (bytes); all of one message's files together stay under MAX_UPLOAD_BYTES. */
export const MAX_IMAGE_ATTACHMENT_BYTES = 3 * 1024 * 1024;
/** Image types the providers take as image blocks (Anthropic and OpenAI both read these four). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** A file sent with a message: a text file's content, or an image's bytes (base64). Main checks both again. */
export const Attachment = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('text'),
      name: z.string().min(1).max(255),
      mime: z.string().max(100),
      /** Bytes of the file as the user picked it. */
      size: z.number().int().nonnegative(),
      text: z.string().max(MAX_TEXT_ATTACHMENT_BYTES),
    })
    .strict(),
  z
    .object({
      kind: z.literal('image'),
      name: z.string().min(1).max(255),
      mime: z.enum(IMAGE_TYPES),
      size: z.number().int().nonnegative(),
      data: z.string().max(base64Length(MAX_IMAGE_ATTACHMENT_BYTES)),
    })
    .strict(),
]);
export type Attachment = z.infer<typeof Attachment>;

/** What the transcript shows of an attached file (its content stays in main). */
export const AttachmentMeta = z.object({
  kind: z.enum(['text', 'image']),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type AttachmentMeta = z.infer<typeof AttachmentMeta>;

export const TranscriptItem = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    attachments: z.array(AttachmentMeta).optional(),
    /** This message and its answer have other versions (edits, regenerated answers): which one is shown, of how many. */
    versions: z
      .object({
        message: z.object({ index: z.number().int(), count: z.number().int() }).optional(),
        answer: z.object({ index: z.number().int(), count: z.number().int() }).optional(),
      })
      .optional(),
    at: z.number(),
  }),
  z.object({ kind: z.literal('assistant'), id: z.string(), text: z.string(), at: z.number() }),
  z.object({ kind: z.literal('tool'), id: z.string(), card: ToolCallCard, at: z.number() }),
  z.object({
    kind: z.literal('skill'),
    id: z.string(),
    skill: z.string(),
    reason: z.string(),
    /** Why it loaded, as words the window says in its language (`reason` is the English). */
    words: Said.optional(),
    at: z.number(),
  }),
  z.object({
    kind: z.literal('notice'),
    id: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    text: z.string(),
    /** `text` as words the window says in its language. */
    words: Said.optional(),
    at: z.number(),
  }),
  /** A turn that did not simply finish: how it ended, the reason (the provider's own), and whether Retry can take it up. */
  z.object({
    kind: z.literal('end'),
    id: z.string(),
    reason: z.enum(['stopped', 'interrupted', 'timeout', 'error', 'limit', 'no_model']),
    code: z.string().optional(),
    message: z.string().optional(),
    /** `message` as words the window says in its language (a provider's own text inside them stays as it said it). */
    words: Said.optional(),
    retryable: z.boolean(),
    at: z.number(),
  }),
]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;

/** Which rule the gate used, its scope, the acting skill's identity and the real paths it checked (all display-escaped). */
export const GateDecisionFields = z.object({
  rule: z.string().optional(),
  ruleId: z.string().optional(),
  scope: z.string().optional(),
  /** `rule` and `scope` as words the window says in its language (escaped where shown). */
  ruleWords: Said.optional(),
  scopeWords: Said.optional(),
  skill: z
    .object({ name: z.string(), tier: z.string().optional(), dir: z.string(), hash: z.string().optional() })
    .optional(),
  paths: z.object({ read: z.array(z.string()), write: z.array(z.string()) }).optional(),
});
export type GateDecisionFields = z.output<typeof GateDecisionFields>;

/**
 * One plain risk line of a call asked about, computed by main: a code and its parameters, worded by the window in its
 * language (sends {host}, connects {host}, network, writesOutside {path}, deletes, downloadedScript, networkOff …).
 */
export const RiskLine = z.object({ code: z.string(), params: z.record(z.string(), z.string()) });
export type RiskLine = z.infer<typeof RiskLine>;

/** An approval the gate asked for (the `chat.approval` event, and a running turn's open ones in `sessions.open`). */
export const ChatApproval = z.object({
  sessionId: z.string(),
  approvalId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  actor: Actor,
  reason: z.string(),
  /** Why the gate asked, as words the window says in its language (`reason` is the English). */
  words: Said.optional(),
  /** Escaped one-line summary (command, path, host). */
  summary: z.string(),
  /** What "always" would store, one rule per line, shown before the user picks it (empty: "always" is not offered). */
  alwaysPreview: z.array(z.string()),
  /** alwaysPreview as words the window says in its language (same order; escaped onto one line where shown). */
  alwaysWords: z.array(Said).optional(),
  /**
   * Per rule of alwaysPreview (same order): 'network' or 'outside' when it would let network calls or writes outside
   * the workspace run unasked; the card never pre-ticks such a rule. Absent or null: it stays inside.
   */
  alwaysWidens: z.array(z.enum(['network', 'outside']).nullable()).optional(),
  /** What the call would do, as plain risk lines. */
  risks: z.array(RiskLine).optional(),
  /** The gate's decision fields, each escaped: the rule that asked and its scope, the acting skill, the real paths checked. */
  decision: GateDecisionFields.optional(),
});

export const LoadedSkill = z.object({
  name: z.string(),
  tier: Tier,
  /** Content hash of the version that went in. */
  version: z.string().optional(),
  reason: z.string(),
  /** Why it loaded, as words the window says in its language (`reason` is the English). */
  words: Said.optional(),
  tokens: z.number().int().nonnegative(),
  /** Files of this skill the model read in this conversation (relative to the skill folder), in order. */
  resources: z.array(z.object({ path: z.string(), tokens: z.number().int().nonnegative() })),
});
export type LoadedSkill = z.infer<typeof LoadedSkill>;

/** The prompt's sections, in the order the context meter shows them; each has a label in both languages (renderer/src/i18n). */
export const CONTEXT_SECTIONS = [
  'system',
  'instructions',
  'catalog',
  'skills',
  'tools',
  'history',
  'observations',
] as const;

/**
 * Token accounting per prompt section (system, the folder's own instructions, catalog, skills, tools, history, tool
 * results). The instructions section has one item when the folder has an AGENTS.md or CLAUDE.md: its file as the
 * label, and as `words` whether it was read whole, cut, or why it could not be read (the window's label for the line).
 */
export const ContextSection = z.object({
  section: z.enum(CONTEXT_SECTIONS),
  tokens: z.number().int().nonnegative(),
  items: z.array(
    z.object({
      label: z.string(),
      tokens: z.number().int().nonnegative(),
      note: z.string().optional(),
      words: Said.optional(),
    }),
  ),
});

export const ContextView = z.object({
  sessionId: z.string(),
  contextWindow: z.number().int().positive(),
  total: z.number().int().nonnegative(),
  sections: z.array(ContextSection),
  loadedSkills: z.array(LoadedSkill),
  /** Skills the catalog's token budget left out of the prompt (the model still finds them with SkillSearch). */
  leftOut: z.array(z.string()),
  /**
   * Tokens the conversation's model calls have used so far, and their cost in USD: `costUsd` absent when a call could
   * not be priced (no price for its model: never a guess). Absent before the first call.
   */
  spent: Usage.extend({ costUsd: z.number().nonnegative().optional() }).optional(),
  /**
   * Once the conversation has branched (an edit, a regenerated answer), `spent` counts the branch on screen (its path
   * from the start) and this every model call made on any branch: what the conversation has cost in all.
   */
  spentAll: Usage.extend({ costUsd: z.number().nonnegative().optional() }).optional(),
});
export type ContextView = z.infer<typeof ContextView>;

export const ToolInfo = z.object({
  name: z.string(),
  /** builtin | meta | skill | catalog | mcp:<server> */
  source: z.string(),
  summary: z.string(),
  /** Kept out of the prompt until ToolSearch finds it. */
  deferred: z.boolean(),
  /** `summary` as words, for Knack's own tools (a server's or a catalog's tool says what it says). */
  words: Said.optional(),
});
export type ToolInfo = z.infer<typeof ToolInfo>;

export const McpServerStatus = z.object({
  name: z.string(),
  state: z.enum(['connecting', 'connected', 'failed', 'disconnected']),
  tools: z.number().int().nonnegative(),
  error: z.string().optional(),
  /** Connecting again after a failure: which try this is, of how many before it fails (mcp.try). */
  tryWords: Said.optional(),
});
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** One server of the user's or the workspace's mcp.json as the window's form shows it: no env or header value. */
export const McpEntry = z.object({
  name: z.string(),
  scope: z.enum(['user', 'project']),
  /** The mcp.json that holds it. */
  file: z.string(),
  kind: z.enum(['stdio', 'http']),
  enabled: z.boolean(),
  command: z.string().optional(),
  args: z.array(z.string()),
  /** Names of its environment variables (values stay in the file). */
  envKeys: z.array(z.string()),
  cwd: z.string().optional(),
  /** Hosts it may reach through the sandbox's proxy (none: no network). */
  network: z.array(z.string()),
  url: z.string().optional(),
  headerKeys: z.array(z.string()),
  /** A workspace's server not trusted as it is now: it does not start until the user trusts it. */
  held: z.boolean(),
});
export type McpEntry = z.infer<typeof McpEntry>;

/** An env variable or header: its name and, when typed, a new value; none keeps the file's value of that name. */
const McpSecret = z.object({ name: z.string().min(1).max(200), value: z.string().max(10_000).optional() }).strict();

/** A server as the form sends it; main checks it with mcp.json's own schema. */
export const McpEntryInput = z
  .object({
    kind: z.enum(['stdio', 'http']),
    command: z.string().max(4096).optional(),
    args: z.array(z.string().max(4096)).max(200).optional(),
    env: z.array(McpSecret).max(200).optional(),
    cwd: z.string().max(4096).optional(),
    network: z.array(z.string().max(253)).max(200).optional(),
    url: z.string().max(4096).optional(),
    headers: z.array(McpSecret).max(200).optional(),
  })
  .strict();
export type McpEntryInput = z.infer<typeof McpEntryInput>;

export const ProviderPreset = z.object({
  id: z.string(),
  label: z.string(),
  /** Which wire protocol: Anthropic Messages or OpenAI-compatible Chat Completions. */
  kind: z.enum(['anthropic', 'openai']),
  /** null = the SDK's default endpoint. */
  baseUrl: z.string().nullable(),
  defaultModel: z.string(),
  contextWindow: z.number().int().positive(),
  /** Local servers accept any key. */
  keyOptional: z.boolean(),
  /** A key for this preset is stored (key store) or present in the environment; never the key itself. */
  hasKey: z.boolean(),
  /** Where that key comes from (the first found: the key store, the environment, providers.json), never the key. */
  keySource: z.enum(['key-store', 'env', 'file', 'none']).optional(),
  /** The environment variable that holds it, when it comes from the environment. */
  keyEnv: z.string().optional(),
});

export const Ceiling = z.object({
  tools: z.array(z.string()),
  network: z.boolean(),
  readRoots: z.array(z.string()),
  writeRoots: z.array(z.string()),
});

/** Settings as the renderer sees them: a key is never sent back, only whether one is stored. */
export const SettingsView = z.object({
  /** null = no model configured (chat runs as the offline inspector). */
  provider: z
    .object({
      preset: z.string(),
      model: z.string(),
      baseUrl: z.string().nullable(),
      contextWindow: z.number().int().positive(),
      hasKey: z.boolean(),
      keySource: z.enum(['option', 'key-store', 'env', 'file', 'none']),
    })
    .nullable(),
  presets: z.array(ProviderPreset),
  ceiling: Ceiling,
  /** One line each: a providers.json others can read, or that cannot be read or used as it is. */
  warnings: z.array(z.string()),
  /** `warnings` as words the window says in its language (same order). */
  warningWords: z.array(Said).optional(),
  /** Why the provider a message would use cannot be made (a preset without its key, an unknown provider), as words. */
  providerProblem: Said.optional(),
  /** The open workspace's settings problems (settings.json files), each with its file, line, field and words. */
  problems: z.array(Diagnostic).optional(),
  /** Where keys are stored: the OS keychain (Electron safeStorage), a local file readable only by this user, or nowhere. */
  keyStorage: z.enum(['os-keychain', 'file', 'memory']),
});
export type SettingsView = z.infer<typeof SettingsView>;

/**
 * What Test connection found (one real request of one token to the configured provider): it answered, or why not —
 * `kind` as the agent names provider failures (auth, model, network, timeout, config …), the HTTP status, Knack's
 * line and the provider's own words (`said`). Never the key.
 */
export const ConnectionCheck = z.object({
  ok: z.boolean(),
  provider: z.string().optional(),
  model: z.string().optional(),
  baseUrl: z.string().nullable().optional(),
  kind: z.string().optional(),
  status: z.number().int().optional(),
  message: z.string().optional(),
  /** `message` as words the window says in its language. */
  words: Said.optional(),
  said: z.string().optional(),
});
export type ConnectionCheck = z.infer<typeof ConnectionCheck>;

/**
 * Whether the open workspace's commands run inside the OS sandbox (`knack sandbox status --json`): the backend, why it
 * is unavailable and the one line that fixes it, and the workspace's `sandbox.mode`.
 */
export const SandboxStatus = z.object({
  available: z.boolean(),
  backend: z.string(),
  reason: z.string(),
  /** `reason` as words the window says in its language (absent for the sandbox runtime's own words). */
  reasonWords: Said.optional(),
  hint: z.string(),
  hintWords: Said.optional(),
  mode: z.enum(['auto', 'required', 'off']),
});
export type SandboxStatus = z.infer<typeof SandboxStatus>;

/** One configured provider's models in the picker: its own list (GET /v1/models), else its preset's. */
export const ModelGroup = z.object({
  provider: z.string(),
  /** How people know the provider (the preset's label, else its name in providers.json). */
  label: z.string(),
  models: z.array(z.string()),
  /** The models of `models` that read no images (an image attached for one is refused on Send). */
  noImages: z.array(z.string()).optional(),
  source: z.enum(['provider', 'preset']),
  /** Why the provider's own list could not be read (the preset's is offered instead), or why it cannot be used. */
  error: z.string().optional(),
  /** `error` as words the window says in its language. */
  errorWords: Said.optional(),
});
export type ModelGroup = z.infer<typeof ModelGroup>;

/**
 * The models the picker offers: the provider in use (null: no model set up) and the model (the session's when one is
 * given); `models` is that provider's list (holding it first), `groups` every configured provider's, that one first.
 */
export const ModelChoices = z.object({
  provider: z.string().nullable(),
  current: z.string().nullable(),
  models: z.array(z.string()),
  source: z.enum(['provider', 'preset']),
  /** Why the provider's own list could not be read (the preset's is offered instead). */
  error: z.string().optional(),
  /** `error` as words the window says in its language. */
  errorWords: Said.optional(),
  groups: z.array(ModelGroup),
});
export type ModelChoices = z.infer<typeof ModelChoices>;

// ───────────────────────────── methods ─────────────────────────────

/** Largest .zip accepted by skills.installUpload (bytes, before base64). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
/** Characters of base64 for `bytes` bytes. */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

const m = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output });

/** The largest SKILL.md the save-as-skill editor sends (create_skill's body limit). */
export const MAX_DRAFT_CHARS = 100 * 1024;
const DraftText = z.string().min(1).max(MAX_DRAFT_CHARS);

export const methods = {
  // app
  'app.info': m(
    Empty,
    z.object({
      version: z.string(),
      transport: z.enum(['electron', 'serve']),
      platform: z.string(),
      /** Native dialogs exist in the desktop app only; serve mode asks for a typed path. */
      nativeDialogs: z.boolean(),
      workspace: WorkspaceInfo.nullable(),
    }),
  ),

  // workspaces
  /** Open a folder; the one already open is left as it is (its conversations go on) unless `reload` reads it again. */
  'workspace.open': m(z.object({ path: Path, reload: z.boolean().optional() }).strict(), WorkspaceInfo),
  'workspace.current': m(Empty, WorkspaceInfo.nullable()),
  'workspace.recent': m(Empty, z.object({ items: z.array(RecentWorkspace) })),
  /**
   * The open folder's files for the composer's @-mention menu, best match for `query` first (fuzzy): paths relative
   * to it, `/`-separated. `truncated`: the walk stopped at its cap (files or time), so some files are missing.
   */
  'workspace.files': m(
    z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(50).default(20) }).strict(),
    z.object({ paths: z.array(z.string()), truncated: z.boolean() }),
  ),
  /** Native folder picker (desktop only; `unsupported` in serve mode). null = cancelled. */
  'dialog.pickWorkspace': m(Empty, z.object({ path: z.string().nullable() })),
  /** Native picker for a skill folder or a .zip (desktop only). null = cancelled. */
  'dialog.pickSkillSource': m(
    z.object({ kind: z.enum(['folder', 'zip']) }).strict(),
    z.object({ path: z.string().nullable() }),
  ),

  /** Show a skill's file (a SKILL.md the catalog knows, readable or not) in the file manager (desktop only). */
  'dialog.showSkillFile': m(z.object({ file: Path }).strict(), z.object({ shown: z.boolean() })),

  // skills
  'skills.list': m(
    Empty,
    z.object({ skills: z.array(SkillSummary), broken: z.array(BrokenSkill), diagnostics: z.array(Diagnostic) }),
  ),
  'skills.show': m(z.object({ name: Name }).strict(), SkillDetail),
  'skills.setEnabled': m(z.object({ name: Name, enabled: z.boolean() }).strict(), SkillSummary),
  /** Trust one P1 skill, bound to the content hash the user saw (a changed skill is a `conflict`). */
  'skills.trust': m(z.object({ name: Name, contentHash: z.string().min(1) }).strict(), SkillSummary),
  /** Trust every skill that needs trust (P0 never). `dryRun` only reports what would happen. */
  'skills.trustAll': m(
    z.object({ dryRun: z.boolean().default(false) }).strict(),
    z.object({
      trusted: z.array(z.string()),
      refused: z.array(z.object({ name: z.string(), reason: z.string(), words: Said.optional() })),
      summary: z.string(),
      /** `summary` as words the window says in its language. */
      summaryWords: Said.optional(),
      /** The review's findings grouped by rule, most frequent first: what saying yes accepts. */
      groups: z.array(
        z.object({
          rule: z.string(),
          message: z.string(),
          words: Said.optional(),
          count: z.number().int().nonnegative(),
          skills: z.array(z.string()),
        }),
      ),
      /** The union of what the skills ask for: the most the user grants by saying yes. */
      widest: z.object({
        tools: z.array(z.string()),
        anyCommand: z.array(z.string()),
        network: z.boolean(),
        read: z.array(z.string()),
        write: z.array(z.string()),
        undeclared: z.number().int().nonnegative(),
      }),
    }),
  ),
  /** Audit and install a folder or .zip into the user or project tier; P1 waits for approveInstall, P0 is refused. */
  'skills.install': m(
    z.object({ source: Path, tier: z.enum(['user', 'project']), replace: z.boolean().default(false) }).strict(),
    InstallOutcome,
  ),
  /** `removed`: the held copies no approval waited for, removed when this workspace opened (said once, dismissable). */
  'skills.pendingInstalls': m(
    Empty,
    z.object({ items: z.array(PendingInstall), removed: z.array(z.string()).optional() }),
  ),
  /** Approve a pending install; goes through only if the content still hashes to `contentHash`. */
  'skills.approveInstall': m(z.object({ approvalId: Id, contentHash: z.string().min(1) }).strict(), InstallOutcome),
  'skills.rejectInstall': m(z.object({ approvalId: Id }).strict(), InstallOutcome),
  /**
   * Audit and install a .zip the user dropped on the window (serve mode has no file paths): its bytes, base64, at
   * most MAX_UPLOAD_BYTES. Unpacked safely into a temporary folder, then the same outcome as skills.install.
   */
  'skills.installUpload': m(
    z
      .object({
        filename: z.string().min(1).max(255),
        data: z
          .string()
          .min(1)
          .max(base64Length(MAX_UPLOAD_BYTES))
          .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
        tier: z.enum(['user', 'project']),
        replace: z.boolean().default(false),
      })
      .strict(),
    InstallOutcome,
  ),
  /** Audit a SKILL.md written in the save-as-skill editor (nothing is installed): its level, findings and diagnostics. */
  'skills.checkDraft': m(z.object({ text: DraftText }).strict(), z.object({ report: AuditReport })),
  /**
   * Install a save-as-skill draft into the user or project tier through the same audit and approval as any install
   * (P1 waits for skills.approveInstall, P0 is refused and nothing is written), marked `agent_created: true`.
   */
  'skills.installDraft': m(
    z.object({ text: DraftText, tier: z.enum(['user', 'project']), replace: z.boolean().default(false) }).strict(),
    InstallOutcome,
  ),
  /** Lint the catalog, or the given folders / SKILL.md files. */
  /**
   * Fetch a skill source (git URL with #ref/:path, owner/repo, a marketplace, a folder) and list its skills with their
   * audit level. Nothing is installed; `sources.progress` events tell the stage. `want` fetches a marketplace's plugins
   * that live in other repositories.
   */
  'sources.open': m(
    z.object({ source: z.string().min(1).max(2048), want: z.array(Name).max(100).optional() }).strict(),
    OpenedSource,
  ),
  /** Install picked skills of an opened source: each through the audit; P1 waits for skills.approveInstall. */
  'sources.install': m(
    z
      .object({
        openId: Id,
        skills: z.array(Name).min(1).max(100),
        tier: z.enum(['user', 'project']),
        replace: z.boolean().optional(),
      })
      .strict(),
    z.object({ results: z.array(InstallOutcome) }),
  ),
  /** Drop an opened source's temporary folder. */
  'sources.close': m(z.object({ openId: Id }).strict(), Empty),
  /**
   * Compare every skill installed from a source with it (the Updates badge). Fetches only when the lock entries changed
   * since the last check, or with `refresh` (Check for updates, the periodic check); otherwise the last answer. The
   * project lock's sources on this computer or its network (file://, loopback, private addresses) are checked only
   * with `asked` (the user pressed Check for updates): a cloned folder's lock never aims git at them unasked.
   */
  'sources.updates': m(
    z.object({ refresh: z.boolean().optional(), asked: z.boolean().optional() }).strict(),
    z.object({ items: z.array(SkillUpdate) }),
  ),
  /** Apply an update that was shown: it goes through only at the content hash shown; a widening waits for approval. */
  'sources.applyUpdate': m(
    z.object({ name: Name, tier: z.enum(['user', 'project']), contentHash: z.string().min(1) }).strict(),
    InstallOutcome,
  ),
  /** Search the configured marketplaces (English or Chinese). */
  'sources.browse': m(z.object({ query: z.string().max(500) }).strict(), z.object({ hits: z.array(MarketHit) })),
  'skills.lint': m(z.object({ paths: z.array(Path).max(100).optional() }).strict(), LintResult),

  // chat
  /** Start a turn. No sessionId = a new session. Streams chat.* events; resolves once the turn has started. */
  'chat.send': m(
    z
      .object({
        sessionId: Id.optional(),
        text: z.string().min(1).max(MAX_MESSAGE_CHARS),
        /** Files sent with the message (text as context, images as image blocks); checked again in main. */
        attachments: z.array(Attachment).max(MAX_ATTACHMENTS).optional(),
        /**
         * The message edits the user's message number `edit` (0: the first) of the conversation: it branches there;
         * the old branch stays reachable (chat.switchVersion). Refused while a turn runs (stop it first).
         */
        edit: z.number().int().nonnegative().optional(),
        /**
         * With `edit`: which of the edited message's files (indexes, 0: the first) go with the new version, before
         * `attachments`; absent: all of them.
         */
        keepFiles: z.array(z.number().int().nonnegative()).max(MAX_ATTACHMENTS).optional(),
        planMode: z.boolean().optional(),
        /** Answer with this model, from this turn on (the picker, for a new conversation). */
        model: ModelId.optional(),
        /** The configured provider `model` is of (default: the provider in use). */
        provider: Id.optional(),
      })
      .strict(),
    z.object({ sessionId: z.string(), turnId: z.string() }),
  ),
  /** The models the picker offers, of every configured provider: each one's own list when it gives one, else its preset's. */
  'chat.models': m(z.object({ sessionId: Id.optional() }).strict(), ModelChoices),
  /**
   * Save as skill: the model drafts the conversation's last task as a SKILL.md (name, description, read_when triggers
   * in the conversation's language, the steps); its permissions are the least the task's tool calls needed. Audited,
   * not installed.
   */
  'chat.draftSkill': m(
    z.object({ sessionId: Id }).strict(),
    z.object({ text: z.string(), calls: z.number().int().nonnegative(), report: AuditReport }),
  ),
  /**
   * Switch a conversation's model from its next turn, of another configured provider when `provider` names one;
   * recorded in the session.
   */
  'chat.setModel': m(
    z.object({ sessionId: Id, model: ModelId, provider: Id.optional() }).strict(),
    z.object({
      session: SessionMeta,
      /** The images on the branch on screen that the new model does not read (they go to it as notes naming them). */
      imagesUnseen: z.number().int().positive().optional(),
    }),
  ),
  'chat.stop': m(z.object({ sessionId: Id }).strict(), z.object({ stopped: z.boolean() })),
  /**
   * Answer the user's message number `turn` (0: the first) again: a new version of its answer beside the old one,
   * streamed as chat.send's. Refused while a turn runs.
   */
  'chat.regenerate': m(
    z.object({ sessionId: Id, turn: z.number().int().nonnegative() }).strict(),
    z.object({ sessionId: z.string(), turnId: z.string() }),
  ),
  /** Show another version of a message or of its answer (TranscriptItem `versions`); the conversation goes on from it. */
  'chat.switchVersion': m(
    z
      .object({
        sessionId: Id,
        turn: z.number().int().nonnegative(),
        which: z.enum(['message', 'answer']),
        index: z.number().int().nonnegative(),
      })
      .strict(),
    z.object({ items: z.array(TranscriptItem) }),
  ),
  /**
   * Take up the conversation's last turn again after it ended interrupted, failed or timed out: the same request is
   * sent from the point it stopped at (the cut-off answer stays in the log). Streams chat.* events as chat.send does.
   */
  'chat.retry': m(z.object({ sessionId: Id }).strict(), z.object({ sessionId: z.string(), turnId: z.string() })),
  /** Answer an approval the main process asked for. `always` stores the rule shown in the request's preview. */
  'chat.answer': m(
    z
      .object({
        sessionId: Id,
        approvalId: Id,
        answer: z.enum(['once', 'always', 'deny']),
        message: z.string().max(4000).optional(),
        /** With `always`: the rules of alwaysPreview to store, by position (unticked ones left out). Absent = all. */
        rules: z.array(z.number().int().nonnegative().max(1000)).max(1000).optional(),
      })
      .strict(),
    z.object({ ok: z.boolean() }),
  ),
  'chat.setPlanMode': m(z.object({ sessionId: Id, on: z.boolean() }).strict(), z.object({ planMode: z.boolean() })),
  /** Take a loaded skill out of the conversation (its instructions leave the next prompt). */
  'chat.unloadSkill': m(z.object({ sessionId: Id, name: Name }).strict(), z.object({ unloaded: z.boolean() })),

  // sessions
  'sessions.list': m(Empty, z.object({ sessions: z.array(SessionMeta) })),
  /**
   * A conversation's transcript. One with a turn running or waiting for approval also gives that turn's id (the
   * `turnId` its coming events carry) and the approvals still open (asked again after a restart), to answer here.
   * `at` (a search hit's `seq`) opens it on a branch holding that message or answer, which stays the one it is on.
   */
  'sessions.open': m(
    z.object({ id: Id, at: z.number().int().positive().optional() }).strict(),
    z.object({
      session: SessionMeta,
      items: z.array(TranscriptItem),
      turnId: z.string().optional(),
      approvals: z.array(ChatApproval),
    }),
  ),
  'sessions.export': m(
    z.object({ id: Id, format: z.enum(['markdown', 'json']) }).strict(),
    z.object({ filename: z.string(), mime: z.string(), content: z.string() }),
  ),
  'sessions.delete': m(z.object({ id: Id }).strict(), z.object({ deleted: z.boolean() })),
  /** This workspace's sessions holding every word of `query` in their title, messages or answers (SQLite FTS5). */
  'sessions.search': m(
    z.object({ query: z.string().min(1).max(500) }).strict(),
    z.object({ hits: z.array(SessionHit) }),
  ),
  /**
   * Remember the conversation on screen in the open workspace (null: none, a new chat), so a reload or a restart
   * opens it again, whatever the window's address (serve picks a new port each run).
   */
  'sessions.remember': m(z.object({ id: Id.nullable() }).strict(), z.object({ remembered: z.boolean() })),
  /** The conversation last on screen in the open workspace, or null. */
  'sessions.remembered': m(z.object({}).strict(), z.object({ id: z.string().nullable() })),
  /** Give a session a title (one line, at most 80 characters; white space is folded). */
  'sessions.rename': m(
    z.object({ id: Id, title: z.string().min(1).max(500) }).strict(),
    z.object({ session: SessionMeta }),
  ),

  // context
  /** Loaded skills, the context projection and token accounting per section for one session. */
  'context.get': m(z.object({ sessionId: Id }).strict(), ContextView),

  // tools
  'tools.list': m(Empty, z.object({ tools: z.array(ToolInfo) })),
  'tools.search': m(
    z.object({ query: z.string().min(1).max(2000), limit: z.number().int().min(1).max(50).default(10) }).strict(),
    z.object({ hits: z.array(ToolInfo.extend({ score: z.number() })) }),
  ),
  'tools.mcpStatus': m(Empty, z.object({ servers: z.array(McpServerStatus) })),
  /** The MCP servers of the user's and the workspace's mcp.json, disabled ones too, with their state when running. */
  'mcp.list': m(
    Empty,
    z.object({
      servers: z.array(McpEntry),
      status: z.array(McpServerStatus),
      /** Files that could not be read (file:line: why); their servers are not listed. */
      errors: z.array(z.string()),
    }),
  ),
  /**
   * Add or change a server in the scope's mcp.json (`previousName`: the one edited, renamed or not). Checked with the
   * loader's schema (invalid_input naming file and field); then started once inside the sandbox: when it does not
   * start, nothing is written (`saved` false, the error) unless `force`. Saved, it starts like every server; a
   * workspace's server is trusted as saved.
   */
  'mcp.save': m(
    z
      .object({
        scope: z.enum(['user', 'project']),
        name: z.string().min(1).max(40),
        previousName: z.string().min(1).max(200).optional(),
        server: McpEntryInput,
        force: z.boolean().optional(),
      })
      .strict(),
    z.object({ saved: z.boolean(), tools: z.array(z.string()), error: z.string().optional() }),
  ),
  'mcp.remove': m(
    z.object({ scope: z.enum(['user', 'project']), name: z.string().min(1).max(200) }).strict(),
    z.object({ removed: z.boolean() }),
  ),
  /** Turn a server off (`disabled: true` in its file; it stops) or on again (it starts). */
  'mcp.setEnabled': m(
    z.object({ scope: z.enum(['user', 'project']), name: z.string().min(1).max(200), enabled: z.boolean() }).strict(),
    z.object({ enabled: z.boolean() }),
  ),

  // settings
  'settings.get': m(Empty, SettingsView),
  /** Make a preset (with an optional model and base URL) the default provider. */
  'settings.setProvider': m(
    z
      .object({
        preset: Name,
        model: z.string().min(1).max(200).optional(),
        baseUrl: z.string().url().max(2000).optional(),
      })
      .strict(),
    SettingsView,
  ),
  /** Store an API key for a preset. The key goes in; it never comes back out. */
  'settings.setKey': m(
    z.object({ preset: Name, key: z.string().min(1).max(1000) }).strict(),
    z.object({ hasKey: z.boolean() }),
  ),
  'settings.clearKey': m(z.object({ preset: Name }).strict(), z.object({ hasKey: z.boolean() })),
  'settings.setCeiling': m(Ceiling.partial().strict(), SettingsView),
  /** Test connection: one real one-token request to the provider in use (its key, model and base URL), no retries. */
  'settings.testProvider': m(Empty, ConnectionCheck),
  /** The open workspace's OS sandbox: available, backend, reason, install hint, mode (waits for its first probe). */
  'sandbox.status': m(Empty, SandboxStatus),
  /**
   * The user has seen the damaged databases the banner named (`movedTo`, as shown; the files stay where they are): the
   * rules count as read again. One set aside since the banner was shown stays, and is a `conflict`.
   */
  'store.acknowledge': m(
    z.object({ movedTo: z.array(Path).min(1).max(100) }).strict(),
    z.object({ acknowledged: z.number().int().nonnegative(), workspace: WorkspaceInfo }),
  ),
  'rules.list': m(Empty, z.object({ rules: z.array(PolicyRule) })),
  'rules.remove': m(z.object({ id: Id }).strict(), z.object({ removed: z.boolean() })),
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
/** What the caller passes (defaults may be left out). */
export type MethodInput<M extends MethodName> = z.input<Methods[M]['input']>;
/** What the handler receives (defaults filled in). */
export type MethodArgs<M extends MethodName> = z.output<Methods[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Methods[M]['output']>;
export const METHOD_NAMES = Object.keys(methods) as MethodName[];

// ───────────────────────────── events (main → renderer) ─────────────────────────────

export const events = {
  /** Streamed assistant text (or thinking) for a running turn. */
  'chat.delta': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    kind: z.enum(['text', 'thinking']),
    text: z.string(),
  }),
  /**
   * The provider's SDK sends the running turn's request again (after a 429, a 5xx, an overloaded answer or a lost
   * connection): attempt `attempt` of `of`. The window says so until the answer's first words arrive.
   */
  'chat.retrying': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    attempt: z.number().int().positive(),
    of: z.number().int().positive(),
  }),
  /** A tool call card appeared or changed state. */
  'chat.toolCall': z.object({ sessionId: z.string(), turnId: z.string(), card: ToolCallCard }),
  /** The gate asked: the renderer shows it and answers with chat.answer. Only main creates these. */
  'chat.approval': ChatApproval,
  /** A skill was loaded into the conversation. */
  'chat.skillLoaded': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    skill: z.string(),
    tier: Tier,
    reason: z.string(),
    /** Why it loaded, as words the window says in its language (`reason` is the English). */
    words: Said.optional(),
    tokens: z.number().int().nonnegative(),
  }),
  /** Something the transcript shows as a line of its own: compaction, recovery after a crash, a provider error, an offer. */
  'chat.notice': z.object({
    sessionId: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    kind: z.string(),
    text: z.string(),
    /** `text` as words the window says in its language. */
    words: Said.optional(),
  }),
  /** The context meter moved: re-fetch context.get for the detail. */
  'context.changed': z.object({
    sessionId: z.string(),
    total: z.number().int().nonnegative(),
    contextWindow: z.number().int().nonnegative(),
  }),
  'chat.turnEnd': z.object({
    sessionId: z.string(),
    turnId: z.string(),
    /**
     * done; stopped (by the user); interrupted (the connection lost mid-answer, or Knack stopped); timeout (the reply
     * stalled); error (failed: `error` has the provider's reason); limit (steps or tokens); no_model (no model is set
     * up: nothing answered, the window links to the setup). Interrupted, timeout and error carry `error` too.
     */
    reason: z.enum(['done', 'stopped', 'interrupted', 'timeout', 'error', 'limit', 'no_model']),
    error: ContractErrorSchema.optional(),
    /** chat.retry can take this turn up again (interrupted, failed or timed out, and its message stored). */
    retryable: z.boolean().optional(),
    /** The turn failed before the user's message could be stored: it is not in the conversation; give it back to the user. */
    unsent: z.string().optional(),
    usage: Usage.optional(),
  }),
  'session.updated': z.object({ session: SessionMeta }),
  'session.deleted': z.object({ id: z.string() }),
  /** The skill catalog changed (a file edited, a toggle, a trust decision, an install). Re-fetch skills.list. */
  'catalog.changed': z.object({
    workspace: z.string(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    changed: z.array(z.string()),
  }),
  /** An audit that was `checking` finished. */
  'audit.verdict': z.object({
    name: z.string(),
    audit: AuditState,
    /** The skill's row as skills.list would show it now (enabled may follow the verdict): lists patch one row. */
    skill: SkillSummary.optional(),
  }),
  'tools.mcpChanged': z.object({ servers: z.array(McpServerStatus) }),
  /** A skill source being fetched: the stage (fetching, checking-out, reading, auditing) and what. */
  'sources.progress': z.object({ stage: z.string(), detail: z.string(), words: Said.optional() }),
  'workspace.changed': z.object({ workspace: WorkspaceInfo }),
  /** A native menu item the renderer acts on (desktop only): start the install flow with a picked source. */
  'app.menuCommand': z.object({ command: z.enum(['install-skill-folder', 'install-skill-zip']) }),
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

// ───────────────────────────── the wire (both transports) ─────────────────────────────

/** A call's answer: a value or a ContractError, never a thrown exception across the boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError };
export const ResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ContractErrorSchema }),
]);

/** Serve mode's WebSocket frames (JSON text). Client → server: call. Server → client: result, event. */
export const ClientFrame = z.object({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  method: z.string().max(100),
  input: z.unknown(),
});
export const ServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: z.number().int().nonnegative(), result: ResultSchema }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;
export type ServerFrame = z.infer<typeof ServerFrame>;

/** Serve mode's WebSocket path (same origin as the page). */
export const SOCKET_PATH = '/ws';

/** Electron IPC channel names. */
export const IPC_PREFIX = 'knack:';
export const IPC_EVENT_CHANNEL = 'knack:event';

export function isMethodName(s: unknown): s is MethodName {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(methods, s);
}

export function isEventName(s: unknown): s is EventName {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(events, s);
}

/** Human-readable zod problems: `field.path: message`, one per line. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`).join('; ');
}

/**
 * A payload outside its schema, as a contract error: the zod problems as one line (the message, for the CLI and the
 * logs), and the first as words the window says in its language. Every problem has words: those zod reports for a
 * window's request are said for what they are, any other as the field and "is not valid".
 */
export function inputError(method: string, error: z.ZodError, details?: unknown): ContractError {
  const first = error.issues[0];
  const words = first ? issueWords(method, first) : say('contract.invalid', { method, field: '(input)' });
  return wordedError('invalid_input', words, details, `${method}: ${formatIssues(error)}`);
}

/** The words for a type zod expected, by its name there (`int` is a number with no fraction). */
const EXPECTED: Record<string, WordCode> = {
  string: 'json.what.string',
  number: 'json.what.number',
  int: 'contract.what.integer',
  boolean: 'json.what.boolean',
  object: 'json.what.object',
  array: 'json.what.list',
};

/** A length limit's words, by what has the length. */
const LENGTH: Record<string, [WordCode, WordCode]> = {
  string: ['contract.tooLong', 'contract.tooShort'],
  array: ['contract.tooMany', 'contract.tooFew'],
};

function issueWords(method: string, issue: z.core.$ZodIssue): Said {
  const at = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join('.') : '(input)');
  const field = at(issue.path);
  switch (issue.code) {
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      const limit = Number(big ? issue.maximum : issue.minimum);
      const length = LENGTH[issue.origin];
      if (length) return say(length[big ? 0 : 1], { method, field, limit });
      if (issue.origin === 'number') {
        const code = big
          ? issue.inclusive
            ? 'contract.atMost'
            : 'contract.lessThan'
          : issue.inclusive
            ? 'contract.atLeast'
            : 'contract.moreThan';
        return say(code, { method, field, limit });
      }
      break;
    }
    case 'invalid_type': {
      // zod names what it received only in its message: nothing there is a field left out.
      if (issue.message.endsWith('received undefined')) return say('contract.missing', { method, field });
      const what = EXPECTED[issue.expected];
      if (what) return say('contract.mustBe', { method, field, what: say(what) });
      break;
    }
    case 'invalid_value':
    case 'invalid_union': {
      // A discriminated union names the choices of its discriminator; another union, none.
      const values = issue.code === 'invalid_value' ? issue.values : 'options' in issue ? issue.options : undefined;
      if (values?.length)
        return say('contract.oneOf', {
          method,
          field,
          values: values.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(', '),
        });
      break;
    }
    case 'unrecognized_keys':
      return say('contract.unknownField', { method, field: at([...issue.path, issue.keys[0] ?? '']) });
  }
  return say('contract.invalid', { method, field });
}

export function contractError(code: ErrorCode, message: string, details?: unknown): ContractError {
  return details === undefined ? { code, message } : { code, message, details };
}

/**
 * A contract error said as words, the window says them in its language: its message is their English, or the fuller
 * one given (another program's text verbatim, for the CLI and the logs).
 */
export function wordedError(code: ErrorCode, words: Said, details?: unknown, message = english(words)): ContractError {
  return { ...contractError(code, message, details), words };
}
