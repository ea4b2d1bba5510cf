// Renderer entry: builds the client from the typed contract (Electron bridge or serve-mode WebSocket),
// sets up i18n and renders the app. Never imports Node.
import { createRoot } from 'react-dom/client';
import { ClientProvider } from './api/context';
import { connect } from './api/client';
import { App } from './App';
import { warmHighlighter } from './components/Markdown';
import { initI18n } from './i18n';
import { useView } from './state/store';
import './theme.css';

initI18n();
const root = createRoot(document.getElementById('root')!);
connect().then(
  async (client) => {
    const info = await client.call('app.info', {}).catch(() => undefined);
    if (info?.workspace) useView.getState().setWorkspace(info.workspace);
    // A start with no folder open: the setup flow (folder, provider, key, Test connection), which can be skipped.
    else useView.getState().set({ setup: 'first' });
    root.render(
      <ClientProvider client={client}>
        <App />
      </ClientProvider>,
    );
    warmHighlighter();
  },
  (e: unknown) =>
    root.render(
      <main className="welcome">
        <h1>Knack</h1>
        <p role="alert" className="error">
          {String((e as Error)?.message ?? e)}
        </p>
      </main>,
    ),
);
