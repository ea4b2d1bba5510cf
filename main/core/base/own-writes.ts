// Knack's own writes, said as they are made: a folder a running contained command may also be writing (a protected
// path it started without, e.g. `<workspace>/.workbuddy`) is swept after the command (core/contain), and the sweep
// leaves what Knack itself wrote there. Said by the writers (writeFileAtomic, a skill's install), heard by the walls.
// A writer says what each file holds (its SHA-256) when it knows: the sweep then keeps a file only while it holds
// that, so a command that changed it between Knack's write and this word is not taken for Knack.
/** File path → SHA-256 (hex) of what Knack wrote there. */
export type OwnContents = ReadonlyMap<string, string>;
type Listener = (path: string, contents?: OwnContents) => void;
const listeners = new Set<Listener>();

/**
 * Knack (this process) has just written `path` (a file, or a folder with everything in it). `contents`: what each file
 * written holds; then only those files (and the folders on their way) are Knack's.
 */
export function saidOwnWrite(path: string, contents?: OwnContents): void {
  for (const l of listeners) l(path, contents);
}

/** Hear Knack's own writes until the returned function is called. */
export function onOwnWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
