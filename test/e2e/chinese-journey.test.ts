// The main journey with the window in Chinese, in Debian's Chromium through serve mode against a fake Anthropic
// server: the sidebar, a message that loads a skill, an approval card with the rules Always allow would save, a tool
// call the gate refuses, a request the provider answers with 500 twice (the window says it retries), a connection
// dropped mid-answer (interrupted, then Retry), the install dialog with its findings, the skill page, Settings, and a
// wrong key in Test connection. On every screen an automated check reads the page's visible text and fails on any
// English sentence: a run of three or more English words (chinese-check.ts, with what may stay English).
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { skillMd, tempDir, writeTree } from '../helpers/tmp.js';
import { makeRepo, type TestRepo } from '../helpers/git-repos.js';
import { journey, skip } from './journey.js';
import { englishOnScreen as englishOn, visibleTexts } from './chinese-check.js';

/** A `git` stand-in first on PATH (the model's `git status`; anything else is real git), and skills to install. */
const bin = tempDir('knack-e2e-zh-bin-');
const sources = tempDir('knack-e2e-zh-src-');
/** Shorter than an install's staging folder (see deepSkill). */
const shallow = tempDir('kd-');
const realGit = ['/usr/bin/git', '/usr/local/bin/git', '/bin/git'].find((g) => existsSync(g)) ?? 'git';
const repos = tempDir('knack-e2e-zh-repo-');
let repo: TestRepo;

/**
 * A skill folder whose deepest file's path is just under the system's limit (4096 bytes): copied into an install's
 * staging folder (`<tmp>/knack-install-XXXXXX`, longer than the folder it is made in), its path is too long, and the
 * copy fails.
 */
function deepSkill(root: string): void {
  writeTree(root, { 'SKILL.md': skillMd({ name: 'deep', description: '很深的目录。' }, '# 深\n') });
  let dir = root;
  while (Buffer.byteLength(dir) < 4090 - 250) dir = join(dir, 'd'.repeat(200));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'f'.repeat(4090 - Buffer.byteLength(dir) - 1)), 'x');
}

const app = journey({
  name: 'zh',
  folder: '我的项目',
  files: {
    '.workbuddy/skills/release-notes/SKILL.md': skillMd({
      name: 'release-notes',
      description: '根据合并的拉取请求写发布说明。',
      read_when: ['发布说明'],
    }),
    // found on disk with a P1 finding: waits for the user's review; its synonyms cannot be used (a SKILL.md warning)
    '.workbuddy/skills/status-sync/SKILL.md': skillMd(
      { name: 'status-sync', description: '同步构建状态。', synonyms: true },
      '# 同步\n\n```bash\ncurl -s https://status.example.com/api\n```\n',
    ),
    // another held skill: it turns P0 while its review is open
    '.workbuddy/skills/notes-sync/SKILL.md': skillMd(
      { name: 'notes-sync', description: '同步笔记。' },
      '# 同步笔记\n\n```bash\ncurl -s https://notes.example.com/api\n```\n',
    ),
    // a permission request that cannot be read (an absolute path): P0, its finding on the skill's page
    '.workbuddy/skills/wide-reads/SKILL.md': skillMd(
      'name: wide-reads\ndescription: 读取系统文件。\npermissions:\n  paths:\n    read:\n      - /etc/passwd',
    ),
    // a SKILL.md without a description: listed among the skills that could not be read
    '.workbuddy/skills/no-desc/SKILL.md': skillMd({ name: 'no-desc' }),
    // a SKILL.md that is not YAML (an unquoted ": "): listed too, the parser's own message in code
    // A bare `: ` in a tool list is not guessed at (one in a description is read as text).
    '.workbuddy/skills/bad-yaml/SKILL.md':
      '---\nname: bad-yaml\ndescription: 部署\nallowed-tools: Bash(git push: *)\n---\n# 坏\n',
    // a settings value out of its range: said in Settings with its file, line and field (the default applies)
    '.workbuddy/settings.json': JSON.stringify({ discovery: { maxDepth: -1 } }, null, 2),
  },
  // The approval card is part of the journey: with the OS sandbox off every command is asked about.
  data: { 'settings.json': JSON.stringify({ sandbox: { mode: 'off' } }) },
  locale: 'zh-CN',
  prepare: () => {
    writeTree(sources, {
      'fetcher/SKILL.md': skillMd(
        { name: 'fetcher', description: '分析之前先下载数据。' },
        '# 下载\n\n```bash\ncurl -s https://api.example.com/data\n```\n',
      ),
    });
    writeTree(sources, { 'notes/README.md': '不是技能。' });
    writeFileSync(join(sources, 'junk.zip'), '这不是 zip 压缩包。');
    writeFileSync(
      join(sources, 'slip.zip'),
      zipSync({
        'slip/SKILL.md': strToU8(skillMd({ name: 'slip', description: '越界。' })),
        '../../evil.txt': strToU8('x'),
      }),
    );
    deepSkill(join(shallow, 'deep'));
    repo = makeRepo(repos, 'team', { 'skills/plain/SKILL.md': skillMd({ name: 'plain', description: '普通。' }) });
    writeTree(bin, {
      git: `#!/bin/sh\nif [ "$1" = status ]; then echo "nothing to commit, working tree clean"; exit 0; fi\nexec ${realGit} "$@"\n`,
    });
    chmodSync(join(bin, 'git'), 0o755);
  },
  serve: { env: { PATH: `${bin}:${process.env.PATH ?? ''}` } },
});

afterEach(async (t) => {
  const dir = process.env.KNACK_E2E_DEBUG;
  if (dir) await app.screenshot(join(dir, `zh-${t.name.slice(0, 40).replace(/\W+/g, '-')}.png`));
});

/** English sentences on the page as it is now. */
const englishOnScreen = () => englishOn(app.page);

test('the detector flags the same window in English and lets it through in Chinese', { skip }, async () => {
  // Checked on the page itself, so a detector that sees nothing cannot pass the journey below.
  await app.page.getByRole('navigation', { name: '视图' }).waitFor();
  const texts = await visibleTexts(app.page);
  assert.ok(texts.length > 10, `the page's text is read (${texts.length} pieces)`);
  assert.ok(
    texts.some((x) => /[\u4e00-\u9fff]/.test(x)),
    'the window is in Chinese',
  );
  await app.page.getByRole('button', { name: 'Switch language to English' }).click();
  await app.page.getByRole('navigation', { name: 'Views' }).waitFor();
  const english = await englishOnScreen();
  assert.ok(english.length >= 2, `English sentences found in the English window: ${english.join(' | ')}`);
  await app.page.getByRole('button', { name: 'Switch language to 中文' }).click();
  await app.page.getByRole('navigation', { name: '视图' }).waitFor();
});

test('the sidebar and the chat view: no English sentence', { skip }, async () => {
  await app.page.getByRole('textbox', { name: '消息' }).waitFor();
  await app.page
    .getByRole('navigation', { name: '技能' })
    .getByRole('switch', { name: /release-notes/ })
    .waitFor();
  assert.deepEqual(await englishOnScreen(), []);
});

test(
  'a Chinese message loads a skill and a tool call asks: the reason and the card are Chinese',
  { skip },
  async () => {
    app.server.script(
      { text: '好的，我先看看改动。', toolCalls: [{ name: 'bash', input: { command: 'git status' } }] },
      { text: '工作区是干净的，没有要提交的改动。' },
    );
    await app.page.getByRole('textbox', { name: '消息' }).fill('帮我提交代码');
    await app.page.keyboard.press('Enter');
    const card = app.page.getByRole('region', { name: 'bash 的批准请求' }).last();
    await card.waitFor({ timeout: 60_000 });
    const log = app.page.getByRole('log', { name: '对话记录' });
    await log.getByText(/已加载技能 git-commit —— 触发词「/).waitFor();
    assert.deepEqual(await englishOnScreen(), []);
    // The card's detail open: the gate's reason, in Chinese.
    await card.getByText('门控检查了什么').click();
    await card.getByText(/bash 会在沙箱之外（它在设置中被关闭）以你自己的权限运行：它可以做命令所说的任何事/).waitFor();
    assert.deepEqual(await englishOnScreen(), []);
    // Always allow saves a rule: Settings lists it below, described in Chinese.
    await card.getByRole('button', { name: /^始终允许（/ }).click();
    await app.page.getByText('工作区是干净的，没有要提交的改动。').waitFor({ timeout: 60_000 });
    await app.page.getByRole('button', { name: '发送' }).waitFor();
    assert.deepEqual(await englishOnScreen(), []);
  },
);

test('the rules Always allow would save are Chinese words, not code', { skip }, async () => {
  app.server.script(
    { toolCalls: [{ name: 'bash', input: { command: 'git log -1' } }] },
    { text: '最近一次提交是初始化。' },
  );
  await app.page.getByRole('textbox', { name: '消息' }).fill('看看最近的提交');
  await app.page.keyboard.press('Enter');
  const card = app.page.getByRole('region', { name: 'bash 的批准请求' }).last();
  await card.waitFor({ timeout: 60_000 });
  await card.locator('.rules-preview .rule', { hasText: /^允许 bash 命令「git log/ }).waitFor();
  assert.deepEqual(await englishOnScreen(), []);
  await card.getByRole('button', { name: '允许一次', exact: true }).click();
  await app.page.getByText('最近一次提交是初始化。').waitFor({ timeout: 60_000 });
  await app.page.getByRole('button', { name: '发送' }).waitFor();
});

test('a tool call the gate refuses says why in Chinese on its card', { skip }, async () => {
  app.server.script(
    { toolCalls: [{ name: 'write_file', input: { path: '/etc/knack-zh-journey.txt', content: 'x' } }] },
    { text: '那个位置写不了。' },
  );
  await app.page.getByRole('textbox', { name: '消息' }).fill('把结果写到系统目录');
  await app.page.keyboard.press('Enter');
  const refusal = app.page.locator('.tool-refusal').last();
  await refusal.waitFor({ timeout: 60_000 });
  assert.match((await refusal.textContent()) ?? '', /^write_file 被拒绝：/);
  await app.page.getByText('那个位置写不了。').waitFor({ timeout: 60_000 });
  assert.deepEqual(await englishOnScreen(), []);
});

test('a request the provider answers with 500 twice: the window says it retries, in Chinese', { skip }, async () => {
  // Two failures the SDK retries (after the server's retry-after), then an answer that takes its time to start.
  app.server.script(
    { status: 500, retryAfter: 1 },
    { status: 500, retryAfter: 1 },
    { text: '第三次成功了。', firstDelayMs: 4000 },
  );
  await app.page.getByRole('textbox', { name: '消息' }).fill('再试一次');
  await app.page.keyboard.press('Enter');
  const status = app.page.getByRole('status').filter({ hasText: /^正在重试（第 [23] 次，共 3 次）…$/ });
  await status.waitFor({ timeout: 60_000 });
  assert.deepEqual(await englishOnScreen(), []);
  await app.page.getByText('第三次成功了。').waitFor({ timeout: 60_000 });
  await app.page.getByRole('button', { name: '发送' }).waitFor();
});

test(
  'a connection dropped mid-answer: marked interrupted in Chinese, and Retry finishes the answer',
  { skip },
  async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `第${i + 1}句。`);
    app.server.script({ chunks: lines(120), dropAfterChunks: true, chunkDelayMs: 2 }, { chunks: lines(200) });
    await app.page.getByRole('textbox', { name: '消息' }).fill('讲一个长故事');
    await app.page.keyboard.press('Enter');
    const log = app.page.getByRole('log', { name: '对话记录' });
    const end = log.locator('.answer-end.interrupted').last();
    await end.waitFor({ timeout: 120_000 });
    assert.match((await end.textContent()) ?? '', /^已中断： 与 anthropic 的连接在回答完成前断开了（/);
    // What the connection said of itself (undici's "terminated") stays as it came, in code.
    assert.ok(((await end.locator('code').textContent()) ?? '').length > 0);
    assert.deepEqual(await englishOnScreen(), []);
    await end.getByRole('button', { name: '重试' }).click();
    await log.getByText(/第200句。/).waitFor({ timeout: 120_000 });
    await app.page.getByRole('button', { name: '发送' }).waitFor();
  },
);

test('the install dialog with its findings and levels: no English sentence', { skip }, async () => {
  await app.page.getByRole('button', { name: '安装技能' }).click();
  const dialog = app.page.getByRole('dialog', { name: '安装技能' });
  assert.deepEqual(await englishOnScreen(), []);
  await dialog.getByLabel('技能文件夹或 .zip 路径').fill(join(sources, 'fetcher'));
  await dialog.getByRole('button', { name: '审计', exact: true }).click();
  await dialog.getByText('P1 · 需要你的批准').waitFor({ timeout: 60_000 });
  await dialog.getByText('从网络下载（curl）').first().waitFor();
  assert.deepEqual(await englishOnScreen(), []);
  await app.page.keyboard.press('Escape');
  await app.until(async () => (await app.page.getByRole('dialog').count()) === 0);
});

/** The words the dialog's alert says, once it says something, after the page's check for English sentences. */
async function alertSays(where: ReturnType<typeof app.page.getByRole>): Promise<string> {
  const alert = where.getByRole('alert').first();
  await alert.waitFor({ timeout: 120_000 });
  assert.deepEqual(await englishOnScreen(), []);
  return (await alert.textContent()) ?? '';
}

test('a zip that cannot be read or climbs out, and a copy that fails: said in Chinese', { skip }, async () => {
  for (const [path, said] of [
    [join(sources, 'junk.zip'), /无法读取 zip 文件 junk\.zip：它不是 zip 压缩包/],
    [join(sources, 'slip.zip'), /zip 条目「\.\.\/\.\.\/evil\.txt」用「\.\.」跳出了技能文件夹/],
    [join(shallow, 'deep'), /无法复制 deep\/d+\/.*：路径太长/],
  ] as const) {
    await app.page.getByRole('button', { name: '安装技能' }).click();
    const dialog = app.page.getByRole('dialog', { name: '安装技能' });
    await dialog.getByLabel('技能文件夹或 .zip 路径').fill(path);
    await dialog.getByRole('button', { name: '审计', exact: true }).click();
    assert.match(await alertSays(dialog), said);
    await app.page.keyboard.press('Escape');
    await app.until(async () => (await app.page.getByRole('dialog').count()) === 0);
  }
});

test(
  'a source that cannot be reached, a ref that does not exist, a folder with no skill: said in Chinese',
  { skip },
  async () => {
    for (const [source, said] of [
      ['http://127.0.0.1:9/x.git', /http:\/\/127\.0\.0\.1:9\/x\.git：无法连接/],
      [`${repo.url}#no-such-ref`, /：引用「no-such-ref」不存在/],
      [join(sources, 'notes'), /：它和它的子文件夹里都没有 SKILL\.md：不是技能文件夹/],
    ] as const) {
      await app.page.getByRole('button', { name: '安装技能' }).click();
      const dialog = app.page.getByRole('dialog', { name: '安装技能' });
      await dialog.getByRole('tab', { name: '从仓库或市场' }).click();
      await dialog.getByLabel('仓库或市场').fill(source);
      await dialog.getByRole('button', { name: '获取', exact: true }).click();
      assert.match(await alertSays(dialog), said);
      await app.page.keyboard.press('Escape');
      await app.until(async () => (await app.page.getByRole('dialog').count()) === 0);
    }
  },
);

test('a skill that turns P0 while its review is open: Approve is refused in Chinese', { skip }, async () => {
  const sidebar = app.page.getByRole('navigation', { name: '技能' });
  await sidebar.getByRole('button', { name: '信任 notes-sync' }).click();
  const dialog = app.page.getByRole('dialog', { name: '审阅 notes-sync' });
  await dialog.getByText('P1 · 需要你的批准').waitFor({ timeout: 60_000 });
  writeFileSync(
    join(app.workspace, '.workbuddy', 'skills', 'notes-sync', 'SKILL.md'),
    skillMd({ name: 'notes-sync', description: '同步笔记。' }, '# 清理\n\n```bash\nrm -rf ~/\n```\n'),
  );
  await dialog.getByRole('button', { name: '批准', exact: true }).click();
  // Refused either way, in Chinese: the skill is P0 now, or it changed since the review showed it.
  assert.match(await alertSays(dialog), /P0 技能不能被信任|「notes-sync」在显示之后有改动/);
  await app.page.keyboard.press('Escape');
  await app.until(async () => (await app.page.getByRole('dialog').count()) === 0);
});

test(
  'a SKILL.md that cannot be read, a SKILL.md warning, a permission request and a bad settings value: in Chinese',
  { skip },
  async () => {
    const sidebar = app.page.getByRole('navigation', { name: '技能' });
    const broken = sidebar.getByRole('list', { name: '2 个技能无法读取' });
    await broken.getByText('description: YAML 头部缺少必填字段：description').waitFor({ timeout: 60_000 });
    await broken.getByText('bad-yaml/SKILL.md:4').waitFor();
    // The parser's own message as it said it, in code, after the lead in Chinese.
    const yaml = broken.locator('.broken-reason', { hasText: /^allowed-tools: YAML 头部无效：/ });
    assert.match((await yaml.locator('code').textContent()) ?? '', /^Nested mappings are not allowed/);
    assert.deepEqual(await englishOnScreen(), []);
    await sidebar.getByRole('button', { name: '查看 status-sync' }).click();
    await app.page.getByRole('heading', { name: '问题', exact: true }).waitFor({ timeout: 60_000 });
    await app.page.getByText('synonyms: synonyms 必须是同义词组的列表（已忽略）').waitFor();
    assert.deepEqual(await englishOnScreen(), []);
    await sidebar.getByRole('button', { name: '查看 wide-reads' }).click();
    await app.page
      .locator('.finding', { hasText: 'permissions.paths.read[0]：「/etc/passwd」是绝对路径（路径相对于工作区）' })
      .waitFor({ timeout: 60_000 });
    assert.deepEqual(await englishOnScreen(), []);
    await app.page.getByRole('navigation', { name: '视图' }).getByRole('button', { name: '设置' }).click();
    await app.page.getByRole('heading', { name: '设置问题' }).waitFor({ timeout: 60_000 });
    const problem = app.page.locator('.warnings li', { hasText: 'discovery.maxDepth' });
    await problem.waitFor();
    assert.match(
      (await problem.textContent()) ?? '',
      /\.workbuddy\/settings\.json:3: (?:\S+: )?discovery\.maxDepth: 「discovery\.maxDepth」必须是0 或更大的整数（文件夹层数）（实际是 -1）/,
    );
    assert.deepEqual(await englishOnScreen(), []);
  },
);

test('a skill waiting for review, its page, and Settings: no English sentence', { skip }, async () => {
  const sidebar = app.page.getByRole('navigation', { name: '技能' });
  await sidebar.getByRole('button', { name: '查看 status-sync' }).click();
  await app.page.getByRole('heading', { name: 'SKILL.md' }).waitFor();
  assert.deepEqual(await englishOnScreen(), []);
  await app.page.getByRole('navigation', { name: '视图' }).getByRole('button', { name: '设置' }).click();
  await app.page.getByRole('heading', { name: '设置', exact: true }).waitFor();
  // The rule saved by Always allow, and the sandbox line (off in this journey's settings).
  await app.page.locator('td.rule-desc', { hasText: /^允许 bash 命令「git status」/ }).waitFor();
  await app.page.getByRole('heading', { name: '沙箱' }).waitFor();
  assert.deepEqual(await englishOnScreen(), []);
  assert.deepEqual(app.ui.problems, []);
});

test("a wrong key in Test connection: a Chinese lead, the provider's own error as it said it", { skip }, async () => {
  // The key the fake server takes from now on is another one: the key pasted below is refused with Anthropic's 401.
  app.server.requireKey('sk-ant-the-right-one-0123456789');
  await app.page.getByRole('navigation', { name: '视图' }).getByRole('button', { name: '设置' }).click();
  await app.page.getByRole('button', { name: '设置模型' }).first().click();
  await app.page.getByRole('heading', { name: '选择模型服务商' }).waitFor();
  await app.page.getByRole('button', { name: '继续' }).click();
  await app.page.getByLabel('Anthropic 的 API 密钥').fill('sk-ant-wrong-key-9876543210');
  await app.page.getByRole('button', { name: '测试连接' }).click();
  const alert = app.page.locator('.setup-fail');
  await alert.waitFor({ timeout: 60_000 });
  assert.match((await alert.textContent()) ?? '', /^密钥被拒绝。 \(HTTP 401\)Anthropic 返回： invalid x-api-key$/);
  assert.equal(await alert.locator('code').textContent(), 'invalid x-api-key');
  assert.deepEqual(await englishOnScreen(), []);
  await app.page.getByRole('button', { name: '取消' }).click();
  await app.page.getByRole('heading', { name: '设置', exact: true }).waitFor();
});
