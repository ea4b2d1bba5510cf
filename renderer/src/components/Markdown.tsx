// GitHub-flavoured Markdown with highlighted code blocks and a copy button on each.
// Streaming text is split into blocks; finished blocks are memoized so each delta re-renders only the last one,
// code is highlighted once its fence closes, and off-screen blocks skip style and layout (content-visibility).
import { memo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { useTranslation } from 'react-i18next';

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node)
    return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

function CodeBlock({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(textOf(children).replace(/\n$/, ''));
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      /* clipboard refused: nothing to do */
    }
  }
  return (
    <div className="code-block">
      <button type="button" className="copy small" onClick={() => void copy()} aria-label={t('chat.copyCode')}>
        {copied ? t('chat.copied') : t('chat.copy')}
      </button>
      <pre>{children}</pre>
    </div>
  );
}

/** The host a link's text names when the text reads as an address (`https://x.y/…`, `www.x.y`, `x.y/…`). */
function namedHost(text: string): string | undefined {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#\s:@]+\.[a-z]{2,})(?:[:/?#]\S*)?$/i.exec(text.trim());
  return m?.[1]?.toLowerCase().replace(/^www\./, '');
}

function hostOf(href: string): string | undefined {
  try {
    return new URL(href).hostname.toLowerCase().replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A link of the answer. One whose address react-markdown dropped (javascript:, data:, vbscript:, …) is its text only;
 * every link names its address on hover, and one whose text names another host shows the host it really goes to.
 */
function Link({ href, children }: { href?: string | undefined; children?: ReactNode }) {
  if (!href || !/^(https?:|mailto:)/i.test(href)) return <>{children}</>;
  const named = namedHost(textOf(children));
  const real = hostOf(href);
  return (
    <>
      <a href={href} title={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
      {named !== undefined && named !== real && <span className="link-real"> ({real ?? href})</span>}
    </>
  );
}

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
};

/**
 * rehype-highlight builds a new highlighter (every grammar registered and compiled again) each time its plugin is
 * attached, and react-markdown attaches plugins on every render: attach it once and reuse the transformer.
 */
type Transformer = ReturnType<typeof rehypeHighlight>;
let highlighter: Transformer | undefined;
function sharedHighlight(): Transformer {
  return (highlighter ??= rehypeHighlight({ detect: false }));
}

/** Build the highlighter ahead of time, when the page is idle, so the first code block of an answer does not pay for it. */
export function warmHighlighter(): void {
  const idle = (globalThis as { requestIdleCallback?: (f: () => void, o?: { timeout: number }) => void })
    .requestIdleCallback;
  if (idle) idle(() => void sharedHighlight(), { timeout: 5000 });
}

const REMARK = [remarkGfm];
const REHYPE = [sharedHighlight];
const NO_REHYPE: typeof REHYPE = [];

/** True when the block ends inside a fenced code block that has not closed yet (still streaming). */
export function openFence(block: string): boolean {
  let fence: string | undefined;
  for (const line of block.split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (!m) continue;
    if (!fence) fence = m[1]!;
    else if (line.trim().startsWith(fence)) fence = undefined;
  }
  return fence !== undefined;
}

const Block = memo(function Block({ text }: { text: string }) {
  // Code is highlighted when its fence closes: an open block re-renders on every delta, a closed one once.
  const open = openFence(text);
  return (
    <div className="md-block">
      <ReactMarkdown remarkPlugins={REMARK} rehypePlugins={open ? NO_REHYPE : REHYPE} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});

/**
 * Splits Markdown at blank lines that are outside fenced code, so each block parses on its own.
 * A blank line followed by an indented line (a list item's continuation) does not split; fences are never cut.
 */
export function splitBlocks(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let fence: string | undefined;
  let i = 0;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(i, end);
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (!fence) fence = m[1]![0]!.repeat(m[1]!.length);
      else if (line.trim().startsWith(fence)) fence = undefined;
    } else if (!fence && line.trim() === '' && i > start && !/^[ \t]/.test(text.slice(end + 1, end + 2))) {
      out.push(text.slice(start, i));
      start = end + 1;
    }
    if (nl < 0) break;
    i = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out.filter((b) => b.trim() !== '');
}

export function Markdown({ text }: { text: string }) {
  const blocks = splitBlocks(text);
  return (
    <div className="markdown">
      {blocks.map((b, i) => (
        <Block key={i} text={b} />
      ))}
    </div>
  );
}
