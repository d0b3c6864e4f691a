// temp phase bench (not committed)
const dir = process.argv[2]; const phase = process.argv[3]; const ms = +(process.argv[4] ?? 3000);
const { InMemoryTaskStore, TaskOperations } = await import(dir + '/dist/index.js');
const OWNER='bench';
const store = new InMemoryTaskStore();
const ops = TaskOperations ? new TaskOperations(store) : store;
const y = () => new Promise((r) => setImmediate(r));
async function rate(ms, body){ for (let i=0;i<20000;i++) await body(i); let n=0; const s=performance.now(); const c=process.cpuUsage();
 while (performance.now()-s<ms){ for(let i=0;i<10000;i++) await body(n+i); n+=10000; await y(); }
 const u=process.cpuUsage(c); return n/((u.user+u.system)/1e6); }
const ids=[]; for (let i=0;i<10000;i++) ids.push((await store.create(OWNER,{ttlMs:3600000})).taskId);
const result = { content: [{ type: 'text', text: 'ok' }] };
const request = { method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } } };
const answer = { action: 'accept' };
let r;
if (phase==='cas'){ const versions=new Map(ids.map(id=>[id,1])); const patch={pollIntervalMs:1000};
 r = await rate(ms, async (i)=>{ const id=ids[i%ids.length]; const s=await ops.compareAndSwap(OWNER,id,versions.get(id),patch); if(!s.ok) throw new Error('lost'); versions.set(id,s.record.version);});}
if (phase==='life') r = await rate(ms, async()=>{ const t=await store.create(OWNER,{ttlMs:1000}); await ops.complete(OWNER,t.taskId,result);});
if (phase==='input') r = await rate(ms, async()=>{ const t=await store.create(OWNER,{ttlMs:1000}); const a=await ops.requestInput(OWNER,t.taskId,request);
 const w=ops.waitForInput(OWNER,t.taskId,a.key); await ops.resolveInputs(OWNER,t.taskId,{[a.key]:answer}); await w; await ops.complete(OWNER,t.taskId,result);});
console.log(phase, Math.round(r).toLocaleString('en-US'), '/s CPU');
if (ops!==store) await ops.close(); await store.close();
