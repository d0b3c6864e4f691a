/**
 * A closed-loop message driver shared by the ws and stdio clients: each channel keeps `inFlight` requests
 * outstanding (1 = ping-pong) and sends the next as soon as a reply arrives, for `seconds`. Every reply is parsed
 * and matched to its request by id, as a real client must. Resolves with replies/s over the measured window.
 *
 * A channel is `{ send(text), onMessage(callback) }` where callback receives one JSON text per message.
 */
export function closedLoop({ channels, inFlight, seconds, requestText }) {
  return new Promise((resolve, reject) => {
    let nextId = 1;
    let completed = 0;
    let outstanding = 0;
    let stopping = false;
    const started = performance.now();
    let elapsed = 0;
    const finish = () => resolve({ rate: completed / (elapsed / 1000), total: completed });
    for (const channel of channels) {
      const pending = new Set();
      const sendOne = () => {
        const id = nextId++;
        pending.add(id);
        outstanding++;
        channel.send(requestText(id));
      };
      channel.onMessage((text) => {
        const message = JSON.parse(text);
        if (!pending.delete(message.id) || message.result === undefined) {
          reject(new Error(`unexpected reply ${text.slice(0, 300)}`));
          return;
        }
        outstanding--;
        if (stopping) {
          if (outstanding === 0) finish();
          return;
        }
        completed++;
        sendOne();
      });
      for (let i = 0; i < inFlight; i++) sendOne();
    }
    setTimeout(() => {
      stopping = true;
      elapsed = performance.now() - started;
      if (outstanding === 0) finish();
    }, seconds * 1000);
  });
}

/** `JSON.stringify(message)` with its id replaced per request, built once (both sides get identical bytes). */
export function requestTemplate(message) {
  const text = JSON.stringify({ ...message, id: 0 });
  const [head, tail] = text.split('"id":0');
  return (id) => `${head}"id":${id}${tail}`;
}
