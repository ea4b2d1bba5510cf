// Knack's own writes, said as they are made: a folder a running contained command may also be writing (a protected
// path it started without, e.g. `<workspace>/.workbuddy`) is swept after the command (core/contain), and the sweep
// leaves what Knack itself wrote there. Said by the writers (writeFileAtomic, a skill's install), heard by the walls.
type Listener = (path: string) => void;
const listeners = new Set<Listener>();

/** Knack (this process) has just written `path` (a file, or a folder with everything in it). */
export function saidOwnWrite(path: string): void {
  for (const l of listeners) l(path);
}

/** Hear Knack's own writes until the returned function is called. */
export function onOwnWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
