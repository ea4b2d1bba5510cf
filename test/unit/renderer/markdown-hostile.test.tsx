// Hostile model output in the answer's Markdown: script links, raw HTML and links whose text names another address
// render as nothing that runs, and the window shows where a link really goes.
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../../renderer/src/components/Markdown';
import { memoryClient } from './memory-client';
import { renderWith } from './render';

const show = (text: string) => renderWith(<Markdown text={text} />, memoryClient()).container;

describe('Markdown from a hostile model', () => {
  it('a javascript:, vbscript:, data: or file: link is shown as its text, not as a link', () => {
    const el = show(
      [
        '[run](javascript:alert(1)) [vb](vbscript:msgbox) [page](data:text/html,<script>alert(1)</script>)',
        '[disk](file:///etc/passwd) [spaced](  JaVaScRiPt:alert(1)) <javascript:alert(2)>',
        '[ok](https://example.com/docs)',
      ].join('\n\n'),
    );
    const hrefs = [...el.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://example.com/docs']);
    expect(el.textContent).toContain('run');
    expect(el.textContent).toContain('disk');
  });

  it('raw HTML is shown as text: no script, image, frame, form or styled element', () => {
    const el = show(
      [
        '<script>alert(1)</script>',
        '<img src="https://evil.example/p.png" onerror="alert(1)">',
        '<iframe src="https://evil.example"></iframe> <form action="https://evil.example"><button>Go</button></form>',
        '<a href="javascript:alert(1)">click</a> <div style="position:fixed;inset:0">cover</div>',
      ].join('\n\n'),
    );
    expect(el.querySelector('script, img, iframe, form, button, [style], [onerror]')).toBeNull();
    expect([...el.querySelectorAll('a')]).toEqual([]);
  });

  it('a link whose text names another address shows where it goes', () => {
    const el = show(
      [
        '[https://bank.example/login](https://evil.example/phish)',
        '[www.bank.example](https://bank.example.evil.example/)',
        '[bank.example/login](https://bank.example/login)',
        '[https://www.docs.example/x](https://docs.example/x)',
        '[the docs](https://docs.example/y)',
      ].join('\n\n'),
    );
    const links = [...el.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('title'))).toEqual([
      'https://evil.example/phish',
      'https://bank.example.evil.example/',
      'https://bank.example/login',
      'https://docs.example/x',
      'https://docs.example/y',
    ]);
    // Beside each deceptive link, its real host; none beside honest ones.
    expect([...el.querySelectorAll('.link-real')].map((s) => s.textContent)).toEqual([
      ' (evil.example)',
      ' (bank.example.evil.example)',
    ]);
  });
});
