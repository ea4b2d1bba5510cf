// sha256 of a text as hex, in one call: crypto.hash (Node 20.12 on, no Hash object per call) where this Node has it,
// createHash elsewhere (Knack supports Node 20.10, where a named import of `hash` fails to load).
import * as nodeCrypto from 'node:crypto';

export const sha256Hex: (text: string) => string =
  typeof (nodeCrypto.hash as unknown) === 'function'
    ? (text) => nodeCrypto.hash('sha256', text, 'hex')
    : (text) => nodeCrypto.createHash('sha256').update(text).digest('hex');
