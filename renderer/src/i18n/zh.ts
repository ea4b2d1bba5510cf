// 中文字符串。键与 en.ts 完全一致（有测试检查两张表的键相同）。
import type { Strings } from './en';

export const zh: Strings = {
  app: { name: 'Knack' },
  common: { loading: '加载中…', cancel: '取消', close: '关闭', save: '保存', remove: '移除', back: '返回', none: '无', yes: '是', no: '否', on: '开', off: '关' },
  workspace: {
    intro: '打开一个文件夹作为工作区。其中的项目技能、设置和规则会一起生效。',
    choose: '选择文件夹…', path: '文件夹路径', open: '打开', recent: '最近的工作区', noRecent: '还没有最近的工作区。',
    empty: '请输入文件夹路径。', switch: '工作区 {{name}}（切换）', back: '返回 {{name}}',
  },
  nav: { label: '视图', chat: '对话', sessions: '会话', tools: '工具', settings: '设置', switchLang: 'Switch language to English' },
  panels: { label: '上下文' },
  tier: { builtin: '内置', user: '用户', project: '项目' },
  skills: {
    title: '技能', filter: '筛选技能', filterHint: '按名称、描述、触发词筛选', list: '按层级列出的技能',
    count: '{{shown}} / {{total}}', empty: '此工作区中没有找到技能。', noMatch: '没有匹配的技能。',
    toggle: '启用 {{name}}', open: '查看 {{name}}', agentsFolder: '.agents', checking: '检查中…', auditLevel: '审计等级',
    diagnostics_one: '{{count}} 个问题', diagnostics_other: '{{count}} 个问题', shadowedBy: '被{{tier}}技能覆盖',
    blocked: '已阻止', trust: '信任', trustOne: '信任 {{name}}', trustAll: '全部信任…',
  },
  trustAll: {
    title: '信任所有待审技能', intro_one: '有 {{count}} 个技能等待你的信任。它们请求：', intro_other: '有 {{count}} 个技能等待你的信任。它们请求：',
    confirm_one: '信任 {{count}} 个技能', confirm_other: '信任 {{count}} 个技能', done_one: '已信任 {{count}} 个技能。', done_other: '已信任 {{count}} 个技能。', refused: '无法信任',
    byRule: '按规则分组的发现', group_one: '{{count}} 个技能', group_other: '{{count}} 个技能', findings_one: '{{count}} 处发现', findings_other: '{{count}} 处发现',
    more: '另有 {{count}} 个', widest: '同意后最多授予的权限', anyCommand: '任意命令：{{tools}}',
  },
  skill: {
    none: '在侧边栏中选择一个技能。', detail: '技能 {{name}}', tier: '层级', state: '状态', on: '开', off: '关', shadowed: '被覆盖',
    audit: '审计', path: '路径', triggers: '触发词', permissions: '权限', findings: '审计发现', diagnostics: '问题', resources: '资源', manifest: '清单',
  },
  audit: { noFindings: '没有发现问题。', noPermissions: '未请求权限（按最小权限处理）。' },
  perm: { tools: '工具', network: '网络', read: '读取', write: '写入', commands: '{{tool}} 的命令' },
  install: {
    button: '安装技能', title: '安装技能', intro: '选择技能文件夹或 .zip 文件。安装前会先进行审计。',
    chooseFolder: '选择文件夹…', chooseZip: '选择 .zip…', source: '技能文件夹或 .zip 路径', scope: '安装到', update: '更新（替换已安装的版本）',
    audit: '审计', auditing: '审计中…', needSource: '请输入技能文件夹或 .zip 的路径。',
    findings: '发现', permissions: '请求的权限', diff: '权限变化（更新）', noDiff: '没有新增权限。', hash: '内容哈希',
    approve: '批准', reject: '拒绝', installed: '{{name}} 已安装。', rejected: '已拒绝，未安装任何内容。', refused: '已拒绝：',
    level: { P0: '危险——拒绝安装', P1: '需要你的批准', P2: '无问题' },
    drop: '把技能 .zip 拖到这里', dropHint: '或者选择一个：', zipFile: '技能 .zip 文件', notZip: '{{name}} 不是 .zip 文件。', uploading: '正在上传 {{name}}…',
    dropWindow: '松开即可审计并安装这个 .zip',
  },
  chat: {
    waitingElsewhere: '你离开的一个对话正在等待你的批准，可在“会话”中打开它。',
    heldBack: '你在另一个对话中发送的消息未能保存，已放回那个对话的输入框。',
    title: '对话', transcript: '对话记录', message: '消息', placeholder: '随便问——回车发送，Shift+回车换行',
    send: '发送', stop: '停止', planMode: '计划模式', new: '新对话', empty: '说说你想做什么。相关技能会在需要时自动加载。',
    thinking: '正在回答…', stopped: '已停止。', you: '你', assistant: 'Knack', copy: '复制', copied: '已复制', copyCode: '复制代码',
    toolCall: '工具调用 {{name}}', skillLoaded: '已加载技能 {{name}} —— {{reason}}', result: '结果', error: '错误', duration: '{{ms}} 毫秒',
    decision: { allow: '已允许', ask: '已询问', deny: '已拒绝' },
    status: { running: '运行中', done: '完成', error: '失败', waiting: '等待批准' },
  },
  approval: {
    label: '{{tool}} 的批准请求', title: '允许 {{tool}}？', once: '允许一次', always: '始终允许', deny: '拒绝',
    reason: '给模型的原因（可选）', confirmDeny: '拒绝', rule: '“始终允许”会保存规则', noRule: '这个调用无法安全地变成规则；请允许一次或拒绝。', answered: { once: '已允许一次。', always: '已始终允许（规则已保存）。', deny: '已拒绝。' },
    decision: '策略检查的内容', gateRule: '规则', scope: '范围', skill: '技能', reads: '读取', writes: '写入',
    skillIdentity: '{{name}}（{{tier}} 层，{{dir}}）', content: '内容 {{hash}}',
  },
  loaded: {
    title: '已加载的技能', empty: '本次对话尚未加载技能。', tier: '层级', version: '版本', tokens: '令牌数',
    resources_one: '已读取 {{count}} 个资源', resources_other: '已读取 {{count}} 个资源', unload: '卸载 {{name}}', unloadShort: '卸载',
  },
  context: {
    title: '上下文', empty: '对话开始后会显示令牌用量。', used: '已用 {{used}} / {{window}} 令牌',
    section: { system: '系统', catalog: '技能目录', skills: '已加载技能', tools: '工具', history: '历史', observations: '工具结果' },
    leftOut_one: '{{count}} 个技能未进入目录', leftOut_other: '{{count}} 个技能未进入目录',
  },
  tools: {
    title: '工具', search: '工具搜索', searchHint: '像模型一样查找工具', searchButton: '搜索', results: '结果',
    loaded: '常驻工具', deferred: '延迟加载（通过工具搜索找到）', mcp: 'MCP 服务器', noMcp: '未配置 MCP 服务器。',
    count_one: '{{count}} 个工具', count_other: '{{count}} 个工具',
    state: { connected: '已连接', connecting: '连接中', failed: '失败', disabled: '已停用' },
  },
  sessions: {
    title: '会话', empty: '还没有对话。', untitled: '未命名', open: '打开', export: '导出', openOne: '打开 {{title}}',
    running: '仍在进行', exportOne: '导出 {{title}}', messages_one: '{{count}} 条消息', messages_other: '{{count}} 条消息',
  },
  settings: {
    title: '设置', provider: '模型服务', preset: '预设', model: '模型', baseUrl: '接口地址', apiKey: 'API 密钥',
    keyStored: '已保存密钥，且不会再显示。', noKey: '未保存密钥。', newKey: '新密钥', setKey: '设置密钥', clearKey: '清除密钥',
    keyStorage: '（保存在{{where}}）', storage: { 'os-keychain': '系统钥匙串', file: '仅你可读的文件', memory: '内存中，退出后清除' },
    warnings: '设置问题', keySaved: '密钥已保存。', keyCleared: '密钥已清除。', saved: '已保存。', ceiling: '上限', network: '允许访问网络',
    readRoots: '额外可读文件夹（每行一个）', writeRoots: '额外可写文件夹（每行一个）', rules: '规则',
    noRules: '还没有规则。“始终允许”会添加一条。', action: '动作', pattern: '规则', removeRule: '移除规则 {{pattern}}',
    act: { allow: '允许', ask: '询问', deny: '拒绝' }, language: '语言',
  },
  cmd: {
    palette: '命令', search: '输入命令', none: '没有匹配的命令。', chat: '转到对话', newChat: '新对话',
    install: '安装技能…', filter: '筛选技能', message: '聚焦消息框', tools: '转到工具', sessions: '转到会话',
    settings: '打开设置', plan: '切换计划模式', shortcuts: '键盘快捷键', workspace: '打开其他工作区…', send: '发送消息', close: '关闭对话框',
  },
};
