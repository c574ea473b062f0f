import { StrictMode, useEffect, useState } from 'react'
import { createRoot } from 'react-dom/client'

declare global {
  interface Window {
    api?: { serviceInfo(): Promise<{ url: string }> }
  }
}

/** The shell's first screen: where the /v1 service listens. The operator UI grows from here. */
function App() {
  const [url, setUrl] = useState<string>()
  useEffect(() => {
    void window.api?.serviceInfo().then((info) => setUrl(info.url))
  }, [])
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 24 }}>
      <h1>VoiceDesk</h1>
      <p>{url ? `The /v1 service listens on ${url}` : 'Starting the /v1 service…'}</p>
    </main>
  )
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
