// What main says to a person, as words: a code plus parameters. The English of every code is in the one table below
// (the CLI prints it, the window falls back to it); the window says each code in its language (renderer/src/i18n).
//
//   say('loadDependency', { skill: 'git' })  → { code, params }   crosses the contract as it is
//   english(said)                            → "needed by git"     for the terminal, logs and stored text
//
// Pure data: main, the preload and the renderer import it (through contract.ts); it never imports Node.
import { z } from 'zod';

/** A message in words: its code (a key of WORDS) and its parameters (plain values, or words themselves). */
export interface Said {
  code: string;
  params?: { [name: string]: string | number | Said };
}

export const Said: z.ZodType<Said> = z.lazy(() =>
  z.object({
    code: z.string().min(1).max(200),
    params: z.record(z.string(), z.union([z.string(), z.number(), Said])).optional(),
  }),
);

/**
 * Every code and its English, `{{name}}` for a parameter. A code added here needs its Chinese in
 * renderer/src/i18n/words-zh.ts (the type holds it, and test/unit/renderer/words.test.tsx checks both say the same
 * parameters). Grouped by who says it.
 */
export const WORDS = {
  // why a skill was loaded into the conversation (agent session, matcher)
  loadNamed: 'named as {{text}}',
  loadTrigger: 'the trigger "{{trigger}}" matched "{{matched}}"',
  loadTriggerSynonym: 'the trigger "{{trigger}}" matched "{{matched}}" (synonym)',
  loadTriggerSkillSynonym: 'the trigger "{{trigger}}" matched "{{matched}}" (skill synonym)',
  loadName: 'its name "{{trigger}}" matched "{{matched}}"',
  loadNameSynonym: 'its name "{{trigger}}" matched "{{matched}}" (synonym)',
  loadNameSkillSynonym: 'its name "{{trigger}}" matched "{{matched}}" (skill synonym)',
  loadMatched: 'matched the message',
  loadOver:
    '{{why}}; chosen over the {{overTier}} skill {{over}}, matched by the same words (a {{tier}} skill wins them)',
  loadDependency: 'needed by {{skill}}',
  loadModel: 'the model asked for it',
  loadUser: 'loaded by the user',
  loadRecovered: 'SKILL.md changed since the session was saved',
  // the tiers a skill lives in, as a word inside another message
  tierBuiltin: 'built-in',
  tierUser: 'user',
  tierProject: 'project',
  // what an audit finding says: `audit.<rule id>` for each rule of the rule book (main/core/skills/trust/audit-rules.ts)
  'audit.destructive.rm-root':
    'recursive delete of the root, home or current folder (or of a variable path that is / when the variable is empty)',
  'audit.destructive.rm-root-spelled':
    'recursive delete of the root or home folder, spelled to slip past a plain reading ({rm,-rf,/}, $(RM) -r /, echo / | xargs rm -rf)',
  'audit.destructive.tree-root': 'recursive delete of the root or home folder from a script (rmtree / fs.rm)',
  'audit.destructive.disk': 'destroys a disk or the system (mkfs, dd to a device, fork bomb, chmod 777 /)',
  'audit.privilege.sudo': 'escalates privileges (sudo/doas/su)',
  'audit.exec.eval': 'evaluates a string as code (eval)',
  'audit.exec.shell-eval': 'evaluates generated text as shell commands (eval)',
  'audit.exec.exec': 'executes a string as code (exec)',
  'audit.exec.function-constructor': 'builds a function from a string (Function constructor)',
  'audit.exec.indirect-eval':
    'evaluates a string as code indirectly ((0, eval), a string timer, vm, a constructor call)',
  'audit.exec.dynamic-import': 'loads a module whose name is computed at run time (dynamic import of a built string)',
  'audit.exec.child-process': 'spawns system processes from a script (child_process)',
  'audit.exec.vm-module': 'loads the vm module or starts a Worker from a string (code built at run time)',
  'audit.exec.os-system': 'runs a shell command from a script (os.system / shell=True / popen)',
  'audit.exec.pipe-to-shell': 'downloads code and runs it straight away (curl … | sh)',
  'audit.exec.reverse-shell': 'opens a reverse shell',
  'audit.obfuscation.decode-exec': 'decodes hidden content and executes it',
  'audit.obfuscation.decode-pipe-shell':
    'turns encoded text back into commands and runs them (… | rev | sh, xxd -r -p | sh)',
  'audit.exfil.env-send': 'sends the whole environment (every key and token in it) over the network',
  'audit.exfil.sensitive-read': 'reads credentials or secrets (SSH/cloud keys, tokens, .env)',
  'audit.exfil.network-send': 'sends data over the network',
  'audit.exfil.instruction': 'tells the agent to send workspace data or secrets to an outside address',
  'audit.exfil.url-secret':
    'tells the agent to put secrets (keys, tokens, .env) into a URL it renders or opens: a disguised upload',
  'audit.exfil.url-data':
    'puts workspace or conversation data into a URL query (an image or link that sends it out when rendered or opened)',
  'audit.network.curl': 'downloads from the network (curl)',
  'audit.network.wget': 'downloads from the network (wget)',
  'audit.network.script-request': 'a script talks to the network',
  'audit.install.npm': 'installs packages (npm/npx/yarn/pnpm/bunx)',
  'audit.install.pip': 'installs packages (pip/uv/uvx/gem/cargo/go)',
  'audit.install.git-clone': 'fetches a repository (git clone)',
  'audit.install.system': 'installs system packages',
  'audit.exec.subprocess': 'a script starts other programs',
  'audit.remote.fetch-and-follow':
    'tells the agent to fetch instructions from an outside URL at run time (unverifiable, can change after review)',
  'audit.remote.script-fetch-exec': 'a script loads code from a URL at run time',
  'audit.secrets.hardcoded': 'contains what looks like a real credential (API key, token or private key)',
  'audit.install.registry-redirect':
    'installs from a non-default package registry (dependency confusion / registry redirection)',
  'audit.inject.capability-inflation': 'tries to make the agent pick this skill for everything or over other skills',
  'audit.autonomy.no-confirmation': "tells the agent to act without the user's confirmation",
  'audit.inject.ignore-instructions': 'tries to override the harness instructions ("ignore previous instructions")',
  'audit.inject.conceal': 'tells the agent to hide what it does from the user',
  'audit.inject.unrestricted': 'tries to switch the agent into an "unrestricted mode"',
  'audit.inject.disable-approvals': 'tries to disable approvals, the sandbox or the policy',
  'audit.inject.pre-answered': 'tells the agent that approvals are pre-answered, or to answer or widen them itself',
  'audit.inject.settings-change': "tells the agent to change Knack's settings (network, ceiling, sandbox)",
  'audit.inject.policy-change': 'tells the agent to change its own policy or permissions',
  'audit.inject.agent-config': 'writes into shell start-up files, agent config or git hooks (persists after removal)',
  'audit.exfil.credential-send': 'reads secrets (line {{line}}) and sends data over the network in the same file',
  'audit.hidden.ascii-smuggling':
    'text hidden in invisible Unicode tag characters (ASCII smuggling): the model reads it, you cannot see it',
  'audit.hidden.homoglyphs':
    '{{letters}} Cyrillic/Greek look-alike letter(s) inside Latin words on {{lines}} line(s): they read as English but are not; matched as the Latin letters',
  'audit.hidden.nul-bytes':
    'NUL bytes in a text file (they make tools treat it as binary and skip it); audited with them removed',
  'audit.structure.too-many-files': 'more than {{max}} files: the rest was not audited',
  'audit.structure.no-skill-md': 'no SKILL.md: this is not a skill folder',
  'audit.structure.symlink-escape':
    'a symlink points outside the skill folder (it can disguise reads of ~/.ssh or other private files)',
  'audit.structure.binary-executable': '{{kind}}: compiled code cannot be reviewed',
  'audit.manifest.hooks': 'declares hooks, which other agents run automatically as shell commands',
  'audit.manifest.unreadable': '{{error}}: the skill cannot be reviewed',
  'audit.manifest.permissions': '{{field}}: {{error}} (a permission request that cannot be read cannot be confined)',
  'audit.permissions.network': 'requests network access',
  'audit.permissions.command-tool':
    'requests {{tool}} with any command (each command still needs your approval or a rule)',
  'audit.permissions.widened': 'the update asks for more than the installed version: {{changes}}',
  auditNoted: '{{what}} ({{note}})',
  // a skill that cannot be loaded into a turn (main/core/skills/use/loader.ts)
  'loadError.notFound': 'no skill named "{{name}}"',
  'loadError.disabled': 'skill "{{name}}" is disabled in this workspace',
  'loadError.disabledWhy': 'skill "{{name}}" is disabled in this workspace ({{why}})',
  'loadError.dependencyMissing': 'skill "{{skill}}" depends on "{{missing}}", which is not installed',
  'loadError.dependencyDisabled': 'skill "{{skill}}" depends on "{{missing}}", which is disabled',
  'loadError.dependencyDisabledWhy': 'skill "{{skill}}" depends on "{{missing}}", which is disabled ({{why}})',
  'loadError.cycle': 'dependency cycle: {{cycle}}',
  'loadError.cannotRead': '{{file}}: cannot read: {{error}}',
  'loadError.tooLarge': '{{file}}: {{bytes}} bytes is over the {{limit}}-byte limit for a skill',
  'loadError.frontmatter': '{{file}}:{{line}}: {{error}}',
  'loadError.reason': '{{detail}}',
  skillMatchFailed: 'matching failed: {{error}}',
  // why a finding is asked about and not refused (main/core/skills/trust/audit.ts)
  'auditNote.referenceDoc':
    'in reference documentation: shown to the model when it reads the file, not run by the skill',
  'auditNote.testScript': 'in a test script',
  'auditNote.handed': 'handed to the user to run in their own terminal, not run by the skill',
  'auditNote.printed': 'text the script prints or writes into a document, not a command it runs',
  'auditNote.argv': 'a program started with its argument list, no shell',
  'auditNote.named': 'inside a file or URL name shown as data, not a command line',
  'auditNote.quoted': 'quoted as something to look for, with no word telling the agent to run it',
  'auditNote.negated': 'after a word that forbids something, which may not be about this command',
  auditTagText: 'invisible tag characters spell out text that {{what}}',
  auditObfuscated: 'hidden by string splitting or escapes: {{what}}',
  auditBase64: 'a base64 blob decodes to content that {{what}}',
  auditInvisible:
    '{{total}} invisible character(s) ({{kinds}}) on {{lines}} line(s): text the user cannot see; removed before matching',
  auditNotRegular: 'cannot read: no longer a regular file',
  auditCannotRead: 'cannot read: {{error}}',
  auditSkillMdTooLarge: '{{size}} bytes: SKILL.md is too large to audit, so its instructions cannot be reviewed',
  auditTooLargeToHash: '{{size}} bytes: too large to audit or to fingerprint',
  auditTooLarge: '{{size}} bytes: too large to audit',
  noteDescription: 'in the frontmatter description, which goes into every prompt',
  noteHtmlComment: 'inside an HTML comment: invisible when rendered, read by the model',
  noteInlineProgram: 'inside an inline {{interpreter}} program',
  invisibleZeroWidth: 'zero-width',
  invisibleBidi: 'bidi control',
  invisibleTag: 'tag',
  // lines of their own in the conversation
  noticeUnloadedByYou: '{{skill}} unloaded: unloaded by the user',
  noticeUnloaded: '{{skill}} unloaded: {{reason}}',
  noticeCompacted: '{{messages}} older messages summarised ({{before}} → {{after}} tokens)',
  noticeCompactedShort: '{{messages}} older messages summarised',
  noticeRecovered: 'recovered after an interruption ({{approvals}} approvals asked again, {{calls}} tool calls closed)',
  noticeRecoveredShort: 'recovered after an interruption',
  noticeSkillOffer: 'this task used {{calls}} tool calls; it can be saved as a skill',
  // a turn's state while it runs (the agent session: the provider's SDK sends the request again)
  turnRetrying: 'Retrying ({{attempt}} of {{of}})…',
  // why a model call failed, was cut off or timed out (main/core/agent/providers): `detail` is what the provider or its
  // connection said, verbatim (the window shows it as it is, in code); `at` is ' at <url>' (provider.at) or empty
  'provider.cancelled': 'cancelled',
  'provider.at': ' at {{url}}',
  'provider.theKey': 'the key',
  'provider.timeout': '{{provider}} did not answer in time{{at}} (request timed out)',
  'provider.stalled': '{{provider}} sent nothing for {{seconds}} s: the answer timed out',
  'provider.network': 'cannot reach {{provider}}{{at}}: network down or wrong base URL ({{detail}})',
  'provider.unreachable': 'cannot reach {{provider}}{{at}}: {{detail}}',
  'provider.auth': '{{provider}} refused the API key: check {{key}}',
  'provider.authStatus': '{{provider}} refused the API key ({{status}}): check {{key}}',
  'provider.model': '{{provider}} does not know the model "{{model}}"{{at}} ({{detail}})',
  'provider.context': "the conversation is too long for {{model}}'s context window ({{detail}})",
  'provider.rateLimit': 'rate limited by {{provider}}: try again in a moment ({{detail}})',
  'provider.overloaded': '{{provider}} is overloaded: try again in a moment',
  'provider.serverStatus': '{{provider}} had an internal error ({{status}}): {{detail}}',
  'provider.server': '{{provider}} had an internal error: {{detail}}',
  'provider.badRequest': '{{provider}} rejected the request: {{detail}}',
  'provider.other': '{{provider}}: {{detail}}',
  'provider.interrupted': 'the connection to {{provider}} was lost before the answer was complete',
  'provider.interruptedHow': 'the connection to {{provider}} was lost before the answer was complete ({{detail}})',
  'provider.endedWithout': 'the stream ended without {{event}}',
  // a provider that cannot be set up from the settings (main/core/agent/providers/settings.ts)
  'provider.unknown': 'unknown provider "{{id}}" (known: {{known}}; add your own in {{file}})',
  'provider.needsBaseUrl': 'provider "{{id}}" needs a base URL (--base-url or baseURL in {{file}})',
  'provider.needsModel': 'provider "{{id}}" needs a model (--model or model in {{file}})',
  'provider.noKey': 'no API key for {{id}}: set {{hint}} (or add it to {{file}}, mode 600)',
  'provider.keyField': '{{field}} in {{file}}',
  noModel: 'No model is set up: choose a provider and add its key in Settings',
  noModelBecause: 'No model is set up: {{why}}',
  // a providers.json that cannot be read or used as it is (main/core/agent/providers/settings.ts)
  'providersFile.cannotRead': '{{file}}: cannot read: {{error}}',
  'providersFile.notRegular': '{{file}}: not a regular file',
  'providersFile.readable':
    '{{file}}: readable by other users (mode {{mode}}); its API keys are ignored until you run chmod 600 on it',
  'providersFile.invalidJson': '{{file}}:{{line}}:{{column}}: invalid JSON: {{error}}',
  'providersFile.notObject': '{{file}}: must be a JSON object',
  'providersFile.fieldAt': '{{file}}:{{line}}: {{field}}: {{problem}}',
  'providersFile.field': '{{file}}: {{field}}: {{problem}}',
  'providersFile.object': 'must be an object',
  'providersFile.kind': 'must be "anthropic" or "openai"',
  'providersFile.string': 'must be a string',
  'providersFile.tokens': 'must be a number of tokens above 0',
  'providersFile.boolean': 'must be true or false',
  'providersFile.prices':
    'must be an object of "provider/model": {input, output, cacheRead, cacheWrite} (USD per million tokens)',
  'providersFile.price':
    'expected {input, output, cacheRead?, cacheWrite?} as non-negative USD per million tokens; ignored',
  // trusting every skill that waits for it (Trust all…)
  trustAllNothing: 'nothing needs trust',
  trustAllWould: 'would trust {{skills}}',
  trustAll: 'trusted {{skills}}',
  trustAllRefused: '{{done}}; {{refused}} refused (P0 skills are never trusted)',
  trustWidenedSinceUse: 'permissions widened since last use',
  // trusting a skill refused (main/core/skills/trust/trust.ts, bulk-trust.ts, the service's skills.trust)
  'trust.p0': 'P0 skills cannot be trusted: {{summary}}',
  'trust.p0Now': 'it is P0 now; P0 skills are never trusted',
  'trust.changedAfterReview': 'its files changed after the review; review it again',
  'trust.changedSinceShown': '"{{name}}" changed since it was shown (hash {{from}} → {{to}}); review it again',
  'trust.changedWhileTrusting': '"{{name}}" changed while it was being trusted; review it again',
  'trust.notFound': 'no skill named "{{name}}" in this workspace',
  skillCountOne: '{{n}} skill',
  skillCountMany: '{{n}} skills',
  // why a skill is off (main/core/skills/trust/trust.ts, catalog/catalog.ts): the sidebar's switch and the detail say it
  'skillOff.user': 'disabled by the user in this workspace',
  'skillOff.switchesUnreadable': "could not read this workspace's skill switches: {{error}}",
  'skillOff.reviewFailed': 'trust review failed: {{error}}',
  'skillOff.couldNotAudit': 'could not audit: {{error}}',
  'skillOff.frontmatterMismatch': 'could not audit: the audit read another SKILL.md frontmatter than the catalog shows',
  'skillOff.changedUnreadable':
    'could not audit: SKILL.md changed while it was audited and could not be read again ({{error}})',
  'skillOff.p0': 'audit P0 (refused): {{summary}}',
  'skillOff.p1': 'audit P1, not trusted yet: {{summary}} — run `knack skills trust {{name}}`',
  'skillOff.widened': 'permissions widened since last use ({{added}}): run `knack skills trust {{name}}` to accept',
  'skillOff.checking': 'checking: the audit has not finished yet',
  'skillOff.checkingChanged': 'checking: SKILL.md changed while it was audited; reading it again',
  'skillOff.wouldShadow': '{{hold}} — would shadow {{tier}} {{name}}',
  'skillOff.wouldShadowWhy': '{{hold}} — would shadow {{tier}} {{name}}: {{reason}}',
  'shadowTier.builtin': 'builtin',
  'shadowTier.user': 'user',
  'shadowTier.project': 'project',
  'hold.refused': 'refused',
  'hold.pending': 'pending trust',
  'hold.checking': 'checking',
  trustFinding: '{{file}}:{{line}} {{rule}}: {{message}}',
  trustFindingMore: '{{file}}:{{line}} {{rule}}: {{message}} (+{{more}} more)',
  trustNoFinding: 'no finding',
  trustAndContent: '{{first}}; content {{level}}',
  trustAndManifest: '{{first}}; manifest {{level}}',
  trustBoth: 'manifest {{level}}: {{manifest}}; content {{level}}: {{content}}',
  // what an install or update led to (main/core/skills/trust/install.ts)
  'install.notFound': '{{source}} does not exist',
  'install.notFolderOrZip': '{{source}} is neither a folder nor a .zip',
  'install.noSkillMd': 'no SKILL.md in {{folder}} (at the top, or in its single folder)',
  'install.tierInside':
    'the skills folder {{tierRoot}} lies inside the skill being installed ({{source}}); install from a folder outside it',
  'install.badName': 'skill name "{{name}}" cannot be a folder name (letters, digits and "-", at most 64)',
  'install.changed':
    '{{name}} changed after it was reviewed (content {{from}} → {{to}}); nothing was installed; install it again to review it',
  'install.p0': 'P0: {{finding}}',
  'install.exists': 'skill "{{name}}" is already installed at {{dest}}; updating replaces it (use --update / replace)',
  'install.pending': 'P1: needs your approval ({{findings}} finding(s))',
  'install.alreadyDecided': 'approval {{id}} was already decided; nothing was installed',
  'install.noApproval': 'no approval with id {{id}}',
  'install.approvalIs': 'approval {{id}} is already {{status}}',
  'install.discovered': 'approval {{id}} is for a discovered skill: use trust',
  'install.gone': 'approval {{id}} is no longer available: {{source}} is gone; reject it to dismiss it',
  'install.replaced': 'replaced the installed version',
  'install.otherContent': 'approval {{id}} is for content {{stored}}, not the {{shown}} shown',
  'install.failed': 'cannot install {{source}}: {{error}}',
  'install.heldCopy':
    '{{source}} is a copy Knack holds for an install waiting for approval: approve or reject that install, or install from where the skill came from',
  'install.holdsHeld':
    '{{source}} holds {{data}}, where Knack keeps the copies of skills for installs waiting for approval: name the folder of the skill itself',
  // a .zip or a folder that cannot be unpacked or copied into place (main/core/skills/trust/install.ts)
  'zip.entry': 'zip entry "{{entry}}" {{problem}}',
  'zip.nul': 'contains a NUL byte',
  'zip.backslash': 'uses a backslash',
  'zip.absolute': 'is an absolute path',
  'zip.climbs': 'climbs out with ".."',
  'zip.outside': 'would land outside the skill folder',
  'zip.twice': 'cannot be unpacked: it appears twice (as a file and a folder, or in two spellings)',
  'zip.underFile': 'cannot be unpacked: it sits inside a path the zip also has as a file',
  'zip.cannotWrite': 'cannot be unpacked: {{error}}',
  'zip.tooMany': 'the zip has more than {{max}} entries',
  'zip.tooBig': 'the zip unpacks to more than {{max}} bytes',
  'zip.unreadable': 'cannot read the zip {{file}}: {{error}}',
  'zip.damaged': 'its data is damaged or cut short',
  'zip.notZip': 'it is not a zip archive',
  'zip.method': 'it uses a compression method that cannot be unpacked',
  'copy.linkBroken': 'symlink {{link}} is broken',
  'copy.linkOutside': 'symlink {{link}} points outside the skill folder (to {{target}})',
  'copy.failed': 'cannot copy {{file}}: {{error}}',
  // a .zip dropped on the window (main/core/service/uploads.ts)
  'upload.notZipName': '{{file}} is not a .zip (drop a skill packed as .zip, or give a folder path)',
  'upload.tooBig':
    '{{file}} is {{size}} bytes; the largest accepted upload is {{max}} bytes (install larger skills from a folder)',
  'upload.notZip': '{{file}} is not a zip archive (its first bytes are not "PK")',
  // why a file could not be read, written or copied (main/core/base/fs-words.ts)
  'fs.EACCES': 'permission denied',
  'fs.EPERM': 'operation not permitted',
  'fs.ENOENT': 'no such file or folder',
  'fs.ENOSPC': 'no space left on the disk',
  'fs.EROFS': 'the file system is read-only',
  'fs.ELOOP': 'too many symlinks in a row',
  'fs.EISDIR': 'it is a folder',
  'fs.ENOTDIR': 'a part of the path is not a folder',
  'fs.EEXIST': 'it already exists',
  'fs.EIO': 'the disk could not be read or written',
  'fs.ENAMETOOLONG': 'the path is too long',
  'fs.ENOTREG': 'not a regular file (a pipe, socket or device)',
  'fs.other': '{{error}}',
  // skill folders whose changes are not followed: a watch that could not be made or ended (service/watch-problems.ts)
  'catalog.unwatched':
    'Skill changes are not followed in {{count}} folder(s), {{folder}} among them ({{error}}): the skill list may be out of date. Reload the workspace to read the skills again.',
  'catalog.unwatchedLimit':
    'Skill changes are not followed in {{count}} folder(s), {{folder}} among them: the system has no file watch left (ENOSPC). Raise the limit with {{command}} (in /etc/sysctl.d to keep it); until then, reload the workspace to read the skills again.',
  'catalog.refreshFailed':
    'The skill list could not be read again after a change ({{error}}): it may be out of date. Reload the workspace to read the skills again.',
  // what is wrong in a SKILL.md (main/core/skills/format): the file, line and field are shown beside it
  'diag.noStart': 'SKILL.md must start with YAML frontmatter (---)',
  'diag.unclosed': 'SKILL.md frontmatter not properly closed with ---',
  'diag.notMapping': 'SKILL.md frontmatter must be a YAML mapping',
  'diag.duplicateKey':
    'Invalid YAML in frontmatter: duplicate key (keys must be unique; parsers disagree on which one wins)',
  'diag.yaml': 'Invalid YAML in frontmatter: {{error}}',
  'diag.yamlQuote': 'Invalid YAML in frontmatter: {{error}} (a value containing ": " must be quoted)',
  'diag.unknownField': 'Unexpected fields in frontmatter: {{field}} (unknown key, kept but not used)',
  'diag.missingField': 'Missing required field in frontmatter: {{field}}',
  'diag.nameType': "Field 'name' must be a string",
  'diag.nameQuote': "Field 'name' should be a string (quote it: name: '{{name}}')",
  'diag.description': "Field 'description' must be a non-empty string",
  'diag.nameCase': "Skill name '{{name}}' must be lowercase",
  'diag.nameLength': "Skill name '{{name}}' exceeds {{max}} character limit ({{length}} chars)",
  'diag.nameHyphenEnds': 'Skill name cannot start or end with a hyphen',
  'diag.nameHyphens': 'Skill name cannot contain consecutive hyphens',
  'diag.nameChars': "Skill name '{{name}}' contains invalid characters. Only letters, digits, and hyphens are allowed.",
  'diag.folderName': "Directory name '{{folder}}' must match skill name '{{name}}'",
  'diag.fileMissing': 'Missing required file: SKILL.md',
  'diag.fileFolder': 'SKILL.md is a folder, not a file',
  'diag.fileUnreadable': 'cannot read file: {{error}}',
  'diag.encoding': 'the frontmatter is not valid UTF-8 (bad bytes are read as \ufffd); save the file as UTF-8',
  'diag.why.empty': 'is empty',
  'diag.why.control': 'contains control characters',
  'diag.why.separator': 'contains a path separator',
  'diag.why.space': 'contains whitespace (use hyphens: "my-skill")',
  'diag.nameUnusable': "Skill name '{{name}}' {{why}}",
  'diag.nameSlugged':
    "Skill name '{{name}}' {{why}}; it is invoked as '{{slug}}' and '{{name}}' is kept as its display title",
  'diag.titleDiffers': 'title "{{title}}" and name "{{name}}" differ; using name',
  'diag.fieldString': '{{field}} must be a string (ignored)',
  'diag.itemString': 'must be a string (ignored)',
  'diag.stringList': 'must be a string or a list of strings (ignored)',
  'diag.agentCreated': 'agent_created must be true or false (treated as false)',
  'diag.summaryDiffers': 'summary and description differ; using description',
  'diag.descriptionLength': 'Description exceeds {{max}} character limit ({{length}} chars)',
  'diag.license': 'license must be a string',
  'diag.compatibility': "Field 'compatibility' must be a non-empty string",
  'diag.compatibilityLength': 'Compatibility exceeds {{max}} character limit ({{length}} chars)',
  'diag.allowedTools': 'allowed-tools must be a list or a space/comma separated string',
  'diag.metadata': 'metadata must be a mapping of strings',
  'diag.metadataValue': 'metadata values must be strings (kept as JSON)',
  'diag.fileNotRegular': 'SKILL.md is not a regular file (a pipe, socket or device)',
  'diag.tooLargeUnclosed': 'frontmatter is larger than {{limit}} KiB (no closing --- found within the limit)',
  'diag.tooLarge': 'frontmatter is {{size}} bytes; the limit is {{limit}} KiB',
  // what is wrong in a SKILL.md's `permissions` or `allowed-tools` (main/core/policy/permissions.ts): field beside it
  'permissions.notTool': '"{{entry}}" is not a tool name (letters, digits, "_", "-", "."; optional "(command:*)")',
  'permissions.commandOnly': '"{{entry}}": only command tools ({{tools}}) take a "(command)" pattern',
  'permissions.both': 'both "permissions" and "allowed-tools" are given; the skill gets only what both allow',
  'permissions.list': 'must be a list of strings, got {{got}}',
  'permissions.tooMany': 'has {{count}} entries; at most {{max}} are allowed',
  'permissions.string': 'must be a string, got {{got}}',
  'permissions.tooLong': 'is longer than {{max}} characters',
  'permissions.block': 'must be a mapping {tools, network, paths}, got {{got}}',
  'permissions.unknownField': 'unknown field "{{key}}" (allowed: tools, network, paths)',
  'permissions.unknownPathsField': 'unknown field "{{key}}" (allowed: read, write)',
  'permissions.host': 'must be a host name like api.example.com or *.example.com, got {{got}}',
  'permissions.tooManyHosts': 'at most {{max}} hosts',
  'permissions.network': 'must be true, false or a list of hosts, got {{got}}',
  'permissions.paths': 'must be a mapping {read, write}, got {{got}}',
  'permissions.glob': '"{{glob}}" {{problem}}',
  'permissions.got.null': 'null',
  'permissions.got.list': 'a list',
  'permissions.got.mapping': 'a mapping',
  'permissions.got.string': 'string {{value}}',
  'permissions.got.number': 'number {{value}}',
  'permissions.got.boolean': 'boolean {{value}}',
  'permissions.got.other': '{{type}} {{value}}',
  'permissions.where.skill': 'the skill folder',
  'permissions.where.workspace': 'the workspace',
  'permissions.path.empty': 'is empty',
  'permissions.path.control': 'contains a control character',
  'permissions.path.leaves': 'leaves {{where}} (".." is not allowed)',
  'permissions.path.leavesSpelled':
    'leaves {{where}} (".." is not allowed, also not percent-encoded or in look-alike characters)',
  'permissions.path.backslash': 'uses a backslash (write paths with "/")',
  'permissions.path.unc': 'is a UNC/network path (paths are relative)',
  'permissions.path.absolute': 'is an absolute path (paths are relative to {{where}})',
  'permissions.path.drive': 'has a drive letter (paths are relative)',
  'permissions.path.home': 'points into a home folder (paths are relative)',
  'permissions.path.url': 'is a URL, not a path',
  'permissions.path.noPath': 'names no path after "skill:"',
  'permissions.path.skillReadOnly': 'writes into the skill folder, which is read-only',
  // the strict lint's own (the Agent Skills reference validator's verdict; Knack itself reads these)
  'diag.bom': 'SKILL.md must start with YAML frontmatter (---): the file starts with a byte order mark (BOM)',
  'diag.flow':
    'Invalid YAML in frontmatter: flow style ([a, b] / {a: b}) is not allowed by the reference validator (strictyaml); use block style',
  'diag.unexpectedFields': 'Unexpected fields in frontmatter: {{fields}}. Only [{{allowed}}] are allowed.',
  'diag.tag': 'Invalid YAML in frontmatter: custom tags are not allowed ({{error}})',
  // a skill's own synonym groups (synonyms:) it cannot use (main/core/search/synonyms.ts)
  'diag.synonymsList': 'synonyms must be a list of groups (ignored)',
  'diag.synonymsGroup': 'expected a list of phrases (ignored)',
  'diag.synonymsTwo': 'a group needs at least two phrases (ignored)',
  'diag.synonymsMany': 'more than {{max}} groups (rest ignored)',
  // two skills of one name in one tier (main/core/skills/catalog/catalog.ts)
  'diag.nameDuplicate': 'another {{tier}} skill is also named "{{name}}" ({{file}}); that one is used',
  // walking the skills folders (main/core/skills/catalog/discover.ts)
  'discovery.root': 'cannot read {{tier}} skills folder: {{error}}',
  'discovery.skillUnreadable': 'cannot read SKILL.md: {{error}}',
  'discovery.unreadable': 'cannot list folder: {{error}}',
  'discovery.symlink': 'broken symbolic link: {{error}}',
  'discovery.loop': 'symbolic link leads to a folder already visited ({{target}}); skipped',
  'discovery.depth': '{{count}} folder(s) deeper than {{max}} levels were not searched (setting discovery.maxDepth)',
  'discovery.folders':
    'stopped after {{max}} folders; skills beyond that were not searched (setting discovery.maxFolders)',
  // checking paths given to the lint (main/core/skills/catalog/lint.ts)
  'lint.path': 'Path does not exist',
  'lint.pathUnreadable': 'cannot read: {{error}}',
  'lint.notDir': 'Not a directory: {{path}} (give a skill folder, its SKILL.md, or a folder of skills)',
  'lint.noSkill': 'Missing required file: SKILL.md (and no skill folders below it)',
  // what is wrong in a settings.json (main/core/config/settings.ts): the file, line and field are shown beside it
  'settings.unknown': 'unknown setting "{{field}}" (ignored)',
  'settings.object': '"{{field}}" must be an object',
  'settings.read': 'cannot read settings: {{error}}',
  'settings.json': 'invalid JSON: {{error}}',
  // a settings file that does not read cleanly keeps the permission ceiling from widening (config/settings.ts, workspace.ts)
  'settings.keptDefaults': 'does not read cleanly: until it is fixed, the narrowest of the defaults applies',
  'settings.keptLastGood':
    'does not read cleanly: until it is fixed, the narrowest of the last good permission ceiling and the defaults applies',
  'settings.keptLive':
    'not applied beyond the permission ceiling in force: until this file is fixed, settings can take permissions away but not give them',
  'settings.notObject': 'settings must be a JSON object',
  // the store that keeps each scope's last good permission ceiling could not be read or written (config/settings.ts)
  'settings.memoryRead': 'cannot read the last good ceiling: {{error}}',
  'settings.memorySave': 'cannot keep this ceiling as the last good one: {{error}}',
  // a workspace's settings may narrow what the user's allow, never widen it (config/settings.ts: narrowCeiling)
  'settings.widen.tools': 'a workspace cannot offer tools your user settings do not; ignored',
  'settings.widen.network': 'a workspace cannot turn the network on; set it in your user settings',
  'settings.widen.roots': 'a workspace cannot add roots ({{roots}}); ignored',
  'settings.widen.sandbox': 'a workspace cannot loosen the sandbox ("{{mode}}" after your "{{userMode}}"); ignored',
  'settings.mustBe': '"{{field}}" must be {{what}}',
  'settings.mustBeGot': '"{{field}}" must be {{what}} (got {{got}})',
  'settings.what.strings': 'a list of strings',
  'settings.what.object': 'an object',
  'settings.what.boolean': 'a boolean',
  'settings.what.number': 'a number',
  'settings.what.string': 'a string',
  'settings.what.other': 'a {{type}}',
  'settings.what.levels': 'a whole number of folder levels, 0 or more',
  'settings.what.folders': 'a whole number of folders, 1 or more',
  'settings.what.tokens1': 'a whole number of tokens, 1 or more',
  'settings.what.tokens0': 'a whole number of tokens, 0 or more',
  'settings.what.share': 'a share of the context window above 0 and at most 1 (0.02 = 2%)',
  'settings.what.seconds': 'a number of seconds from 0 (never) to 86400',
  // why the gate allowed, asked about or refused a tool call (main/core/policy/gate.ts)
  'gate.malformed': 'refused: {{why}}',
  'gate.unchecked': 'refused: the call could not be checked ({{error}})',
  'gate.notForSkills':
    '{{tool}} cannot be used by a skill\'s script (skill "{{skill}}"): it would act as another skill; scripts cannot start scripts',
  'gate.notOffered': '{{tool}} is not offered in this workspace (settings policy.ceiling.tools)',
  'gate.networkOff': '{{tool}} needs the network, which is off for this workspace (settings policy.ceiling.network)',
  'gate.socketOff':
    '{{tool}} would open a network connection through {{socket}}, and the network is off for this workspace (settings policy.ceiling.network)',
  'gate.readOutside': '{{tool}} cannot read {{path}}: it is outside the workspace and the allowed read roots',
  'gate.readOutsideLink':
    '{{tool}} cannot read {{path}}: it is outside the workspace (a symlink points out of it) and the allowed read roots',
  'gate.writeOutside': '{{tool}} cannot write {{path}}: it is outside the workspace and the allowed write roots',
  'gate.writeOutsideLink':
    '{{tool}} cannot write {{path}}: it is outside the workspace (a symlink points out of it) and the allowed write roots',
  'gate.skillFolderReadOnly': '{{tool}} cannot write {{path}}: skill folders are read-only',
  'gate.unknownSkill': 'unknown skill "{{skill}}": its permissions cannot be checked',
  'gate.identityChanged':
    'the script was started as skill "{{name}}" from {{from}}, but that name now stands for {{now}}: a script keeps the identity it was started with',
  'gate.placeTier': '{{dir}} ({{tier}} tier)',
  'gate.manifestAgent': '{{problem}}; while it is loaded, the agent stays inside its manifest',
  'gate.manifestSkill': '{{problem}}; a skill gets only what it declared',
  'gate.mf.noPermissions': 'skill "{{skill}}" declares no permissions (scripts get no tools)',
  'gate.mf.noTool': 'skill "{{skill}}" does not request the tool {{tool}}',
  'gate.mf.notPlain':
    'skill "{{skill}}" may only run commands starting {{patterns}}, and this command line is not plain words ({{why}})',
  'gate.mf.notCovered': 'skill "{{skill}}" may only run commands starting {{patterns}}, not "{{command}}"',
  'gate.mf.noNetwork': 'skill "{{skill}}" did not request network access',
  'gate.mf.read': 'skill "{{skill}}" may not read {{path}} (its read paths: {{paths}})',
  'gate.mf.write': 'skill "{{skill}}" may not write {{path}} (its write paths: {{paths}})',
  'gate.mf.ownFolderOnly': 'its own folder only',
  'gate.ruleDenies': 'your rule "{{rule}}" denies this',
  'gate.ruleAsks': 'your rule "{{rule}}" asks every time',
  'gate.ruleMayDeny':
    'this line may run what your rule "{{rule}}" denies, and that cannot be known before it runs ({{why}}): approve it this once or not',
  'gate.ruleMayAsk':
    'this line may run what your rule "{{rule}}" asks about, and that cannot be known before it runs ({{why}}): approve it this once or not',
  'gate.rulesUnreadable': 'your rules cannot be read ({{why}}): every tool call asks, and --yes does not answer',
  'gate.unsandboxedForbidden':
    '{{tool}} asks to run WITHOUT the sandbox, which this workspace forbids (settings sandbox.mode "required")',
  'gate.sandboxRequired':
    '{{tool}} is refused: this workspace requires the sandbox (settings sandbox.mode "required") and it is unavailable: {{reason}}',
  'gate.sandboxDownRule':
    '{{tool}} would run WITHOUT the sandbox, which is unavailable ({{reason}}): every command asks until it is back, your rule "{{rule}}" included',
  'gate.unsandboxed':
    '{{tool}} runs WITHOUT the sandbox: the command can write anywhere you can, read your secrets and reach any host. Approve only if it must get out (a write outside the workspace, a host not allowed, a denied read)',
  'gate.protectedWrite':
    "{{tool}} would write {{path}}, which can change Knack's settings, skills or hooks (or what git runs): confirm each time",
  'gate.protectedWriteAs':
    "{{tool}} would write {{path}} ({{what}}), which can change Knack's settings, skills or hooks (or what git runs): confirm each time",
  'gate.own.file': "Knack's own {{file}} at {{path}}",
  'gate.own.workspaceFile': "Knack's own {{file}} of this workspace, .workbuddy/{{file}}",
  'gate.own.folder': "Knack's own folder {{path}}",
  'gate.own.workspaceFolder': "this workspace's {{folder}} folder",
  'gate.internal': '{{tool}} would contact {{host}}, {{kind}}: approve this once, or allow that exact host',
  'host.loopback': 'a loopback address (this computer)',
  'host.private': 'a private network address',
  'host.linkLocal': 'a link-local address (where cloud metadata services answer)',
  'host.unspecified': 'the unspecified address (this computer)',
  'host.carrierGradeNat': 'a carrier-grade NAT address (also used by cloud metadata services)',
  'host.reserved': 'a reserved address ({{kind}})',
  'gate.allowedByRule': 'allowed by your rule "{{rule}}"',
  'gate.allowedByRules': 'allowed by your rules {{rules}}',
  'gate.quoted': '"{{text}}"',
  'gate.sandboxed':
    '{{tool}} runs inside the sandbox: it writes only in the workspace, cannot read your secrets and reaches only allowed hosts',
  'gate.destructive':
    '{{tool}} would run {{harm}} inside the workspace: the sandbox protects the machine, not your uncommitted work — approve this once or not',
  'gate.notPlain':
    '{{tool}} would run a command line that is not plain words ({{why}}): no rule can cover it, approve it this once or not',
  'gate.command':
    '{{tool}} can do anything its command says and cannot be confined by string matching: approve this command or add a rule (e.g. allow commands starting "{{start}}")',
  'gate.userDirect': 'you asked for it directly and it stays inside the workspace ceiling',
  'gate.contact': '{{tool}} would contact {{host}}: approve or add a rule for this host',
  'gate.theNetwork': 'the network',
  'gate.write': '{{who}} wants to write {{paths}}: approve or add a rule allowing {{tool}} here',
  'gate.read': 'reading {{paths}} stays inside the allowed roots',
  'gate.touchesNothing': '{{tool}} touches no files, network or commands',
  'gate.who.skill': 'skill "{{skill}}"',
  'gate.who.you': 'you',
  'gate.who.agent': 'the agent',
  'gate.who.agentWith': 'the agent (skills loaded: {{skills}})',
  // a rule of the user's, described (Settings → rules, the gate's reasons; main/core/policy/rules.ts)
  'rule.allow': 'allow',
  'rule.ask': 'ask',
  'rule.deny': 'deny',
  'rule.head': '{{effect}} {{tool}}',
  'rule.command': 'command "{{command}}"',
  'rule.path': 'path {{path}}',
  'rule.host': 'host {{host}}',
  'rule.in': 'in {{workspace}}',
  'rule.everywhere': 'everywhere',
  'rule.scopeWorkspace': 'workspace {{workspace}}',
  'rule.scopeAll': 'every workspace',
  'rule.skillByName':
    'for skill {{name}} (by name only: a user or built-in skill of that name; add it again with --skill to bind it to one folder and content)',
  'rule.skillBound': 'for skill {{identity}}',
  'rule.whileLoaded': 'while skill {{skills}} is loaded',
  'rule.whileLoadedMany': 'while skills {{skills}} are loaded',
  'rule.skillUnreadable': 'for skill scope "{{scope}}" (unreadable: it matches nothing)',
  'rule.identity': '{{name}} ({{tier}}, {{dir}}, {{content}})',
  'rule.tier': '{{tier}} tier',
  'rule.anyTier': 'any tier',
  'rule.content': 'content {{hash}}',
  'rule.anyContent': 'any content',
  'rule.anyContentOld': 'any content: stored before rules were bound to content; add it again with --skill to bind it',
  // the OS sandbox's state, why it is not there and the line that fixes it (main/core/contain)
  'sandbox.offInSettings': 'turned off in settings (sandbox.mode)',
  'sandbox.runtimeNotLoaded': 'the sandbox runtime did not load: {{error}}',
  'sandbox.noOsSandbox': 'no OS sandbox for {{os}}',
  'sandbox.didNotStart': 'the sandbox did not start: {{error}}',
  'sandbox.notInstalled': '{{programs}} not installed (no executable file of that name in a folder on PATH)',
  'sandbox.probeFailed': 'a test command did not run inside the sandbox (exit {{code}}); user namespaces may be off',
  'sandbox.proxyStopped': 'the sandbox network proxy stopped; reopen the workspace to restart it',
  'sandbox.closed': 'its workspace was closed',
  'sandbox.hintOff': 'set "sandbox": {"mode": "auto"} in settings',
  'sandbox.hintLinux':
    'install bubblewrap, socat and ripgrep (Debian/Ubuntu: {{apt}}; Fedora: {{dnf}}), and allow unprivileged user namespaces',
  'sandbox.hintDarwin': 'sandbox-exec is part of macOS; update macOS or report the reason above',
  'sandbox.hintWindows': 'run `{{command}}` as administrator (the sandbox runtime sets up its own Windows user)',
  'sandbox.hintOther': 'no OS sandbox on {{os}}: set "sandbox": {"mode": "auto"} to approve every command',
  // what the OS sandbox blocked during one command (main/core/contain), and the bash tool's error that names it
  'wall.blocked':
    'the sandbox blocked {{blocked}} (exit {{exit}}). If the task needs it, call bash again with sandbox: false: it runs WITHOUT the sandbox and the user is asked.',
  'wall.networkRefused': 'network: {{host}} refused',
  'wall.networkRefusedWhy': 'network: {{host}} refused ({{why}})',
  'wall.why.notAllowed':
    "it is not among the hosts allowed to this command: the ceiling's network with the acting skills' permissions.network, or an MCP server's network list",
  'wall.why.notOnAllowList': 'the host is not on the allow list',
  'wall.why.denyList': 'the host is on the deny list',
  'wall.why.malformedHost': 'the host name is malformed',
  'wall.why.denied': 'denied',
  'wall.why.askFailed': 'asking whether to allow it failed',
  'wall.why.noPolicy': "the sandbox's network policy was not available",
  'wall.why.resolvedTo': 'its name resolves to {{addresses}}',
  'wall.address.denyListed': 'a deny-listed address',
  'wall.address.loopback': 'a loopback address (this computer)',
  'wall.address.unspecified': 'an unspecified address (this computer)',
  'wall.address.linkLocal': 'a link-local address (where cloud metadata services answer)',
  'wall.address.multicast': 'a multicast address',
  'wall.address.broadcast': 'the broadcast address',
  'wall.address.cloudMetadata': 'a cloud metadata address',
  'wall.address.listed': 'a listed address',
  'wall.address.thisHost': "one of this computer's own addresses",
  'wall.address.nonLoopback': 'an address that is not loopback',
  'wall.address.unparsable': 'an address that cannot be read',
  'wall.networkNotAllowed': 'network: a host not allowed for this command was refused',
  'wall.networkDirect':
    'network: {{host}} refused (inside the sandbox, commands reach only the hosts allowed to them, through its proxy)',
  'wall.aHostName': '(a host name)',
  'wall.aDirectConnection': '(a direct connection)',
  'wall.writeOutside': 'write: {{path}} is outside what this command may write',
  'wall.linkOutside':
    'hard link: {{path}} is outside what this command may write, so it cannot be linked in (it would be writable through the link); copy it instead. It is unchanged',
  'wall.writeProtected':
    'write: {{path}} is protected (it can run programs or change Knack or git): it is read-only to commands',
  'wall.readSecret': 'read: {{path}} holds secrets no command may read',
  'wall.movedAside':
    'write: {{path}} is protected (it can run programs or change Knack or git): {{effect}} appeared there while the command ran; moved aside to {{aside}}. If you made it yourself, move it back once no command runs: {{command}}',
  'wall.moveAsideFailed':
    'write: {{path}} is protected: {{effect}} appeared there while the command ran, and moving it aside failed ({{error}}); remove it before running git or Knack here',
  'wall.effectLink': 'a symbolic link',
  'wall.effectGitFile': 'a .git file, which points git at another folder',
  'wall.effectHooks': 'git hooks ({{hooks}})',
  'wall.effectGitConfig': 'git settings that can run programs',
  'wall.effectContent': 'content',
  'wall.effectUnreadable': 'something unreadable ({{error}})',
  // a skill source that cannot be read, reached or listed (main/core/skills/sources)
  'source.empty': 'the source is empty',
  'source.dash': 'source "{{source}}" starts with "-"',
  'source.space': 'source "{{source}}" contains white space',
  'source.transport': '{{source}}: the {{scheme}}:// transport is not accepted (https, ssh or file)',
  'source.notHost': '{{source}}: "{{host}}" is not a host',
  'source.plainHttp': '{{source}}: plain http is accepted only for this machine; use https',
  'source.unknownKind':
    '{{source}}: not a folder, a .zip, a git URL (https, ssh, file), owner/repo, or a marketplace.json URL',
  'source.timeout': '{{source}}: timed out after {{seconds}} s',
  'source.tooLarge': '{{source}}: the repository is larger than {{limit}} (the limit)',
  'source.noRef': '{{source}}: ref "{{ref}}" does not exist',
  'source.noRepo': '{{source}}: no such repository',
  'source.blocked': '{{source}}: the sandbox blocked the connection; a fetch may reach only its host',
  'source.unreachable': '{{source}}: cannot be reached (network error: the host did not answer)',
  'source.gitFailed': '{{source}}: git failed ({{why}})',
  'source.noCommit': '{{source}}: commit {{sha}} does not exist (got {{got}})',
  'source.noPath': '{{source}}: path "{{path}}" does not exist at {{at}}',
  'source.pathLink': '{{source}}: path "{{path}}" leads out of the repository through a symlink',
  'source.pathNotFolder': '{{source}}: path "{{path}}" is not a folder',
  'source.noSkill': '{{source}}: no SKILL.md in it or its folders: not a skill folder',
  'source.noSkillAt': '{{source}}: no SKILL.md in "{{path}}"',
  'source.noSkillInRepo': '{{source}}: no SKILL.md in the repository',
  'source.changed': '{{name}}: changed since it was reviewed (content {{from}} → {{to}}); fetch it again and review it',
  'source.refChars': 'ref "{{ref}}" has characters a ref cannot have',
  'source.refInvalid': 'ref "{{ref}}" is not a valid ref',
  'source.refAt': '{{source}}: {{problem}}',
  'source.pathOutside': '{{what}} "{{path}}" must stay inside the repository (relative, no "..")',
  'source.what.path': 'path',
  'source.what.skillFolder': 'skill folder',
  'source.linkOutside': 'symlink {{link}} points outside the skill folder',
  'source.skillProblem': '{{name}}: {{problem}}',
  'source.skillAtProblem': '{{name}}: {{source}}: {{problem}}',
  'source.treeLink': '{{source}}: a symlink that leads out of the repository (not read)',
  'source.notFile': '{{source}}: not a file',
  'source.fileTooLarge': '{{source}}: larger than {{limit}} (the limit)',
  'source.pluginNoSkill': '{{source}}: plugin {{plugin}} lists "{{path}}", which holds no SKILL.md',
  'source.notMarketplace': '{{source}}: not a marketplace (a git repository or a .json URL)',
  'source.noMarketplace': '{{source}}: holds no {{file}}',
  'source.noMarketplaceNow': '{{source}}: holds no {{file}} any more',
  'source.noCurl': '{{source}}: curl is needed to fetch a marketplace.json over HTTP(S) and was not found',
  'source.http': '{{source}}: HTTP {{status}}',
  'source.http404': '{{source}}: HTTP {{status}} (no such file)',
  'source.httpRedirect': '{{source}}: HTTP {{status}} (redirects are not followed)',
  // a marketplace.json or skills.lock.json that cannot be read (main/core/skills/sources/marketplace.ts, lock.ts)
  'file.atField': '{{file}}:{{line}}: {{field}}: {{problem}}',
  'file.atLine': '{{file}}:{{line}}: {{problem}}',
  // where a JSON settings file stops being JSON (main/core/config/json-text.ts)
  'jsonText.endsEarly': 'the file ends too early',
  'jsonText.tooDeep': 'nested more than {{max}} levels deep (a settings file needs a few)',
  'jsonText.trailingComma': 'a comma before {{next}} (JSON allows no trailing comma)',
  'jsonText.unexpected': 'unexpected {{char}} ({{said}})',
  'jsonText.value': 'expected a value: a string, number, true, false, null, an object or a list',
  'jsonText.number': 'a number is not written as JSON writes numbers',
  'jsonText.key': 'expected a double-quoted string (a key)',
  'jsonText.colon': 'expected : after the key',
  'jsonText.comma': 'expected , or the closing bracket — a comma may be missing',
  'jsonText.closeBrace': 'expected , or } — a comma may be missing',
  'jsonText.closeBracket': 'expected , or ] — a comma may be missing',
  'jsonText.afterEnd': 'unexpected text after the end of the settings object',
  'jsonText.comment': 'comments are not JSON',
  'jsonText.string': 'a string is not closed (missing ") or holds a line break or control character',
  'jsonText.numberEnds': 'a number ends too early',
  'jsonText.unicode': 'a \\u escape needs four hex digits',
  'jsonText.escape': 'unknown escape in a string',
  'jsonText.control': 'a line break or control character inside a string (escape it, or close the string with ")',
  'json.tooDeep': 'nested more than {{max}} levels deep',
  'json.invalid': 'not valid JSON ({{error}})',
  'json.emptyFile': 'not valid JSON (empty)',
  'json.mustBe': 'must be {{what}}',
  'json.missing': 'is missing',
  'json.notEmpty': 'must not be empty',
  'json.form': 'is not written as expected',
  'json.unknownKey': 'unknown field "{{key}}"',
  'json.other': '{{error}}',
  'json.what.string': 'a string',
  'json.what.number': 'a number',
  'json.what.boolean': 'a boolean',
  'json.what.object': 'an object',
  'json.what.list': 'a list',
  'json.what.other': 'a {{type}}',
  'marketplace.twice': '"{{name}}" appears twice',
  'marketplace.notGit': '"{{url}}" is not a git repository URL',
  'marketplace.notRelative': '"{{source}}" is neither a relative path ("./…") nor a source object',
  'marketplace.notCommit': '"{{sha}}" is not a commit id',
  'marketplace.unknownKind': 'unknown source kind "{{kind}}" (Knack reads {{kinds}} and relative "./" paths)',
  'lock.commit': 'must be a full commit id',
  'lock.hash': 'must be a sha256 in hex',
  'lock.tampered':
    '{{name}}: {{source}} at commit {{commit}} now has different content ({{got}}, the lock says {{locked}}): refused as tampered',
  'lock.notLocked': '{{names}}: not in {{lock}} (only skills installed from a source can be updated)',
  // a call about a source the window no longer holds (main/core/service/sources.ts)
  'sources.notOpen': 'no open source {{id}} (open it again)',
  'sources.noSkill': '{{source}} holds no skill named "{{name}}"',
  'sources.noUpdate': 'no update of {{name}} shown (check for updates again)',
  'sources.otherUpdate': 'the update of {{name}} shown is not the one fetched; check again',
  // a skill's update check that failed (main/core/skills/sources/update.ts): the Updates dialog's line for it
  'update.checkFailed': '{{skill}}: could not check for an update ({{why}})',
  'update.noSkillAt': '{{source}}: no SKILL.md at "{{path}}" in commit {{commit}}',
  'update.pluginGone': '{{skill}}: plugin "{{plugin}}" is no longer listed in {{marketplace}}',
  // a skill source being fetched (main/core/service/sources.ts): git outside the sandbox, said on the progress line
  'sources.outsideOff': 'git runs outside the sandbox: it is off in settings (sandbox.mode)',
  'sources.outsideUnavailable': 'git runs outside the sandbox: it is unavailable ({{reason}})',
  // a tool call that did not run (main/core/tools/executor.ts): what its card says
  'tool.denied': '{{tool}} denied: {{reason}}',
  'tool.declinedByUser': '{{tool}} was not run: the user declined ({{reason}})',
  'tool.declinedNoOne': '{{tool}} was not run: it needs approval and no one can approve here ({{reason}})',
  'tool.declinedSays': '{{refusal}}. The user says: {{message}}',
  // a call outside the contract (preload/contract.ts inputError)
  'contract.tooLong': '{{method}}: {{field}} is too long: at most {{limit}} characters',
  'contract.tooShort': '{{method}}: {{field}} is too short: at least {{limit}} characters',
  // serve mode's connection to Knack (preload/client.ts): why a call failed with it
  'connection.closed': 'the connection to Knack closed',
  'connection.failed': 'could not connect to Knack',
  'connection.clientClosed': 'the client is closed',
  // a skill update's permission diff (main/core/policy/diff.ts): one line per change, the change as words inside
  'diff.added': '+ {{change}}',
  'diff.removed': '- {{change}}',
  'diff.tool': 'tool {{tool}}',
  'diff.command': 'command {{command}}',
  'diff.network': 'network: on',
  'diff.read': 'read {{glob}}',
  'diff.write': 'write {{glob}}',
  // what each of Knack's own tools does (its `summary`, main/core/service/tools.ts): the Tools view says it
  'toolSummary.bash': 'Run a shell command in the workspace, inside the OS sandbox.',
  'toolSummary.edit_file': 'Replace an exact piece of text in a file (must be unique unless replace_all).',
  'toolSummary.glob': 'Find files by name pattern (e.g. src/**/*.ts), respecting .gitignore.',
  'toolSummary.grep': 'Search file contents with a regular expression, respecting .gitignore.',
  'toolSummary.list_dir': 'List the files and folders in a workspace folder.',
  'toolSummary.read_file': 'Read a text file in the workspace, whole or by line range.',
  'toolSummary.write_file': 'Create or overwrite a text file in the workspace.',
  'toolSummary.web_fetch': 'Fetch a web page or HTTP resource and return its text.',
  'toolSummary.ListMcpResources': 'List the resources (documents, files, records) that connected MCP servers expose.',
  'toolSummary.ReadMcpResource': 'Read one resource from a connected MCP server by its URI.',
  'toolSummary.ToolSearch': 'Find deferred tools by what they do; returns names and one-line descriptions.',
  'toolSummary.DeferExecuteTool': 'Run a deferred tool by name with its arguments (validated against its full schema).',
  'toolSummary.Skill': "Load a skill's instructions (and its dependencies) into the conversation by name.",
  'toolSummary.SkillSearch': 'Find installed skills for a task described in any language (English or Chinese).',
  'toolSummary.list_skills': 'List every enabled skill with its summary and tier.',
  'toolSummary.read_skill_resource': 'Read a text file a skill ships under references/, assets/ or scripts/.',
  'toolSummary.create_skill': "Save reusable know-how as a new skill in the user's skill folder.",
  'toolSummary.run_skill_script':
    "Run a skill's JavaScript script in the sandbox with JSON arguments; returns its JSON result.",
  'toolSummary.skill_marketplace':
    'Search the configured skill marketplaces, and propose a skill for the user to review and install.',
  // save as skill: why the last task could not be drafted (main/core/agent/skill-draft.ts, service/chat.ts); `detail`
  // is what the model or the JSON parser said, verbatim
  'draft.busy': 'a turn is running in this session: save it as a skill once it has ended',
  'draft.noModel': 'no model is set up to draft the skill with',
  'draft.noSteps': 'the last task made no tool calls: there are no steps to save as a skill',
  'draft.noJson': 'the model\'s draft holds no JSON object: "{{detail}}"',
  'draft.badJson': "the model's draft is not valid JSON: {{detail}}",
  'draft.missing': "the model's draft has no {{fields}}",
  'draft.badName': 'the model\'s draft name "{{name}}": {{detail}}',
  'draft.other': '{{error}}',
  // an MCP server's entry or its file (main/core/mcp/config.ts, edit.ts); `detail`/`error` are another's words
  'mcp.problemAt': '{{field}}: {{why}}',
  'mcp.other': '{{error}}',
  'mcp.expected': 'expected {"mcpServers": {"name": {...}}}',
  'mcp.badName': 'server name "{{name}}" must be 1–40 letters, digits, "_" or "-"',
  'mcp.notObject': 'must be an object with "command" or "url"',
  'mcp.unknownField': 'unknown field "{{key}}" (ignored)',
  'mcp.needsCommand': 'a stdio server needs a "command" (or give "url" for http)',
  'mcp.fieldIssue': '{{key}} {{why}}',
  'mcp.why.timeout': 'must be a number of milliseconds between 100 and 600000',
  'mcp.why.strings': 'must be an object of strings',
  'mcp.why.hosts': 'must be a list of host names (api.example.com, *.example.com)',
  'mcp.why.notHost': '"{{host}}" is not a host name: must be a list of host names (api.example.com, *.example.com)',
  'mcp.why.string': 'must be a string',
  'mcp.why.stringList': 'must be a list of strings',
  'mcp.needsUrl': 'an http server needs a "url"',
  'mcp.badUrl': '"{{url}}" is not a valid URL',
  'mcp.notHttp': 'must be an http:// URL',
  'mcp.networkIgnored': 'network applies to stdio servers (they run in the sandbox); ignored for an http server',
  'mcp.notLoopback': 'only loopback servers are supported (127.0.0.1, localhost, ::1), not {{host}}',
  'mcp.cannotRead': 'cannot read: {{error}}',
  'mcp.invalidJson': 'invalid JSON: {{detail}}',
  'mcp.invalidJsonKept': 'invalid JSON: {{detail}} (not changed)',
  'mcp.needsValue': '{{name}} needs a value',
  'mcp.exists': 'a server named "{{name}}" is already there',
  'mcp.noServer': 'no server "{{name}}"',
  // what is wrong with a damaged database (main/core/store/db.ts); `detail` is SQLite's own message
  'store.empty': 'the file is empty (0 bytes)',
  'store.short': "the file is {{bytes}} bytes, shorter than SQLite's header",
  'store.notDatabase': "file is not a database (it does not start with SQLite's header)",
  'store.quickCheck': "SQLite's quick_check found: {{detail}}",
  'store.sqlite': '{{detail}}',
  // why the database cannot be used (main/core/workspace.ts, service/index.ts); `error` is the store's own message
  'store.cannotOpen': 'cannot open the database in {{dir}}: {{error}}',
  'store.cannotRead': 'cannot read the database: {{error}}',
  'store.none': 'there is no database',
  'store.setAside': 'the database was damaged and set aside as {{path}}',
  // the service's answers to the window's requests (main/core/service/index.ts); `why` is words, fsWords for the
  // file system's
  'workspace.cannotOpen': 'cannot open {{path}} as a workspace: {{why}}',
  'workspace.noSuchFolder': 'no such folder',
  'workspace.notFolder': 'not a folder',
  'workspace.none': 'open a workspace folder first',
  'workspace.notSkillFile': '{{file}} is not a skill file of this workspace',
  'dialog.desktopOnly': 'native dialogs exist in the desktop app only; type the path instead',
  'service.closing': 'the service is shutting down',
  'store.needed': 'the database in {{dir}} could not be opened; this needs it',
  'store.moreSetAside': 'another damaged database was set aside since: {{paths}}',
  // a conversation's requests refused (main/core/service/chat.ts)
  'chat.busy': 'a turn is already running in this session: stop it or wait for it to finish',
  'chat.busyModel': 'a turn is running in this session: switch the model once it has ended',
  'chat.ending': 'the last turn is still ending',
  'chat.noApproval': 'no pending approval {{id}} in this session (answered already, or the turn was stopped)',
  'chat.notLoaded': '"{{name}}" is not loaded in this conversation',
  'chat.otherFolder': 'conversation {{id}} belongs to the folder {{folder}}: open it to continue',
  'sessions.emptyTitle': 'a session title cannot be empty',
  'sessions.none': 'no session {{id}}',
  // a providers.json the Settings page will not change (service/chat.ts); `detail` is the JSON parser's own message
  'providersFile.refused': '{{path}}: {{why}}; fix it (or move it away) first: it was not changed',
  'providersFile.notFile': 'not a regular file',
  'providersFile.unreadable': 'cannot read it ({{error}})',
  'providersFile.badJsonAt': 'line {{line}}, column {{column}}: invalid JSON ({{detail}})',
  'providersFile.badJson': 'invalid JSON ({{detail}})',
  'providersFile.notJsonObject': 'not a JSON object',
  'providersFile.providersNotObject': '"providers" is not an object',
  'providersFile.entryNotObject': 'providers.{{id}} is not an object',
  'providersFile.unknown': 'unknown provider "{{id}}" (presets: {{presets}})',
  // the Settings page's refusals (service/mcp.ts, tools.ts, settings.ts); `error` is the system's or parser's own
  'mcp.noServerIn': 'no MCP server "{{name}}" in the {{scope}} mcp.json',
  'rules.none': 'no rule with id {{id}}',
  'ceiling.notAbsolute': '{{field}}: "{{path}}" must be an absolute path',
  'settingsFile.notObject': '{{file}}: not a JSON object; fix or remove it before changing settings here',
  'settingsFile.cannotUse': '{{file}}: {{error}}; fix or remove it before changing settings here',
  // a skill's page that cannot be shown (service/skills.ts); `error` is the file system's or the reader's own
  'skill.cannotRead': 'cannot read {{file}}: {{error}}',
  // a file refused as it is attached to a message (agent/attachments.ts); `name` is the file's, `model` the model's
  'attach.noModel': '{{name}}: no model is set up to read it',
  'attach.noVision':
    '{{name}} is an image, and the model {{model}} does not read images: it was not sent (pick a model that does)',
  'attach.notImage': '{{name}} is not a {{mime}} file: its first bytes are not those of one',
  'attach.binary': '{{name}} is a binary file ({{mime}}), not text',
  'attach.unknownType': 'unknown type',
  'attach.tooLarge':
    "{{name}} ({{size}}) is too large for the context: the files of this message come to about {{tokens}} tokens, and at most {{limit}} fit (half of {{model}}'s context window); put it in the workspace and ask the model to read it there",
  'size.bytes': '{{n}} bytes',
  'size.kb': '{{n}} KB',
  'size.mb': '{{n}} MB',
  // lists inside a message
  listAnd: '{{a}}, {{b}}',
  listNone: 'none',
  listAndWord: '{{a}} and {{b}}',
  listOrWord: '{{a}} or {{b}}',
  listSemicolon: '{{a}}; {{b}}',
  joinSpace: '{{a}} {{b}}',
} as const;

export type WordCode = keyof typeof WORDS;
export const WORD_CODES = Object.keys(WORDS) as WordCode[];

/** Words for `code` with `params` (what main sends). */
export function say(code: WordCode, params?: Said['params']): Said {
  return params && Object.keys(params).length ? { code, params } : { code };
}

/** The parameter names a template uses, in order of appearance (`{{name}}`). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
}

/** Fill a template's `{{name}}` from `params`, words inside it said by `inner` (a missing one stays visible). */
export function fill(template: string, params: Said['params'], inner: (s: Said) => string): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const v = params?.[name];
    if (v === undefined) return whole;
    return typeof v === 'object' ? inner(v) : String(v);
  });
}

/** The words in English: the CLI's text, and the window's when a code is unknown to it. An unknown code shows itself. */
/** Words and their English (the CLI's and the model's `message`), for a result that carries both. */
export function said(words: Said): { words: Said; message: string } {
  return { words, message: english(words) };
}

export function english(s: Said): string {
  const template = Object.prototype.hasOwnProperty.call(WORDS, s.code) ? WORDS[s.code as WordCode] : undefined;
  if (template === undefined) return s.code;
  return fill(template, s.params, english);
}
