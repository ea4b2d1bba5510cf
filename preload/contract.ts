// The single typed contract between the renderer and the main process: every method with its zod
// payload schema, every event. Electron (ipcMain/contextBridge) and serve mode (WebSocket) bind the same table.
import { z } from 'zod';

export const methods = {
  'skills.list': {
    input: z.object({ workspace: z.string().min(1) }),
  },
  'skills.setEnabled': {
    input: z.object({ workspace: z.string().min(1), name: z.string().min(1), enabled: z.boolean() }),
  },
} as const;

export type MethodName = keyof typeof methods;
export type MethodInput<M extends MethodName> = z.infer<(typeof methods)[M]['input']>;

export const events = {
  'catalog.changed': z.object({ workspace: z.string() }),
} as const;

export type EventName = keyof typeof events;

/** Errors cross every boundary in this shape. */
export interface ContractError {
  code: string;
  message: string;
  details?: unknown;
}

export const IPC_PREFIX = 'knack:';
