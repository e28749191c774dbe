import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { registerServiceWorker } from './app/pwa.ts';
import './lib/i18n.ts';
import { startMarketSocket } from './lib/ws.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The market socket opens at start-up (spec 7) and lives as long as the page.
startMarketSocket();
registerServiceWorker();

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
