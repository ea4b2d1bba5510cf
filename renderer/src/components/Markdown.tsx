// GitHub-flavoured Markdown with highlighted code blocks and a copy button on each.
// Streaming text is split into blocks; finished blocks are memoized so each delta re-renders only the last one.
import { memo, useState, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import rehypeHighlight from 'rehype-highlight';
import { useTranslation } from 'react-i18next';

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node) return textOf((node.props as { children?: ReactNode }).children);
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
    } catch { /* clipboard refused: nothing to do */ }
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

const components: Components = {
  pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
  a: ({ href, children }) => <a href={href} target="_blank" rel="noreferrer noopener">{children}</a>,
};

const Block = memo(function Block({ text }: { text: string }) {
  return <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false, ignoreMissing: true }]]} components={components}>{text}</ReactMarkdown>;
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
  return <div className="markdown">{blocks.map((b, i) => <Block key={i} text={b} />)}</div>;
}
