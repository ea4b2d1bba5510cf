// contextBridge: exposes window.knack = { methods: one function per contract method, onEvent }, nothing else —
// never raw ipcRenderer. Inputs are checked here too, so a malformed call never leaves the page.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  IPC_PREFIX,
  METHOD_NAMES,
  inputError,
  methods,
  type MethodName,
  type Result,
} from './contract.js';

const callers = {} as Record<MethodName, (input: unknown) => Promise<Result<unknown>>>;
for (const name of METHOD_NAMES) {
  callers[name] = async (input: unknown) => {
    const parsed = methods[name].input.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: inputError(name, parsed.error) };
    return (await ipcRenderer.invoke(IPC_PREFIX + name, input)) as Result<unknown>;
  };
}

const listeners = new Set<(name: string, payload: unknown) => void>();
ipcRenderer.on(IPC_EVENT_CHANNEL, (_e: IpcRendererEvent, name: unknown, payload: unknown) => {
  if (typeof name !== 'string') return;
  for (const l of listeners) l(name, payload);
});

contextBridge.exposeInMainWorld(
  'knack',
  Object.freeze({
    methods: Object.freeze(callers),
    onEvent(listener: (name: string, payload: unknown) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  }),
);
