// A tool call the gate refused says why in the window's language (the words main sent with its result), escaped,
// instead of the JSON error the model read.
import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { App } from '../../../renderer/src/App';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

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

describe('a refused tool call', () => {
  it('says the refusal in Chinese, escaped, and not the raw error', async () => {
    const c = memoryClient();
    renderWith(<App />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    act(() =>
      c.event('chat.toolCall', {
        sessionId: 's1',
        turnId: 'm1',
        card: {
          callId: 't1',
          tool: 'write_file',
          args: { path: 'secret/k.txt' },
          status: 'denied',
          output: '{"error":{"code":"tool.denied","message":"write_file denied: your rule ..."}}',
          words: refusal,
        },
      }),
    );
    const card = await screen.findByRole('region', { name: /write_file/ });
    const line = card.querySelector('.tool-refusal')!;
    expect(line.textContent).toBe(
      'write_file 被拒绝：你的规则「拒绝 write_file 路径 secret/**\\u{202e}<img src=x>」拒绝了它',
    );
    expect(card.querySelector('img')).toBeNull();
    expect(card.textContent).not.toContain('"error"');
  });
});
