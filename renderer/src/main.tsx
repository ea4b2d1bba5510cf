// Renderer entry: the desktop UI (chat, skills panel, approvals) lands with the UI issue.
import { createRoot } from 'react-dom/client';

function App() {
  return <main><h1>Knack</h1><p>The desktop interface is on its way. Use the `knack` CLI meanwhile.</p></main>;
}

createRoot(document.getElementById('root')!).render(<App />);
