// contextBridge: exposes window.knack with one function per contract method, nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_PREFIX, methods, type MethodName } from './contract.js';

const api: Record<string, (input: unknown) => Promise<unknown>> = {};
for (const name of Object.keys(methods) as MethodName[]) {
  api[name] = (input: unknown) => ipcRenderer.invoke(IPC_PREFIX + name, input);
}

contextBridge.exposeInMainWorld('knack', Object.freeze(api));
