// Start-up: pick the API the host provides (the Electron preload's bridge, or the web host's
// socket), then render.

import { createRoot } from 'react-dom/client';
import { createElectronClient } from './api/electron-client.ts';
import type { DesktopBridge } from './api/electron-client.ts';
import { createWebClient } from './api/web-client.ts';
import { setApi } from './store/api.ts';
import { App } from './App.tsx';
import './styles.css';

const bridge = (window as unknown as { bargeDesktop?: DesktopBridge }).bargeDesktop;
setApi(bridge ? createElectronClient(bridge) : createWebClient());
createRoot(document.getElementById('root')!).render(<App />);
