// Files picked, pasted or dropped into the chat, read in the window (File API) into what chat.send carries: text and
// code files as text, images as base64. What cannot go is refused here with its size and the limit or its type;
// main checks every file again (and refuses an image for a model that does not read images, naming the model).
import {
  IMAGE_TYPES,
  MAX_ATTACHMENTS,
  MAX_IMAGE_ATTACHMENT_BYTES,
  MAX_TEXT_ATTACHMENT_BYTES,
  MAX_UPLOAD_BYTES,
  type Attachment,
} from '../../../preload/contract';

/** Why a file was not attached: an i18n key under chat.attach and its values. */
export interface Refusal {
  name: string;
  key: 'tooLarge' | 'binary' | 'tooMany' | 'unreadable';
  values: Record<string, string>;
}

/** A size for people: bytes, KB or MB (1024-based, one decimal). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A skill package: a .zip (offered to the skill installer rather than attached). */
export function isSkillPackage(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip';
}

/** Rough tokens of an attachment for the box's note (the context meter counts the stored message exactly). */
export function tokensOf(a: Attachment): number {
  return a.kind === 'image' ? 1600 : Math.ceil(a.text.length / 4);
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function typeOf(file: File): string {
  return file.type || (/\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '') || 'unknown';
}

/** Read one file: an image by its type, anything else as UTF-8 text (a file that is not text is refused with its type). */
async function readAttachment(file: File): Promise<Attachment | Refusal> {
  const image = (IMAGE_TYPES as readonly string[]).includes(file.type);
  const limit = image ? MAX_IMAGE_ATTACHMENT_BYTES : MAX_TEXT_ATTACHMENT_BYTES;
  if (file.size > limit)
    return { name: file.name, key: 'tooLarge', values: { size: sizeText(file.size), limit: sizeText(limit) } };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    return { name: file.name, key: 'unreadable', values: { error: (e as Error).message } };
  }
  if (image)
    return {
      kind: 'image',
      name: file.name,
      mime: file.type as (typeof IMAGE_TYPES)[number],
      size: bytes.length,
      data: base64(bytes),
    };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { name: file.name, key: 'binary', values: { type: typeOf(file) } };
  }
  if (text.includes('\u0000')) return { name: file.name, key: 'binary', values: { type: typeOf(file) } };
  return { kind: 'text', name: file.name, mime: file.type || 'text/plain', size: bytes.length, text };
}

/** Add files to those already attached, refusing what would pass the count or the total size of one message. */
export async function addFiles(
  have: readonly Attachment[],
  files: readonly File[],
): Promise<{ files: Attachment[]; refused: Refusal[] }> {
  const out = [...have];
  const refused: Refusal[] = [];
  let total = have.reduce((s, a) => s + a.size, 0);
  for (const f of files) {
    if (out.length >= MAX_ATTACHMENTS) {
      refused.push({ name: f.name, key: 'tooMany', values: { limit: String(MAX_ATTACHMENTS) } });
      continue;
    }
    const r = await readAttachment(f);
    if ('key' in r) refused.push(r);
    else if (total + r.size > MAX_UPLOAD_BYTES)
      refused.push({
        name: f.name,
        key: 'tooLarge',
        values: { size: sizeText(total + r.size), limit: sizeText(MAX_UPLOAD_BYTES) },
      });
    else {
      out.push(r);
      total += r.size;
    }
  }
  return { files: out, refused };
}
