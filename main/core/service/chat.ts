// Contract handlers for chat, sessions, the context view and the provider settings, bound to the agent
// (main/core/agent). Until the agent's public API is on main, these answer `unavailable` with a clear message.
import type { Handlers } from './dispatch.js';
import { ServiceError } from './dispatch.js';
import type { ServiceContext } from './context.js';
import type { ServiceOptions } from './index.js';
import type { KnackWorkspace } from '../workspace.js';
import { loadSettings } from '../config/settings.js';
import type { SettingsView } from '../../../preload/contract.js';

type ChatHandlers = Pick<Handlers,
  'chat.send' | 'chat.stop' | 'chat.answer' | 'chat.setPlanMode' | 'sessions.list' | 'sessions.open' | 'sessions.export' |
  'sessions.delete' | 'context.get' | 'settings.get' | 'settings.setProvider' | 'settings.setKey' | 'settings.clearKey'>;

export class ChatBinding {
  private ws: KnackWorkspace | undefined;
  constructor(private readonly ctx: ServiceContext, private readonly options: ServiceOptions) {}

  attach(ws: KnackWorkspace): void {
    this.ws = ws;
  }

  async detach(): Promise<void> {
    this.ws = undefined;
  }

  settingsView(): SettingsView {
    const settings = this.ws?.settings ?? loadSettings(this.options.paths.dataDir).settings;
    return { provider: null, presets: [], ceiling: settings.policy.ceiling, warnings: [], keyStorage: this.options.keyStore?.kind ?? 'file' };
  }

  handlers(): ChatHandlers {
    const later = (): never => {
      throw new ServiceError('unavailable', 'chat is wired once the agent (issue 11) is on main');
    };
    return {
      'chat.send': later, 'chat.stop': later, 'chat.answer': later, 'chat.setPlanMode': later,
      'sessions.list': later, 'sessions.open': later, 'sessions.export': later, 'sessions.delete': later,
      'context.get': later,
      'settings.get': () => this.settingsView(),
      'settings.setProvider': later, 'settings.setKey': later, 'settings.clearKey': later,
    };
  }
}
