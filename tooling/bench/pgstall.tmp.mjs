import { freshDatabase, postgresForTests } from '@mcp-tasks/postgres-harness';
import { PostgresTaskStore } from '@mcp-tasks/store-postgres';

const postgres = await postgresForTests();
const url = await freshDatabase(postgres.url, 'stall');
const store = new PostgresTaskStore({
  connectionString: url,
  table: 'bench_store',
  onError: (e) => console.error('onError', e.message),
});
let ops = 0,
  maxLat = 0,
  stop = false;
const windows = [];
const t0 = performance.now();
const timer = setInterval(() => {
  windows.push([Math.round(performance.now() - t0), ops, maxLat.toFixed(0)]);
  ops = 0;
  maxLat = 0;
}, 250);
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (!stop) {
      const s = performance.now();
      await store.create('bench', { ttlMs: Number(process.env.TTL ?? 1000) });
      maxLat = Math.max(maxLat, performance.now() - s);
      ops++;
      if (performance.now() - t0 > Number(process.env.SECS ?? 30) * 1000) stop = true;
    }
  }),
);
clearInterval(timer);
const rates = windows.map((w) => w[1] * 4);
console.log('windows', windows.length, 'median rate', rates.slice().sort((a, b) => a - b)[rates.length >> 1]);
for (const w of windows)
  if (w[1] * 4 < 2000) console.log('slow window at', w[0], 'ms: rate', w[1] * 4, 'max latency', w[2], 'ms');
await store.close?.();
await postgres.stop();
