// The policy gate's shared types: what a tool call touches, who acts, and the decision.
// Every tool call — by the model, by a skill script — is described by a ToolCall and passes authorize().

import type { Said } from '../base/index.js';
/** What a call would touch, as declared by the tool for these arguments. */
export interface Access {
  /** Paths the call reads (as given; the gate resolves real paths). */
  read?: string[];
  /** Paths the call writes or creates. */
  write?: string[];
  /** True when the call talks to the network. */
  network?: boolean;
  /** For multi-purpose tools (bash): the command line; never confined by string matching alone. */
  command?: string;
  /** The command asks to run WITHOUT the OS sandbox: always its own approval. */
  unsandboxed?: boolean;
  /** Host for network calls, when known. */
  host?: string;
}

export interface ToolCall {
  tool: string;
  args: Record<string, unknown>;
  access: Access;
}

export type Actor =
  /** The model, with the skills currently loaded in the conversation. */
  | { kind: 'agent'; activeSkills: string[] }
  /**
   * A skill's own script running in the sandbox. `identity`: the skill the script was started as (tier, real folder,
   * content hash when known); the gate refuses the call when that name now stands for another folder.
   */
  | { kind: 'skill'; skill: string; identity?: SkillIdentity }
  /** The user, directly (CLI `tools call`, UI action). */
  | { kind: 'user' };

export type Verdict = 'allow' | 'ask' | 'deny';

/** Which skill acts, as the gate identified it: not just a name (two tiers may hold skills of the same name). */
export interface SkillIdentity {
  name: string;
  /** builtin | user | project, when known. */
  tier?: string;
  /** Real path of the skill folder. */
  dir: string;
  /** Content hash of the skill folder (or the trusted hash), when known. */
  hash?: string;
}

export interface Decision {
  verdict: Verdict;
  /** One sentence a person can read: why. */
  reason: string;
  /** `reason` as words (a `gate.*` code and its parameters) the window says in its language. */
  words?: Said;
  /** The rule that decided, when one did. */
  ruleId?: string;
  /** That rule, described ("allow bash command \"git status\" in /ws"). */
  rule?: string;
  /** The rule's scope: the workspace and skill it is limited to, or "everywhere". */
  scope?: string;
  /** `rule` and `scope` as words the window says in its language. */
  ruleWords?: Said;
  scopeWords?: Said;
  /** The acting skill, when a skill's script makes the call. */
  skill?: SkillIdentity;
  /** For an `ask` to the agent: the skills loaded now, by identity ("always" then holds only while they are loaded). */
  loaded?: SkillIdentity[];
  /**
   * The real paths the gate checked (symlinks resolved). A file tool opens exactly these and refuses when the path
   * resolves elsewhere by the time it runs (a symlink swapped in between the check and the use).
   */
  paths?: { read: string[]; write: string[] };
  /**
   * The ask is there because the user's rules cannot all be read (a deny among them would otherwise stop applying):
   * only a person may answer it; `--yes` and other standing answers refuse.
   */
  rulesUnreadable?: boolean;
  /**
   * For a command: it runs inside the OS sandbox, reaching only these hosts through its proxy (ceiling ∩ the acting
   * skills' permissions.network, or the user's host rules). The tool must not run it any other way.
   */
  sandbox?: { hosts: string[] };
}

export interface Gate {
  authorize(call: ToolCall, actor: Actor): Decision;
}
