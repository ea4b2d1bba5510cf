// The screens the main Chinese journey (chinese-journey.test.ts) does not walk, with the window in Chinese, in Debian's
// Chromium through serve mode against a fake Anthropic server: the first run (welcome, folder, presets, no model set
// up, a wrong key, done, the folder among the recent ones), the MCP servers (the form, its review, a server's tools, a
// server that does not start, a name refused, removal), the sessions (list, search, rename, a delete of the one open in
// the chat, which then starts a new one), save as skill (a failed draft, Retry, install), the Trust review from the
// sidebar, skills from a repository (fetch, review, an update that widens permissions, a check that fails), the model
// picker, a stopped turn, a stalled stream, and a damaged store. On every screen the check of chinese-check.ts reads the page's visible text and fails on any English
// sentence. KNACK_ZH_SHOTS=DIR saves a screenshot of each screen checked there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillMd } from '../helpers/tmp.js';
import { makeRepo, type TestRepo } from '../helpers/git-repos.js';
import { journey, skip } from './journey.js';
import { englishOnScreen } from './chinese-check.js';

const RIGHT = 'sk-ant-right-key-0123456789';
const WRONG = 'sk-ant-wrong-key-9876543210';
/** No key anywhere in the environment: nothing is set up. */
const NO_KEYS = Object.fromEntries(
  [
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'DEEPSEEK_API_KEY',
    'DASHSCOPE_API_KEY',
    'MOONSHOT_API_KEY',
    'KIMI_API_KEY',
    'ZHIPUAI_API_KEY',
    'ZHIPU_API_KEY',
    'OPENROUTER_API_KEY',
  ].map((k) => [k, '']),
);
const SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'server.mjs');
const SHOTS = process.env.KNACK_ZH_SHOTS;

const fm = (name: string, network: boolean, body = `# ${name}\n`) =>
  skillMd(
    `name: ${name}\ndescription: 技能 ${name}。\npermissions:\n  tools: [read_file]\n  network: ${network}`,
    body,
  );
let repo: TestRepo;

const app = journey({
  name: 'zhs',
  folder: '我的工作区',
  locale: 'zh-CN',
  untilMs: 60_000,
  files: {
    'notes.txt': '发布日是星期五。\n',
    // found on disk with a P1 finding: its Trust opens the review
    '.workbuddy/skills/status-sync/SKILL.md': skillMd(
      { name: 'status-sync', description: '同步构建状态。' },
      '# 同步\n\n```bash\ncurl -s https://status.example.com/api\n```\n',
    ),
  },
  // A short stall limit, for the stalled stream below.
  data: { 'settings.json': JSON.stringify({ agent: { stallSeconds: 15 } }) },
  prepare: ({ server, workspace }) => {
    server.requireKey(RIGHT);
    mkdirSync(join(workspace, 'tools'), { recursive: true });
    symlinkSync(SERVER, join(workspace, 'tools', 'tracker.mjs'));
    repo = makeRepo(repos, 'team', {
      'skills/alpha/SKILL.md': fm('alpha', false),
      'skills/beta/SKILL.md': fm('beta', false),
    });
  },
  // Each test goes on from the one before; the first starts serve as `npm start` does.
  serve: false,
});
const repos = app.tempDir('knack-e2e-zhs-repos-');

/** No English sentence on the page as it is now (`name`: the screen, for its screenshot). */
async function chinese(name: string): Promise<void> {
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await app.screenshot(join(SHOTS, `${name}.png`));
  }
  assert.deepEqual(await englishOnScreen(app.page), [], name);
}

async function send(text: string): Promise<void> {
  await app.page.getByRole('textbox', { name: '消息' }).fill(text);
  await app.page.keyboard.press('Enter');
}

async function ask(text: string, answer: string): Promise<void> {
  app.server.script({ text: answer });
  await send(text);
  await app.page.getByText(answer).waitFor({ timeout: 60_000 });
  await app.page.getByRole('button', { name: '发送' }).waitFor({ timeout: 60_000 });
}

const views = () => app.page.getByRole('navigation', { name: '视图' });
const sidebar = () => app.page.getByRole('navigation', { name: '技能' });

test('the first run: welcome, folder, presets, no model set up, a wrong key, done', { skip }, async () => {
  await app.start({ workspace: false, model: false, env: NO_KEYS });
  const { page } = app;
  await page.getByRole('heading', { name: '欢迎使用 Knack' }).waitFor();
  await page.getByRole('heading', { name: '打开一个工作文件夹' }).waitFor();
  await chinese('first-run-folder');
  await page.getByLabel('文件夹路径').fill(app.workspace);
  await page.getByRole('button', { name: '打开', exact: true }).click();
  await page.getByRole('heading', { name: '选择模型服务商' }).waitFor();
  await page.getByRole('radio', { name: 'Anthropic' }).waitFor();
  await chinese('first-run-provider');
  // Skipped: a message says at once that no model is set up, with the way to the setup.
  await page.getByRole('button', { name: '暂时跳过设置' }).click();
  await send('你好');
  const log = page.getByRole('log', { name: '对话记录' });
  await log.locator('.answer-end').last().waitFor({ timeout: 60_000 });
  await chinese('no-model');
  await views().getByRole('button', { name: '设置' }).click();
  await page.getByRole('heading', { name: '设置', exact: true }).waitFor();
  await chinese('settings-no-model');
  await page.getByRole('button', { name: '设置模型' }).first().click();
  await page.getByRole('heading', { name: '选择模型服务商' }).waitFor();
  await page.getByRole('radio', { name: 'Anthropic' }).check();
  await page.locator('.setup').getByLabel('模型').fill('fake-model');
  await page
    .locator('.setup')
    .getByLabel(/URL|地址/)
    .fill(app.server.url);
  await page.getByRole('button', { name: '继续' }).click();
  await page.getByRole('heading', { name: '粘贴密钥并测试连接' }).waitFor();
  await chinese('first-run-key');
  await page.getByLabel('Anthropic 的 API 密钥').fill(WRONG);
  await page.getByRole('button', { name: '测试连接' }).click();
  await page.locator('.setup-fail').waitFor({ timeout: 60_000 });
  await chinese('first-run-wrong-key');
  await page.getByLabel('Anthropic 的 API 密钥').fill(RIGHT);
  await page.getByRole('button', { name: '测试连接' }).click();
  await page.getByText('已连接：Anthropic 的 fake-model 已回复。').waitFor({ timeout: 60_000 });
  await chinese('first-run-connected');
  await page.getByRole('button', { name: '继续' }).click();
  await page.getByRole('heading', { name: '准备就绪' }).waitFor();
  await chinese('first-run-done');
  // Opened from Settings, the steps end there.
  await page.getByRole('button', { name: '完成' }).click();
  await views().getByRole('button', { name: '对话' }).click();
  await ask('第一个问题', '第一个回答。');
  await chinese('first-answer');
  // The folder opened is among the recent ones when another is opened.
  await page.getByRole('button', { name: /^工作区 .*（切换）$/ }).click();
  await page.getByRole('heading', { name: '最近的工作区' }).waitFor();
  await page.getByRole('button', { name: app.workspace, exact: true }).waitFor();
  await chinese('recent-folders');
  await page.getByRole('button', { name: /^返回 / }).click();
});

test('the MCP servers: the form, its review, the tools, a server that does not start, removal', { skip }, async () => {
  const { page } = app;
  await views().getByRole('button', { name: '工具' }).click();
  await page.getByRole('heading', { name: '常驻工具' }).waitFor({ timeout: 60_000 });
  await chinese('tools');
  await page.getByRole('button', { name: '添加 MCP 服务器' }).click();
  const form = page.getByRole('form', { name: '添加 MCP 服务器' });
  await form.getByLabel('名称', { exact: true }).fill('tracker');
  await form.getByLabel('命令').fill('node');
  await form.getByLabel('参数，每行一个').fill(['tools/tracker.mjs', '--name', 'tracker'].join('\n'));
  await chinese('mcp-form');
  await form.getByRole('button', { name: '检查…' }).click();
  const review = page.getByRole('region', { name: '启动前检查' });
  await review.getByText('node tools/tracker.mjs --name tracker', { exact: true }).waitFor();
  await chinese('mcp-review');
  await review.getByRole('button', { name: '保存并启动' }).click();
  await page.getByText('mcp__tracker__create_issue').waitFor({ timeout: 60_000 });
  const row = page.getByRole('region', { name: 'MCP 服务器' }).getByRole('listitem').filter({ hasText: 'tracker' });
  await row.getByText('已连接').waitFor({ timeout: 60_000 });
  await chinese('mcp-tools');

  // A server that exits at its start: nothing is saved, and the window says why.
  await page.getByRole('button', { name: '添加 MCP 服务器' }).click();
  await form.getByLabel('名称', { exact: true }).fill('broken');
  await form.getByLabel('命令').fill('node');
  await form.getByLabel('参数，每行一个').fill(['tools/tracker.mjs', '--mode', 'exit-at-start'].join('\n'));
  await form.getByRole('button', { name: '检查…' }).click();
  await review.getByRole('button', { name: '保存并启动' }).click();
  await page.getByText(/它没有启动/).waitFor({ timeout: 60_000 });
  await chinese('mcp-not-started');
  await review.getByRole('button', { name: '返回' }).click();
  await form.getByRole('button', { name: '取消' }).click();

  // A name the loader refuses: the field and why, in Chinese.
  await page.getByRole('button', { name: '添加 MCP 服务器' }).click();
  await form.getByLabel('名称', { exact: true }).fill('bad name');
  await form.getByLabel('命令').fill('node');
  await form.getByRole('button', { name: '检查…' }).click();
  await review.getByRole('button', { name: '保存并启动' }).click();
  await form.getByText(/服务器名称「bad name」只能由/).waitFor({ timeout: 60_000 });
  await chinese('mcp-refused');
  await form.getByRole('button', { name: '取消' }).click();

  await row.getByRole('button', { name: '移除 tracker' }).click();
  await chinese('mcp-remove');
  await row.getByRole('group', { name: '移除 tracker' }).getByRole('button', { name: '移除 tracker' }).click();
  await page.getByText('未配置 MCP 服务器。').waitFor({ timeout: 60_000 });
  await chinese('mcp-none');
});

test('the sessions: the list, a search, a rename, and a delete of the open one', { skip }, async () => {
  const { page } = app;
  await views().getByRole('button', { name: '对话' }).click();
  await ask('怎么轮换密钥？', '用海象流程轮换，然后重启。');
  await page.getByRole('button', { name: '新对话' }).click();
  await ask('午饭几点？', '中午十二点。');
  await views().getByRole('button', { name: '会话' }).click();
  const sessions = page.getByRole('region', { name: '会话' });
  await sessions.getByText('午饭几点？').waitFor();
  await chinese('sessions');
  await sessions.getByRole('searchbox', { name: '搜索会话' }).fill('海象');
  await sessions.getByText('找到 1 个会话').waitFor({ timeout: 60_000 });
  await chinese('sessions-search');
  await sessions.getByRole('searchbox', { name: '搜索会话' }).fill('没有这个词');
  await sessions.getByText(/没有会话包含/).waitFor({ timeout: 60_000 });
  await chinese('sessions-no-hit');
  await sessions.getByRole('searchbox').fill('');
  await sessions.getByRole('button', { name: '重命名 午饭几点？' }).click();
  await chinese('sessions-rename');
  const title = sessions.getByRole('textbox', { name: '午饭几点？ 的新标题' });
  await title.fill('团队午饭');
  await title.press('Enter');
  await sessions.getByText('团队午饭', { exact: true }).waitFor();
  // 团队午饭 is the conversation open in the chat: the confirmation says the chat starts a new one.
  await sessions.getByRole('button', { name: '删除 团队午饭' }).click();
  const dialog = page.getByRole('dialog', { name: '删除这个会话？' });
  await dialog.getByText('它是「对话」中正在打开的会话：删除后「对话」将开始一个新对话。').waitFor();
  await chinese('sessions-delete');
  await dialog.getByRole('button', { name: '删除会话' }).click();
  // The window says the chat moved on (an info notice, read before it goes), stays on the list, and the other
  // conversation is still there.
  await page
    .getByRole('status')
    .getByText('已删除的“团队午饭”是「对话」中正在打开的会话：「对话」将开始一个新对话。')
    .waitFor();
  await chinese('sessions-deleted');
  await app.until(async () => (await sessions.getByText('团队午饭').count()) === 0);
  // The first run's conversation (its 你好, and the question above asked in it) is still there.
  await sessions.getByText('你好', { exact: true }).waitFor();
  // The chat is a new conversation: nothing of the deleted one, the message box empty and ready.
  await views().getByRole('button', { name: '对话' }).click();
  await page.getByText('说说你想做什么。相关技能会在需要时自动加载。').waitFor();
  assert.equal(await page.getByRole('log', { name: '对话记录' }).getByText('中午十二点。').count(), 0);
  assert.equal(await page.getByRole('textbox', { name: '消息' }).inputValue(), '');
  await chinese('sessions-deleted-chat');
});

test('save as skill: the offer, the draft with its audit, installed', { skip }, async () => {
  const { page, server } = app;
  await views().getByRole('button', { name: '对话' }).click();
  await page.getByRole('button', { name: '新对话' }).click();
  server.script(
    { toolCalls: [{ id: 'c1', name: 'list_dir', input: { path: '.' } }] },
    { toolCalls: [{ id: 'c2', name: 'read_file', input: { path: 'notes.txt' } }] },
    { toolCalls: [{ id: 'c3', name: 'grep', input: { pattern: '星期五', path: 'notes.txt' } }] },
    { text: '发布日是星期五。' },
  );
  await send('发布日是哪天？看看笔记');
  const offer = page.getByRole('button', { name: '保存为技能' });
  await offer.waitFor({ timeout: 90_000 });
  await chinese('save-skill-offer');
  // The model answers the draft in prose first: why, in Chinese, what it wrote as it wrote it; then Retry.
  server.script({ text: 'Sure! Here is your skill.' });
  await offer.click();
  const dialog = page.getByRole('dialog', { name: '保存为技能' });
  const failed = dialog.getByRole('alert');
  await failed.waitFor({ timeout: 90_000 });
  assert.equal(await failed.textContent(), '无法起草技能：模型的草稿里没有 JSON 对象：Sure! Here is your skill.');
  await chinese('save-skill-failed');
  server.script({
    text: JSON.stringify({
      name: 'release-day',
      description: '在 notes.txt 里找发布日。',
      read_when: ['发布日'],
      steps: '1. 读取 notes.txt。\n2. 找到写着日子的那一行。',
    }),
  });
  await dialog.getByRole('button', { name: '重试' }).click();
  await dialog.getByRole('textbox', { name: 'SKILL.md' }).waitFor({ timeout: 90_000 });
  await dialog.getByRole('region', { name: '草稿的审计结果' }).waitFor();
  await chinese('save-skill');
  await dialog.getByRole('combobox', { name: '保存到' }).selectOption('project');
  await dialog.getByRole('button', { name: '安装' }).click();
  const saved = dialog.getByText(/已保存为 release-day/);
  const approve = dialog.getByRole('button', { name: '批准' });
  await saved.or(approve).waitFor({ timeout: 90_000 });
  await chinese('save-skill-result');
  if (await approve.isVisible()) await approve.click();
  await saved.waitFor({ timeout: 90_000 });
  await chinese('save-skill-saved');
  await dialog.getByRole('button', { name: '关闭' }).click();
  await sidebar().getByText('release-day', { exact: true }).waitFor({ timeout: 90_000 });
  await chinese('save-skill-sidebar');
});

test('Trust from the sidebar opens the review: findings with file:line and the levels', { skip }, async () => {
  await sidebar().getByRole('button', { name: '信任 status-sync' }).click();
  const dialog = app.page.getByRole('dialog', { name: '审阅 status-sync' });
  await dialog.getByText('P1 · 需要你的批准').waitFor({ timeout: 60_000 });
  await chinese('trust-review');
  await dialog.getByRole('button', { name: '批准', exact: true }).click();
  await dialog.getByText(/已信任并开启/).waitFor({ timeout: 60_000 });
  await chinese('trust-approved');
  await app.page.keyboard.press('Escape');
  await app.until(async () => (await app.page.getByRole('dialog').count()) === 0);
});

test('skills from a repository: fetch, review, install, and an update that widens permissions', { skip }, async () => {
  const { page } = app;
  await page.getByRole('button', { name: '安装技能' }).click();
  const dialog = page.getByRole('dialog', { name: '安装技能' });
  await dialog.getByRole('tab', { name: '从仓库或市场' }).click();
  await chinese('source-tab');
  await dialog.getByLabel('仓库或市场').fill(repo.url);
  await dialog.getByRole('button', { name: '获取', exact: true }).click();
  const list = dialog.getByRole('list', { name: '此来源中的技能' });
  await list.getByRole('listitem').nth(1).waitFor({ timeout: 60_000 });
  await chinese('source-list');
  await list.getByRole('listitem').filter({ hasText: '技能 alpha。' }).getByRole('checkbox').check();
  await dialog.getByRole('button', { name: '审阅 1 个技能' }).click();
  await dialog.getByRole('list', { name: '安装前审阅' }).waitFor();
  await chinese('source-review');
  await dialog.getByRole('button', { name: '批准', exact: true }).click();
  await dialog.getByText('已安装', { exact: true }).waitFor({ timeout: 60_000 });
  await chinese('source-installed');
  await dialog.getByRole('button', { name: '关闭' }).click();
  await sidebar().getByText('alpha', { exact: true }).click();
  await page.getByRole('region', { name: '来源' }).getByText(repo.url).waitFor({ timeout: 60_000 });
  await chinese('source-origin');

  // The source widens alpha: the network on, and a download (P1).
  repo.commit({
    'skills/alpha/SKILL.md': fm('alpha', true, '# alpha\n\n```bash\ncurl -s https://api.example.com/x\n```\n'),
  });
  await sidebar().getByRole('button', { name: '检查更新' }).click();
  const badge = sidebar().getByRole('button', { name: '更新：1' });
  await badge.waitFor({ timeout: 60_000 });
  await chinese('updates-badge');
  await badge.click();
  const updates = page.getByRole('dialog', { name: '技能更新' });
  const item = updates.getByRole('region', { name: 'alpha' });
  await item.getByText('~ SKILL.md').waitFor({ timeout: 60_000 });
  await chinese('updates');
  await item.getByRole('button', { name: '更新' }).click();
  await item.getByRole('button', { name: /批准/ }).first().waitFor({ timeout: 60_000 });
  await chinese('update-waits');
  await item.getByRole('button', { name: /批准/ }).first().click();
  await item.getByText('已安装', { exact: true }).waitFor({ timeout: 60_000 });
  await chinese('update-installed');
  await page.keyboard.press('Escape');
  await app.until(async () => (await page.getByRole('dialog').count()) === 0);

  // The source gone: the check fails for alpha, and says why.
  renameSync(repo.bare, `${repo.bare}.gone`);
  await sidebar().getByRole('button', { name: '检查更新' }).click();
  const failed = sidebar().getByRole('button', { name: /1 项检查失败/ });
  await failed.waitFor({ timeout: 60_000 });
  await chinese('update-check-failed');
  await failed.click();
  await page.getByRole('dialog', { name: '技能更新' }).getByRole('alert').first().waitFor();
  await chinese('update-check-failed-why');
  await page.keyboard.press('Escape');
  await app.until(async () => (await page.getByRole('dialog').count()) === 0);
  renameSync(`${repo.bare}.gone`, repo.bare);
});

test('the model picker, a stopped turn and a stalled stream', { skip }, async () => {
  const { page, server } = app;
  await views().getByRole('button', { name: '对话' }).click();
  server.setModels(['fake-model', 'fake-model-large']);
  await page.getByRole('button', { name: '新对话' }).click();
  const picker = page.getByRole('combobox', { name: '模型' });
  await picker.waitFor({ timeout: 60_000 });
  await chinese('model-picker');
  const log = page.getByRole('log', { name: '对话记录' });
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `第${i + 1}句。`);
  server.script({ chunks: lines(400), chunkDelayMs: 50 });
  await send('讲一个很长的故事');
  await log.getByText(/第3句。/).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: '停止' }).click();
  await log.getByText('已停止。').last().waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: '发送' }).waitFor({ timeout: 60_000 });
  await chinese('stopped');
  server.script({ chunks: lines(3), stall: true });
  await send('再讲一个');
  await log.getByText(/已超时/).waitFor({ timeout: 120_000 });
  await chinese('timed-out');
});

test('a damaged store: set aside, said in a banner', { skip }, async () => {
  await app.stop();
  writeFileSync(join(app.dataDir, 'knack.db'), 'a sync tool wrote this over the database\n'.repeat(200));
  await app.start({ model: false });
  const banner = app.page.locator('.store-banner');
  await banner.waitFor({ timeout: 60_000 });
  await chinese('store-damaged');
});
