import { useEffect, useState } from 'react';

interface Health {
  status: 'ok';
  database: 'pglite' | 'postgres';
}

const resources = ['companies', 'funds', 'contacts', 'firms', 'deals', 'investors'] as const;

/** The first screen until the application shell exists: is the API up, and what is in it. */
export function StatusPage() {
  const [health, setHealth] = useState<Health | null>(null);
  const [totals, setTotals] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetch('/api/health')
      .then((r) => (r.ok ? (r.json() as Promise<Health>) : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then(setHealth)
      .catch((e: Error) => setError(e.message));
    for (const resource of resources) {
      fetch(`/api/v1/${resource}?select=id&pageSize=1`)
        .then((r) => r.json() as Promise<{ total: number; totalExact: boolean }>)
        .then((page) =>
          setTotals((t) => ({ ...t, [resource]: `${page.total.toLocaleString('en')}${page.totalExact ? '' : '+'}` })),
        )
        .catch(() => undefined);
    }
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '48px auto', padding: '0 16px' }}>
      <h1>Data Platform</h1>
      {error && <p role="alert">The API is not reachable: {error}</p>}
      {health && (
        <p data-testid="health">
          API ready, database: <strong>{health.database}</strong>
        </p>
      )}
      <ul aria-label="Records">
        {resources.map((resource) => (
          <li key={resource}>
            {resource}: {totals[resource] ?? '…'}
          </li>
        ))}
      </ul>
      <p>
        <a href="/api/docs">API reference</a>
      </p>
    </main>
  );
}
