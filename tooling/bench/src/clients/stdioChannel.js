const channels = new WeakMap();

/** The closed-loop channel over a child's stdin/stdout (NDJSON: one message per line); one per child. */
export function stdioChannel(child) {
  let channel = channels.get(child);
  if (channel === undefined) {
    channel = createChannel(child);
    channels.set(child, channel);
  }
  return channel;
}

function createChannel(child) {
  let handler;
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) if (line !== '') handler?.(line);
  });
  return {
    send: (text) => child.stdin.write(`${text}\n`),
    onMessage: (callback) => {
      handler = callback;
    },
  };
}
