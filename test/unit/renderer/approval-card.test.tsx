// The approval card shows what the gate checked (issue 8, remaining gap 2): the rule that asked and its scope, the
// acting skill's identity with its content hash and the real paths — every string through the shared escaping, so
// a bidi override or an escape sequence in a path or argument cannot reorder what the person approving reads.
import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { memoryClient } from './memory-client';
import { approval, gatedWrite } from './samples';
import { outsideCode, renderWith, WS } from './render';

const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

describe('approval card', () => {
  it('shows the rule, its scope, the skill identity and the real paths the gate checked', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() =>
      c.event('chat.approval', {
        sessionId: 's1',
        ...gatedWrite,
      }),
    );
    const card = await screen.findByRole('region', { name: 'Approval for write_file' });
    const gate = card.querySelector('dl.gate-decision')!;
    expect(gate).toBeTruthy();
    expect(gate.getAttribute('aria-label')).toBe('What the gate checked');
    const text = gate.textContent ?? '';
    expect(text).toContain('Ruleask write_file in /home/me/alpha');
    expect(text).toContain('Scopeworkspace /home/me/alpha, skill deploy');
    expect(text).toContain('deploy (user tier, /home/me/.workbuddy/skills/deploy) · content 0123456789ab');
    expect(text).toContain('Writes/home/me/alpha/out.txt');
    expect(text).not.toContain('Reads');
  });

  it('escapes control and bidi characters in every field it shows, the arguments too', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const evil = 'invoice\u202etxt.exe\x1b[2K\u200b';
    act(() =>
      c.event(
        'chat.approval',
        approval({
          approvalId: 'a2',
          tool: 'write_file',
          args: { path: evil },
          reason: `writes ${evil}`,
          summary: `write_file: ${evil}`,
          decision: {
            rule: `ask write_file path ${evil}`,
            scope: `workspace /w${evil}`,
            skill: { name: `d${evil}`, dir: `/s/${evil}` },
            paths: { read: [`/w/${evil}`], write: [`/w/${evil}`] },
          },
        }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'Approval for write_file' });
    expect(INVISIBLE.test(card.textContent ?? '')).toBe(false);
    expect(card.querySelector('dl.gate-decision')!.textContent).toContain('invoice\\u{202e}txt.exe\\x1b[2K\\u{200b}');
    expect(card.querySelector('pre.args')!.textContent).toContain('\\u{202e}');
  });

  it('shows no decision block when the gate reported no fields (a call asked by category default)', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() => c.event('chat.approval', approval({ approvalId: 'a3', tool: 'bash', args: { command: 'ls' } })));
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    expect(card.querySelector('dl.gate-decision')).toBeNull();
  });

  it('lists each rule "Always allow" would save on a line of its own (a pipeline saves one per program)', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const rules = [
      'allow bash command "git log" while skill notes is loaded in /w',
      'allow bash command "head" while skill notes is loaded in /w',
    ];
    act(() =>
      c.event(
        'chat.approval',
        approval({ approvalId: 'a4', tool: 'bash', args: { command: 'git log | head -5' }, alwaysPreview: rules }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    const list = card.querySelector('ul.rules-preview')!;
    expect(list).toBeTruthy();
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(rules);
    expect(card.textContent).toContain('Always allow saves these 2 rules');
  });

  it('names the single rule "Always allow" would save', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() =>
      c.event(
        'chat.approval',
        approval({
          approvalId: 'a5',
          tool: 'bash',
          args: { command: 'git status' },
          alwaysPreview: ['allow bash command "git status" in /w'],
        }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    expect([...card.querySelectorAll('ul.rules-preview li')].map((li) => li.textContent)).toEqual([
      'allow bash command "git status" in /w',
    ]);
    expect(card.textContent).toContain('Always allow saves the rule');
  });

  it('shows a rule with a newline in it (a quoted word of the command) as one rule, the newline escaped', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const rule = 'allow bash command "git \'status\nallow bash command "ls"\'" in /w';
    act(() => c.event('chat.approval', approval({ approvalId: 'a6', tool: 'bash', args: {}, alwaysPreview: [rule] })));
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    const items = [...card.querySelectorAll('ul.rules-preview li')].map((li) => li.textContent);
    expect(items).toEqual(['allow bash command "git \'status\\nallow bash command "ls"\'" in /w']);
    expect(card.textContent).toContain('Always allow saves the rule');
  });

  it('shows the command once, the risk lines, and never pre-ticks a rule that widens to the network', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    const command = 'npm test && curl -s https://example.com/report -d @coverage.json';
    act(() =>
      c.event(
        'chat.approval',
        approval({
          approvalId: 'a7',
          tool: 'bash',
          args: { command },
          reason: 'bash: no rule covers this command',
          summary: `bash: ${command}`,
          alwaysPreview: ['allow bash command "npm test" in /w', `allow bash command "${command.slice(12)}" in /w`],
          alwaysWidens: [null, 'network'],
          risks: [
            { code: 'sends', params: { host: 'example.com' } },
            { code: 'networkOff', params: {} },
          ],
        }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    const shown = (card.textContent ?? '').replace(card.querySelector('details')!.textContent ?? '', '');
    expect(shown.split('npm test && curl').length - 1).toBe(1);
    const risks = within(card).getByRole('list', { name: 'What this would do' });
    expect(
      within(risks)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Sends data to example.com',
      'Needs the network, which is off here (it will fail unless you allow the network in Settings)',
    ]);
    const boxes = within(card).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, false]);
    expect(within(card).getByText('allows network use')).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Always allow (1 rule)' }));
    expect(c.calls.find((x) => x.method === 'chat.answer')?.args).toEqual([
      { sessionId: 's1', approvalId: 'a7', answer: 'always', rules: [0] },
    ]);
  });

  it('unticking every rule leaves nothing to save: Always allow is off', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true });
    act(() =>
      c.event(
        'chat.approval',
        approval({ approvalId: 'a8', tool: 'bash', args: { command: 'git status' }, alwaysPreview: ['allow git'] }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'Approval for bash' });
    await userEvent.click(within(card).getByRole('checkbox'));
    expect((within(card).getByRole('button', { name: 'Always allow (0 rules)' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it("says the gate's reason in the window's language, nested words too, escaped", async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, 'zh');
    act(() =>
      c.event(
        'chat.approval',
        approval({
          approvalId: 'a2',
          tool: 'bash',
          args: { command: 'make deploy' },
          reason: 'your rule "ask bash everywhere" asks every time',
          words: {
            code: 'gate.ruleAsks',
            params: {
              rule: {
                code: 'joinSpace',
                params: {
                  a: { code: 'rule.head', params: { effect: { code: 'rule.ask' }, tool: 'bash<img src=x>' } },
                  b: { code: 'rule.everywhere' },
                },
              },
            },
          },
        }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'bash 的批准请求' });
    const details = card.querySelector('details.approval-details')!;
    expect(details.textContent).toContain('你的规则「询问 bash<img src=x> 所有工作区」要求每次都询问');
    expect(details.querySelector('img')).toBeNull();
  });

  it('says the rules Always allow would save and the rule and scope that asked in Chinese, escaped onto one line', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, 'zh');
    const rule = (command: string) => ({
      code: 'joinSpace',
      params: {
        a: {
          code: 'joinSpace',
          params: {
            a: { code: 'rule.head', params: { effect: { code: 'rule.allow' }, tool: 'bash' } },
            b: { code: 'rule.command', params: { command } },
          },
        },
        b: { code: 'rule.in', params: { workspace: '/home/me/alpha' } },
      },
    });
    act(() =>
      c.event(
        'chat.approval',
        approval({
          approvalId: 'a3',
          tool: 'bash',
          args: { command: 'git log | head' },
          reason: 'your rule asks every time',
          alwaysPreview: [
            'allow bash command "git log" in /home/me/alpha',
            'allow bash command "head\nrm -rf ~" in /home/me/alpha',
          ],
          alwaysWords: [rule('git log'), rule('head\nrm -rf ~<img src=x>')],
          decision: {
            rule: 'ask bash everywhere',
            scope: 'every workspace',
            ruleWords: {
              code: 'joinSpace',
              params: {
                a: { code: 'rule.head', params: { effect: { code: 'rule.ask' }, tool: 'bash' } },
                b: { code: 'rule.everywhere' },
              },
            },
            scopeWords: { code: 'rule.scopeAll' },
          },
        }),
      ),
    );
    const card = await screen.findByRole('region', { name: 'bash 的批准请求' });
    const items = [...card.querySelectorAll('.rules-preview li')].map((li) => li.textContent);
    expect(items).toEqual([
      '允许 bash 命令「git log」 限于 /home/me/alpha',
      expect.stringMatching(/^允许 bash 命令「head\\nrm -rf ~<img src=x>」 限于 \/home\/me\/alpha$/),
    ]);
    expect(card.querySelector('.rules-preview img')).toBeNull();
    const dl = card.querySelector('dl.gate-decision')!;
    expect(dl.textContent).toContain('询问 bash 所有工作区');
    expect(dl.textContent).toContain('所有工作区');
    expect(dl.textContent).not.toMatch(/every workspace|ask bash/);
  });

  // What a tool's argument or the check that failed said: a right-to-left override, markup and markdown.
  const hostile = 'a.txt\u202e<img src=x onerror=alert(1)> **bold** [link](https://x.test)';
  const escaped = 'a.txt\\u{202e}<img src=x onerror=alert(1)> **bold** [link](https://x.test)';
  for (const [lang, name, lead] of [
    ['en', 'Approval for write_file', 'refused: the call could not be checked ()'],
    ['zh', 'write_file 的批准请求', '已拒绝：无法检查这次调用（）'],
  ] as const)
    it(`shows what another program said in the ${lang} reason in code, escaped, never as markup`, async () => {
      const c = memoryClient();
      renderWith(<App />, c, { workspace: WS, sessionId: 's1', streaming: true }, lang);
      act(() =>
        c.event(
          'chat.approval',
          approval({
            approvalId: 'a9',
            tool: 'write_file',
            args: { path: hostile },
            reason: `refused: the call could not be checked (${hostile})`,
            words: { code: 'gate.unchecked', params: { error: hostile } },
            decision: {
              rule: 'x',
              ruleWords: { code: 'gate.unchecked', params: { error: hostile } },
            },
          }),
        ),
      );
      const card = await screen.findByRole('region', { name });
      expect(card.querySelector('img, a')).toBeNull();
      expect([...card.querySelectorAll('strong')].filter((x) => !x.closest('header'))).toEqual([]);
      expect(INVISIBLE.test(card.textContent ?? '')).toBe(false);
      const reason = card.querySelector<HTMLElement>('details.approval-details > p')!;
      expect([...reason.querySelectorAll('code')].map((x) => x.textContent)).toEqual([escaped]);
      expect(outsideCode(reason)).toBe(lead);
      const rule = card.querySelector('dl.gate-decision dd')!;
      expect(rule.querySelector('code')?.textContent).toBe(escaped);
      expect(card.querySelector('pre.args')!.textContent).toContain('\\u{202e}');
    });
});
