// The tokens and cost a conversation has used so far, beside the context meter: the cost where the model has a price,
// "cost unknown" (never $0) where it has none, nothing before the first call; in English and Chinese.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ContextMeter } from '../../../renderer/src/components/ContextMeter';
import { memoryClient } from './memory-client';
import { renderWith, WS } from './render';

describe('ContextMeter: tokens and cost so far', () => {
  it('shows tokens in and out, cached ones, and the cost', async () => {
    const c = memoryClient();
    c.context.spent = {
      inputTokens: 12345,
      outputTokens: 678,
      cacheReadTokens: 600,
      cacheWriteTokens: 300,
      costUsd: 0.0123,
    };
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' });
    const line = await screen.findByLabelText('Used so far in this conversation');
    expect(line.textContent).toBe('12,345 tokens in, 678 out · 900 cached · $0.0123 so far');
  });

  it('says the cost is unknown where the model has no price, in Chinese too', async () => {
    const c = memoryClient();
    c.context.spent = { inputTokens: 10, outputTokens: 5 };
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    const line = await screen.findByLabelText('本次对话目前的用量');
    expect(line.textContent).toBe('输入 10 个 token，输出 5 个 · 费用未知（此模型没有价格）');
    expect(line.textContent).not.toContain('$');
  });

  it('shows nothing spent before the first call', async () => {
    const c = memoryClient();
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' });
    await screen.findByRole('meter');
    expect(screen.queryByLabelText('Used so far in this conversation')).toBeNull();
  });
});

describe('ContextMeter after a branch: the branch on screen and every branch, each named', () => {
  it('shows the branch’s own use and the whole conversation’s, in English', async () => {
    const c = memoryClient();
    c.context.spent = { inputTokens: 100, outputTokens: 20, costUsd: 0.0006 };
    c.context.spentAll = { inputTokens: 250, outputTokens: 50, costUsd: 0.0015 };
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' });
    const branch = await screen.findByLabelText('Used by the branch on screen');
    expect(branch.textContent).toBe('This branch: 100 tokens in, 20 out · $0.0006 so far');
    const all = screen.getByLabelText('Used by every branch of this conversation');
    expect(all.textContent).toBe('All branches: 250 tokens in, 50 out · $0.0015 so far');
    expect(screen.queryByLabelText('Used so far in this conversation')).toBeNull();
  });

  it('in Chinese, with the whole conversation unpriced', async () => {
    const c = memoryClient();
    c.context.spent = { inputTokens: 100, outputTokens: 20, costUsd: 0.0006 };
    c.context.spentAll = { inputTokens: 250, outputTokens: 50 };
    renderWith(<ContextMeter />, c, { workspace: WS, sessionId: 's1' }, 'zh');
    const branch = await screen.findByLabelText('当前显示的分支的用量');
    expect(branch.textContent).toBe('当前分支：输入 100 个 token，输出 20 个 · 目前花费 $0.0006');
    const all = screen.getByLabelText('本次对话所有分支的用量');
    expect(all.textContent).toBe('所有分支：输入 250 个 token，输出 50 个 · 费用未知（此模型没有价格）');
  });
});
