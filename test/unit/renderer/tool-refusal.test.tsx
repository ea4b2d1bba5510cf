// A tool call the gate refused says why in the window's language (the words main sent with its result), escaped,
// instead of the JSON error the model read. A command the OS sandbox blocked says what was blocked the same way, with
// the command that moves a swept file back kept as it is, and the command's own output still one click away.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, screen } from '@testing-library/react';
import { App } from '../../../renderer/src/App';
import { say, type Said } from '../../../preload/words';
import type { Lang } from '../../../renderer/src/i18n';
import { memoryClient } from './memory-client';
import { outsideCode, renderWith, WS } from './render';

const refusal = {
  code: 'tool.denied',
  params: {
    tool: 'write_file',
    reason: {
      code: 'gate.ruleDenies',
      params: {
        rule: {
          code: 'joinSpace',
          params: {
            a: { code: 'rule.head', params: { effect: { code: 'rule.deny' }, tool: 'write_file' } },
            b: { code: 'rule.path', params: { path: 'secret/**\u202e<img src=x>' } },
          },
        },
      },
    },
  },
};

afterEach(cleanup);

/** The card of one failed tool call, shown with the words main sent. */
async function failedCard(
  lang: Lang,
  card: { tool: string; args: Record<string, unknown>; status: 'error' | 'denied'; output: string; words: Said },
): Promise<HTMLElement> {
  const c = memoryClient();
  renderWith(<App />, c, { workspace: WS, sessionId: 's1' }, lang);
  act(() => c.event('chat.toolCall', { sessionId: 's1', turnId: 'm1', card: { callId: 't1', ...card } }));
  return screen.findByRole('region', { name: new RegExp(card.tool) });
}

describe('a refused tool call', () => {
  it('says the refusal in Chinese, escaped, and not the raw error', async () => {
    const card = await failedCard('zh', {
      tool: 'write_file',
      args: { path: 'secret/k.txt' },
      status: 'denied',
      output: '{"error":{"code":"tool.denied","message":"write_file denied: your rule ..."}}',
      words: refusal,
    });
    const line = card.querySelector('.tool-refusal')!;
    expect(line.textContent).toBe(
      'write_file 被拒绝：你的规则「拒绝 write_file 路径 secret/**\\u{202e}<img src=x>」拒绝了它',
    );
    expect(card.querySelector('img')).toBeNull();
    expect(card.textContent).not.toContain('"error"');
  });
});

describe('a call the gate could not check', () => {
  // What the check that failed said: a right-to-left override, markup and markdown.
  const hostile = 'x\u202e<img src=x onerror=alert(1)> **bold** [link](https://x.test)';
  for (const [lang, lead] of [
    ['en', 'write_file denied: refused: the call could not be checked ()'],
    ['zh', 'write_file 被拒绝：已拒绝：无法检查这次调用（）'],
  ] as const)
    it(`says why in ${lang}, what the check said in code, escaped, never as markup`, async () => {
      const card = await failedCard(lang, {
        tool: 'write_file',
        args: { path: 'a.txt' },
        status: 'denied',
        output: '{"error":{"code":"tool.denied","message":"write_file denied: ..."}}',
        words: {
          code: 'tool.denied',
          params: { tool: 'write_file', reason: { code: 'gate.unchecked', params: { error: hostile } } },
        },
      });
      const line = card.querySelector<HTMLElement>('.tool-refusal')!;
      expect([...line.querySelectorAll('code')].map((x) => x.textContent)).toEqual([
        'x\\u{202e}<img src=x onerror=alert(1)> **bold** [link](https://x.test)',
      ]);
      expect(outsideCode(line)).toBe(lead);
      expect(card.querySelector('img, strong, a')).toBeNull();
      expect(card.textContent).not.toContain('\u202e');
    });
});

// What main's blockedOf and sweepProtect say, with a hostile hook name (markup and a right-to-left override).
const hooks = say('wall.effectHooks', { hooks: 'pre-commit\u202e<img src=x>' });
const words = say('wall.blocked', {
  blocked: say('listSemicolon', {
    a: say('wall.movedAside', {
      path: '.git/hooks',
      effect: hooks,
      aside: 'hooks.blocked-20261206T224500',
      command: "mv '.git/hooks.blocked-20261206T224500' '.git/hooks'",
    }),
    b: say('wall.networkDirect', { host: say('wall.aHostName') }),
  }),
  exit: '1',
});

const blockedCard = (lang: Lang): Promise<HTMLElement> =>
  failedCard(lang, {
    tool: 'bash',
    args: { command: 'make hooks' },
    status: 'error',
    output: '{"error":{"code":"sandbox.blocked","message":"the sandbox blocked ...","details":{"stdout":"made"}}}',
    words,
  });

describe('a command the sandbox blocked', () => {
  it('says what was blocked in Chinese, the mv command as it is, escaped', async () => {
    const card = await blockedCard('zh');
    expect(card.querySelector('.tool-refusal')!.textContent).toBe(
      '沙箱拦下了写入：.git/hooks 受保护（它能运行程序或改动 Knack 或 git）：命令运行期间那里出现了' +
        'git 钩子（pre-commit\\u{202e}<img src=x>）；已移到一旁，改名为 hooks.blocked-20261206T224500。' +
        "如果是你自己放的，请在没有命令运行时移回去：mv '.git/hooks.blocked-20261206T224500' '.git/hooks'" +
        '；网络：（一个主机名） 被拒绝（在沙箱内，命令只能通过沙箱的代理访问允许它访问的主机）（退出码 1）。' +
        '如果任务确实需要，模型可能会请求在沙箱之外运行这条命令：运行前会先询问你。',
    );
    expect(card.querySelector('img')).toBeNull();
    // The command's output is still there, behind the error's summary.
    expect(card.querySelector('details pre.error')!.textContent).toContain('"stdout":"made"');
  });

  it('says it in English, telling the person (not the model) what comes next', async () => {
    const card = await blockedCard('en');
    expect(card.querySelector('.tool-refusal')!.textContent).toBe(
      'the sandbox blocked write: .git/hooks is protected (it can run programs or change Knack or git): ' +
        'git hooks (pre-commit\\u{202e}<img src=x>) appeared there while the command ran; moved aside to ' +
        'hooks.blocked-20261206T224500. If you made it yourself, move it back once no command runs: ' +
        "mv '.git/hooks.blocked-20261206T224500' '.git/hooks'; network: (a host name) refused (inside the sandbox, " +
        'commands reach only the hosts allowed to them, through its proxy) (exit 1). If the task needs it, the model ' +
        'may ask to run the command WITHOUT the sandbox: you are asked first.',
    );
    expect(card.querySelector('img')).toBeNull();
  });
});

describe("a host the sandbox's proxy refused", () => {
  // What bash's sandbox.blocked result carries for a host the runtime refused (main/core/contain/blocked.ts).
  const refused = say('wall.blocked', {
    blocked: say('wall.networkRefusedWhy', {
      host: 'evil.example.test:80',
      why: say('wall.why.resolvedTo', {
        addresses: say('listOrWord', { a: say('wall.address.loopback'), b: say('wall.address.linkLocal') }),
      }),
    }),
    exit: '6',
  });
  const output =
    '{"error":{"code":"sandbox.blocked","message":"the sandbox blocked network: evil.example.test:80 refused ...",' +
    '"details":{"stderr":"curl: (56) CONNECT tunnel failed","blocked":[{"detail":"resolved to a loopback address / a link-local address"}]}}}';

  it('says why in Chinese; the raw result the model read is only behind the closed disclosure', async () => {
    const card = await failedCard('zh', {
      tool: 'bash',
      args: { command: 'curl http://evil.example.test' },
      status: 'error',
      output,
      words: refused,
    });
    expect(card.querySelector('.tool-refusal')!.textContent).toBe(
      '沙箱拦下了网络：evil.example.test:80 被拒绝（它的名字解析到回环地址（本机） 或 链路本地地址（云元数据服务所在））' +
        '（退出码 6）。如果任务确实需要，模型可能会请求在沙箱之外运行这条命令：运行前会先询问你。',
    );
    const details = card.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('详情');
    expect(details.querySelector('pre')!.textContent).toBe(output);
    // What shows without opening anything: the card less the disclosure's body and the arguments (a command).
    const shown = card.cloneNode(true) as HTMLElement;
    shown.querySelector('details pre')!.remove();
    shown.querySelector('pre.args')!.remove();
    expect(shown.textContent).not.toContain('"error"');
    expect(shown.textContent!.replace(/evil\.example\.test(:80)?/g, '')).not.toMatch(
      /\b[A-Za-z]{2,}\b(?:[\s,]+\b[A-Za-z]{2,}\b){2,}/,
    );
  });
});
