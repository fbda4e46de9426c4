import { createRoot } from 'react-dom/client';
import './styles/app.css';
import { App } from './views/layout/App';
import { startSession } from './app/session';

const root = createRoot(document.getElementById('root')!);
root.render(<App />);
startSession().catch(() => {
  document.getElementById('root')!.setAttribute('data-failed', 'true');
});
