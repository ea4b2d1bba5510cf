// The sandbox in the window: the header badge (Sandboxed / Not sandboxed), the banner while commands are not contained
// (auto: every command asks), and the Settings line with the reason and the install hint; a status that cannot be read
// says so.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../../renderer/src/App';
import { memoryClient } from './memory-client';
import { outsideCode, renderWith, WS } from './render';

const UNAVAILABLE = {
  available: false,
  backend: 'bubblewrap',
  reason: 'bubblewrap (bwrap) not installed',
  hint: 'sudo apt install bubblewrap socat ripgrep',
  mode: 'auto' as const,
};

describe('sandbox status', () => {
  it('available: a "Sandboxed" badge, no banner, and Settings names the backend', async () => {
    renderWith(<App />, memoryClient(), { workspace: WS });
    const badge = await screen.findByRole('button', { name: 'Sandboxed' });
    expect(badge.getAttribute('title')).toBe('Commands run inside the OS sandbox (bubblewrap)');
    expect(document.querySelector('.sandbox-banner')).toBeNull();
    await userEvent.click(badge);
    expect(await screen.findByText('Commands run inside the OS sandbox (bubblewrap), mode auto.')).toBeTruthy();
  });

  it('unavailable in auto mode: "Not sandboxed", a banner that every command will ask, and the fix in Settings', async () => {
    const c = memoryClient();
    c.sandbox = UNAVAILABLE;
    renderWith(<App />, c, { workspace: WS });
    const badge = await screen.findByRole('button', { name: 'Not sandboxed' });
    const banner = document.querySelector('.sandbox-banner')!;
    expect(banner.textContent).toContain('Not sandboxed: every command will ask before it runs.');
    expect(banner.textContent).toContain('Why: bubblewrap (bwrap) not installed.');
    // The fix is a sentence too: it ends with its full stop.
    expect(banner.textContent).toContain('Fix: sudo apt install bubblewrap socat ripgrep.');
    await userEvent.click(badge);
    const section = (await screen.findByRole('heading', { name: 'Sandbox' })).parentElement!;
    expect(section.textContent).toContain(
      'The OS sandbox (bubblewrap) is not available here. Every command asks before it runs.',
    );
    expect(section.textContent).toContain('Fix: sudo apt install bubblewrap socat ripgrep.');
  });

  it('required mode says commands are refused; off says it is off in settings', async () => {
    const c = memoryClient();
    c.sandbox = { ...UNAVAILABLE, mode: 'required' };
    const { unmount } = renderWith(<App />, c, { workspace: WS });
    await screen.findByText(/commands are refused until the sandbox is available/);
    unmount();
    c.sandbox = { available: false, backend: 'bubblewrap', reason: 'turned off in settings', hint: '', mode: 'off' };
    renderWith(<App />, c, { workspace: WS });
    await screen.findByText('The sandbox is off in settings: every command asks before it runs.');
    expect(screen.getByRole('button', { name: 'Not sandboxed' })).toBeTruthy();
  });

  it('a status that cannot be read: the badge says unknown and Settings says why', async () => {
    const c = memoryClient();
    c.failing.add('sandbox.status');
    renderWith(<App />, c, { workspace: WS, view: 'settings' });
    expect(await screen.findByRole('button', { name: 'Sandbox: unknown' })).toBeTruthy();
    const why = await screen.findByText(/is not known:/);
    expect(why.getAttribute('role')).toBe('alert');
    // What failed said it in its own words: shown as it is, in code.
    expect(why.querySelector('code')?.textContent).toBe('sandbox.status failed on purpose');
  });

  it('in Chinese', async () => {
    const c = memoryClient();
    c.sandbox = UNAVAILABLE;
    renderWith(<App />, c, { workspace: WS }, 'zh');
    expect(await screen.findByRole('button', { name: '未受沙箱保护' })).toBeTruthy();
    expect(document.querySelector('.sandbox-banner')!.textContent).toContain(
      '未受沙箱保护：每条命令运行前都会先询问你。',
    );
  });

  it('says the reason and the fix main sent as words in Chinese', async () => {
    const c = memoryClient();
    c.sandbox = {
      ...UNAVAILABLE,
      reasonWords: { code: 'sandbox.probeFailed', params: { code: '1' } },
      hintWords: { code: 'sandbox.hintWindows', params: { command: 'npx srt install' } },
    };
    renderWith(<App />, c, { workspace: WS }, 'zh');
    await screen.findByRole('button', { name: '未受沙箱保护' });
    const banner = document.querySelector('.sandbox-banner')!.textContent ?? '';
    expect(banner).toContain('一条测试命令没能在沙箱中运行（退出码 1）');
    // A sentence like the other hints: the command in it, no Markdown backticks shown as text.
    expect(banner).toContain('以管理员身份运行 npx srt install（沙箱运行时会创建自己的 Windows 用户）');
    expect(banner).not.toContain('`');
  });

  it('says the Windows fix as a sentence in English too, without Markdown backticks', async () => {
    const c = memoryClient();
    c.sandbox = { ...UNAVAILABLE, hintWords: { code: 'sandbox.hintWindows', params: { command: 'npx srt install' } } };
    renderWith(<App />, c, { workspace: WS });
    await screen.findByRole('button', { name: 'Not sandboxed' });
    const banner = document.querySelector('.sandbox-banner')!.textContent ?? '';
    expect(banner).toContain(
      'Fix: run npx srt install as administrator (the sandbox runtime sets up its own Windows user)',
    );
    expect(banner).not.toContain('`');
  });

  it('in Chinese, names a missing file scanner in Chinese and says the fix as a sentence, not code', async () => {
    const c = memoryClient();
    c.sandbox = {
      ...UNAVAILABLE,
      // As main says it when `true`, the sandbox's file scanner, is not on PATH (main/core/contain/wall.ts).
      reasonWords: {
        code: 'sandbox.notInstalled',
        params: {
          programs: {
            code: 'listAnd',
            params: { a: 'bubblewrap (bwrap)', b: { code: 'sandbox.scanner', params: { command: 'true' } } },
          },
        },
      },
      hintWords: {
        code: 'sandbox.hintLinux',
        params: { apt: 'sudo apt install bubblewrap socat ripgrep', dnf: 'sudo dnf install bubblewrap socat ripgrep' },
      },
    };
    renderWith(<App />, c, { workspace: WS }, 'zh');
    const badge = await screen.findByRole('button', { name: '未受沙箱保护' });
    const banner = document.querySelector<HTMLElement>('.sandbox-banner')!;
    expect(banner.textContent).toContain('没有安装 bubblewrap (bwrap)、true（沙箱的文件扫描程序）');
    expect(banner.textContent).not.toContain('file scanner');
    expect(banner.textContent).toContain('安装 bubblewrap、socat 和 ripgrep（Debian/Ubuntu：sudo apt install');
    expect(banner.textContent).toMatch(/命名空间。$/);
    expect(banner.querySelector('code')).toBeNull();
    await userEvent.click(badge);
    const section = (await screen.findByRole('heading', { name: '沙箱' })).parentElement!;
    expect(section.textContent).toContain('true（沙箱的文件扫描程序）');
    expect(section.querySelector('code')).toBeNull();
  });

  for (const [lang, badge, why, title] of [
    ['en', 'Not sandboxed', 'Why: the sandbox did not start: .', 'Sandbox'],
    ['zh', '未受沙箱保护', '原因：沙箱没有启动：。', '沙箱'],
  ] as const)
    it(`shows what the sandbox said as it said it, in code, inside the ${lang} reason`, async () => {
      const said = 'bwrap: <img src=x onerror=alert(1)> **setting up uid map**: Permission denied';
      const c = memoryClient();
      c.sandbox = { ...UNAVAILABLE, hint: '', reasonWords: { code: 'sandbox.didNotStart', params: { error: said } } };
      renderWith(<App />, c, { workspace: WS }, lang);
      const button = await screen.findByRole('button', { name: badge });
      const banner = document.querySelector<HTMLElement>('.sandbox-banner')!;
      expect([...banner.querySelectorAll('code')].map((x) => x.textContent)).toEqual([said]);
      expect(outsideCode(banner)).toContain(` ${why}`);
      await userEvent.click(button);
      const section = (await screen.findByRole('heading', { name: title })).parentElement!;
      const line = [...section.querySelectorAll('p')].find((p) => outsideCode(p) === why)!;
      expect(line.querySelector('code')?.textContent).toBe(said);
      expect(document.querySelector('img')).toBeNull();
    });
});
