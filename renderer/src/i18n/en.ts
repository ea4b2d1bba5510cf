// English strings. Keys mirror zh.ts exactly (a test checks both tables have the same keys).
export const en = {
  app: { name: 'Knack' },
  common: { loading: 'Loading…', cancel: 'Cancel', close: 'Close', save: 'Save', remove: 'Remove', back: 'Back', none: 'none', yes: 'yes', no: 'no' },
  workspace: {
    intro: 'Open a folder to work in. Its project skills, settings and rules come with it.',
    choose: 'Choose folder…', path: 'Folder path', open: 'Open', recent: 'Recent workspaces', noRecent: 'No recent workspaces yet.',
    empty: 'Type the path of a folder.', switch: 'Workspace {{name}} (switch)',
  },
  nav: { label: 'Views', chat: 'Chat', sessions: 'Sessions', tools: 'Tools', settings: 'Settings', switchLang: 'Switch language to 中文' },
  panels: { label: 'Context' },
  tier: { builtin: 'Built-in', user: 'User', project: 'Project' },
  skills: {
    title: 'Skills', filter: 'Filter skills', filterHint: 'Filter by name, description, trigger', list: 'Skills by tier',
    count: '{{shown}} of {{total}}', empty: 'No skills found in this workspace.', noMatch: 'No skill matches the filter.',
    toggle: 'Enable {{name}}', open: 'Show {{name}}', agentsFolder: '.agents', checking: 'checking…', auditLevel: 'Audit level',
    diagnostics_one: '{{count}} problem', diagnostics_other: '{{count}} problems', shadowedBy: 'shadowed by {{tier}}',
    blocked: 'blocked', trust: 'Trust', trustOne: 'Trust {{name}}', trustAll: 'Trust all…',
  },
  trustAll: {
    title: 'Trust all pending skills', intro_one: '{{count}} skill waits for your trust. What they ask for:',
    intro_other: '{{count}} skills wait for your trust. What they ask for:', confirm_one: 'Trust {{count}} skill', confirm_other: 'Trust {{count}} skills',
    done_one: 'Trusted {{count}} skill.', done_other: 'Trusted {{count}} skills.', refused: 'Cannot be trusted',
  },
  skill: {
    none: 'Pick a skill in the sidebar.', detail: 'Skill {{name}}', tier: 'Tier', state: 'State', on: 'on', off: 'off', shadowed: 'Shadowed',
    audit: 'Audit', path: 'Path', triggers: 'Triggers', permissions: 'Permissions', findings: 'Audit findings', diagnostics: 'Problems',
    resources: 'Resources', manifest: 'Manifest',
  },
  audit: { noFindings: 'No findings.', noPermissions: 'No permission request (least privilege applies).' },
  perm: { tools: 'Tools', network: 'Network', read: 'Read', write: 'Write', commands: 'Commands for {{tool}}' },
  install: {
    button: 'Install skill', title: 'Install a skill', intro: 'Pick a skill folder or a .zip. It is audited before anything is installed.',
    chooseFolder: 'Choose folder…', chooseZip: 'Choose .zip…', source: 'Skill folder or .zip path', scope: 'Install for', update: 'Update (replace the installed one)',
    audit: 'Audit', auditing: 'Auditing…', needSource: 'Type the path of a skill folder or .zip.',
    findings: 'Findings', permissions: 'Requested permissions', diff: 'Permission changes (update)', noDiff: 'No new permissions.',
    hash: 'Content hash', approve: 'Approve', reject: 'Reject', installed: '{{name}} is installed.', rejected: 'Rejected. Nothing was installed.',
    refused: 'Refused:', level: { P0: 'dangerous — refused', P1: 'needs your approval', P2: 'clean' },
  },
  chat: {
    title: 'Chat', transcript: 'Conversation', message: 'Message', placeholder: 'Ask anything — Enter sends, Shift+Enter adds a line',
    send: 'Send', stop: 'Stop', planMode: 'Plan mode', new: 'New chat', empty: 'Say what you want to do. Skills load when your words call for them.',
    thinking: 'Answering…', stopped: 'Stopped.', you: 'You', assistant: 'Knack', copy: 'Copy', copied: 'Copied', copyCode: 'Copy code',
    toolCall: 'Tool call {{name}}', skillLoaded: 'Loaded skill {{name}} — {{reason}}', result: 'Result', error: 'Error', duration: '{{ms}} ms',
    decision: { allow: 'allowed', ask: 'asked', deny: 'denied' },
    status: { running: 'running', done: 'done', error: 'failed', waiting: 'waiting for approval' },
  },
  approval: {
    label: 'Approval for {{tool}}', title: 'Allow {{tool}}?', once: 'Allow once', always: 'Always allow', deny: 'Deny',
    reason: 'Reason for the model (optional)', confirmDeny: 'Deny', rule: 'Always allow saves the rule', noRule: 'This call cannot be turned into a safe rule; allow it once or deny it.', answered: { once: 'Allowed once.', always: 'Always allowed (rule saved).', deny: 'Denied.' },
    decision: 'What the gate checked', gateRule: 'Rule', scope: 'Scope', skill: 'Skill', reads: 'Reads', writes: 'Writes',
    skillIdentity: '{{name}} ({{tier}} tier, {{dir}})', content: 'content {{hash}}',
  },
  loaded: {
    title: 'Loaded skills', empty: 'No skill loaded in this conversation.', tier: 'Tier', version: 'Version', tokens: 'Tokens',
    resources_one: '{{count}} resource read', resources_other: '{{count}} resources read', unload: 'Unload {{name}}', unloadShort: 'Unload',
  },
  context: {
    title: 'Context', empty: 'Token use shows up once the conversation starts.', used: '{{used}} of {{window}} tokens',
    section: { system: 'System', catalog: 'Skill catalog', skills: 'Loaded skills', tools: 'Tools', history: 'History' },
    leftOut_one: '{{count}} skill left out of the catalog', leftOut_other: '{{count}} skills left out of the catalog',
  },
  tools: {
    title: 'Tools', search: 'ToolSearch', searchHint: 'Find a tool as the model would', searchButton: 'Search', results: 'Results',
    loaded: 'Always loaded', deferred: 'Deferred (found with ToolSearch)', mcp: 'MCP servers', noMcp: 'No MCP servers configured.',
    count_one: '{{count}} tool', count_other: '{{count}} tools',
    state: { connected: 'connected', connecting: 'connecting', failed: 'failed', disabled: 'disabled' },
  },
  sessions: {
    title: 'Sessions', empty: 'No conversations yet.', untitled: 'Untitled', open: 'Open', export: 'Export', openOne: 'Open {{title}}',
    exportOne: 'Export {{title}}', messages_one: '{{count}} message', messages_other: '{{count}} messages',
  },
  settings: {
    title: 'Settings', provider: 'Model provider', preset: 'Preset', model: 'Model', baseUrl: 'Base URL', apiKey: 'API key',
    keyStored: 'A key is stored. It is never shown again.', noKey: 'No key stored.', newKey: 'New key', setKey: 'Set key', clearKey: 'Clear key',
    keyStorage: '(kept in {{where}})', storage: { 'os-keychain': 'the system keychain', file: 'a file only you can read', memory: 'memory until Knack quits' },
    warnings: 'Settings problems', keySaved: 'Key stored.', keyCleared: 'Key cleared.', saved: 'Saved.', ceiling: 'Limits (ceiling)', network: 'Allow network access',
    readRoots: 'Extra readable folders (one per line)', writeRoots: 'Extra writable folders (one per line)', rules: 'Rules',
    noRules: 'No rules yet. "Always allow" adds one.', action: 'Action', pattern: 'Rule', removeRule: 'Remove rule {{pattern}}',
    act: { allow: 'allow', ask: 'ask', deny: 'deny' }, language: 'Language',
  },
  cmd: {
    palette: 'Commands', search: 'Type a command', none: 'No command matches.', chat: 'Go to chat', newChat: 'New chat',
    install: 'Install skill…', filter: 'Filter skills', message: 'Focus the message box', tools: 'Go to tools', sessions: 'Go to sessions',
    settings: 'Open settings', plan: 'Toggle plan mode', shortcuts: 'Keyboard shortcuts', workspace: 'Open another workspace…',
    send: 'Send message', close: 'Close dialog',
  },
};
export type Strings = typeof en;
