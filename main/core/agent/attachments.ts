// Files sent with a user's message: text and code files go to the model as context (name, size, content), images as
// image blocks for models that read them. Everything the window sends is checked again here, before it is stored.
import { countTokens, english, Refusal, say, type Said } from '../base/index.js';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export type Attachment =
  | { kind: 'text'; name: string; mime: string; size: number; text: string }
  | { kind: 'image'; name: string; mime: ImageType; size: number; data: string };

/**
 * Tokens one image counts for in the context meter: Anthropic scales an image to at most about 1.15 megapixels,
 * about 1,600 tokens (width × height / 750); OpenAI's high detail is in the same range. An estimate that never counts
 * an image as free: the provider's usage event gives the real figure once it has answered.
 */
export const IMAGE_TOKENS = 1600;

/** Share of the model's context window the files of one message may fill. */
const ATTACH_SHARE = 0.5;

/** The first bytes of each image type: a file is taken as an image only when its bytes say so, not its name. */
const MAGIC: Record<ImageType, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')),
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Whether a model reads images. An explicit setting (providers.json `vision`) wins; else what its name says. */
export function visionOf(kind: 'anthropic' | 'openai', model: string, setting?: boolean): boolean {
  if (setting !== undefined) return setting;
  const m = model.toLowerCase();
  if (kind === 'anthropic') return /^claude-/.test(m) && !/^claude-(instant|2)/.test(m);
  return /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|^o[134](-|$)|vision|-vl|vl-|qwen-vl|glm-4\.?\dv|llava|gemini|pixtral/.test(
    m,
  );
}

/** A file name as the model and the window see it: one line, no markup characters, at most 255 characters. */
function attachmentName(name: string): string {
  const flat = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f<>"&]/g, '_')
    .trim();
  return (flat || 'file').slice(0, 255);
}

/** A size for people: bytes, KB or MB (1024-based, one decimal). */
function sizeWords(bytes: number): Said {
  if (bytes < 1024) return say('size.bytes', { n: bytes });
  if (bytes < 1024 * 1024) return say('size.kb', { n: (bytes / 1024).toFixed(1) });
  return say('size.mb', { n: (bytes / 1024 / 1024).toFixed(1) });
}

const sizeText = (bytes: number): string => english(sizeWords(bytes));

/**
 * The text a text file goes to the model as: its name and size, then its content. The closing tag inside the content
 * is broken up, so a file cannot end its own wrapper and pass what follows as something else.
 */
export function attachmentText(a: Extract<Attachment, { kind: 'text' }>): string {
  const body = a.text.replace(/<\/attachment>/gi, '<\\/attachment>');
  return `<attachment name="${a.name}" size="${sizeText(a.size)}">\n${body}\n</attachment>`;
}

/**
 * What an image sent earlier goes to a model that does not read images as (one picked after it was sent): a note with
 * its name, size and type, so the request stays one the provider takes (an image block to such a model is a 400) and
 * the model can say it cannot see it.
 */
export function unseenImageText(a: Extract<Attachment, { kind: 'image' }>): string {
  return `<attachment name="${a.name}" size="${sizeText(a.size)}">\n[an image (${a.mime}): this model does not read images, so it is not shown]\n</attachment>`;
}

/**
 * Tokens an attachment takes in the prompt (what the context meter counts): an image as an image block to a model
 * that reads images (`vision`), else as the note it is sent as (unseenImageText).
 */
export function attachmentTokens(a: Attachment, vision: boolean): number {
  if (a.kind === 'image') return vision ? IMAGE_TOKENS : countTokens(unseenImageText(a));
  return countTokens(attachmentText(a)) + 4;
}

/** An upper bound of attachmentTokens without counting (a token is at least one byte). */
export function attachmentTokensAtMost(a: Attachment, vision: boolean): number {
  if (a.kind === 'image') return vision ? IMAGE_TOKENS : Buffer.byteLength(unseenImageText(a));
  return Buffer.byteLength(attachmentText(a)) + 4;
}

/** A file refused: why in words (their English is the message), and the file's name. */
export class AttachmentError extends Refusal {
  constructor(
    words: Said,
    readonly file: string,
  ) {
    super(words);
  }
}

/**
 * The files of one message, checked for the model that will read them: an image must be one by its bytes and the
 * model must read images (else refused before anything is sent, naming the model); a text file must be text (no NUL
 * byte); together they must fit in ATTACH_SHARE of the context window. Returns them with safe names; throws an
 * AttachmentError naming the file, its size and the limit.
 */
export function checkAttachments(
  list: readonly Attachment[],
  model: { model: string; contextWindow: number; vision: boolean } | undefined,
): Attachment[] {
  const out: Attachment[] = [];
  let tokens = 0;
  const limit = Math.floor((model?.contextWindow ?? 0) * ATTACH_SHARE);
  for (const raw of list) {
    const name = attachmentName(raw.name);
    if (raw.kind === 'image') {
      if (!model) throw new AttachmentError(say('attach.noModel', { name }), name);
      if (!model.vision) throw new AttachmentError(say('attach.noVision', { name, model: model.model }), name);
      const bytes = Buffer.from(raw.data, 'base64');
      const check = MAGIC[raw.mime];
      if (!check || !check(bytes)) throw new AttachmentError(say('attach.notImage', { name, mime: raw.mime }), name);
      out.push({ kind: 'image', name, mime: raw.mime, size: bytes.length, data: raw.data });
    } else {
      if (raw.text.includes('\u0000'))
        throw new AttachmentError(say('attach.binary', { name, mime: raw.mime || say('attach.unknownType') }), name);
      out.push({ kind: 'text', name, mime: raw.mime.slice(0, 100), size: raw.size, text: raw.text });
    }
    tokens += attachmentTokens(out.at(-1)!, true); // an image got here only for a model that reads images
    if (model && tokens > limit)
      throw new AttachmentError(
        say('attach.tooLarge', {
          name,
          size: sizeWords(raw.size),
          tokens: tokens.toLocaleString('en'),
          limit: limit.toLocaleString('en'),
          model: model.model,
        }),
        name,
      );
  }
  return out;
}
